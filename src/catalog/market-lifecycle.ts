import type { Market } from '../schema/generated/market-types.js';
import { mixSeed } from '../floor/seed-mix.js';
import { fnv1a } from '../floor/text-hash.js';
import { parseInstant } from '../floor/instant.js';

/**
 * The opt-in lifecycle of generated markets (docs/lifecycle.md): each market's life is a pure
 * function of (seed, market_id, resolution_date, yes_price), computed in O(1) when it is read, and
 * its status at a stub instant follows the stages of the chosen set. Nothing moves a market but
 * the clock (time-based moves are silent: no event, no pass over the catalog).
 *
 * - `off` (the default): every market keeps its status; nothing here applies.
 * - `generic`: active → closed → resolved. A market not yet open is neither listed nor answered (404).
 * - `kalshi`: initialized → active → closed → determined → finalized (the stages of Kalshi's market
 *   lifecycle). A market not yet open is not listed; `GET /markets/{id}` answers it `initialized`.
 */
export type LifecycleMode = 'off' | 'generic' | 'kalshi';

/** The instants of one market's life, epoch ms, in order: open < close < resolve ≤ finalize < retire. */
export interface MarketLife {
  /** Trading opens (the market is listed from here): 7 to 730 days (whole hours) before close. */
  open: number;
  /** Trading closes: on the resolution date, at a seeded whole hour 00:00–23:00Z (so an active market's resolution_date is never past). */
  close: number;
  /** The outcome is known: RESOLVE_DELAY_MS after close (`resolved`, or `determined` in the kalshi set); prices go to 1 and 0. */
  resolve: number;
  /** Settled (`finalized`, kalshi set): SETTLEMENT_DELAY_MS after resolve; equal to resolve in the generic set. */
  finalize: number;
  /** The market leaves the list (RETENTION_MS after its last stage); `GET /markets/{id}` still answers it. */
  retire: number;
  /** The seeded outcome: yes with probability the market's start yes_price. */
  outcome: 'yes' | 'no';
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Close → resolved (generic) or determined (kalshi). */
export const RESOLVE_DELAY_MS = HOUR_MS;
/** Determined → finalized (kalshi set). */
export const SETTLEMENT_DELAY_MS = DAY_MS;
/** After its last stage (resolved, or finalized) a market stays listed this long. */
export const RETENTION_MS = 7 * DAY_MS;
/** A market trades 7 days to 730 days (exclusive), in whole hours, before its close: about half a generated catalog is open at the clock's start, the rest opens over the next two years. */
const MIN_LIFETIME_HOURS = 7 * 24;
const LIFETIME_SPAN_HOURS = 723 * 24;
/** mixSeed streams of the lifecycle (generate-markets.ts uses 1–5, the price walk 37). */
const STREAM = { close: 41, lifetime: 42, outcome: 43 } as const;

/**
 * The life of one market: seeded by (seed, market_id), anchored on its resolution_date (UTC) and
 * its start yes_price (the outcome's odds). O(1).
 * @returns undefined when the resolution_date is not a calendar date (such a market has no lifecycle).
 */
export function marketLife(seed: number, market: Market, mode: Exclude<LifecycleMode, 'off'>): MarketLife | undefined {
  const date = dayStart(market.resolution_date);
  if (date === undefined) return undefined;
  const h = fnv1a(market.market_id);
  const close = date + (mixSeed(seed, h, STREAM.close) % 24) * HOUR_MS;
  const open = close - (MIN_LIFETIME_HOURS + (mixSeed(seed, h, STREAM.lifetime) % LIFETIME_SPAN_HOURS)) * HOUR_MS;
  const resolve = close + RESOLVE_DELAY_MS;
  const finalize = mode === 'kalshi' ? resolve + SETTLEMENT_DELAY_MS : resolve;
  const startCents = Math.min(99, Math.max(1, Math.round(market.yes_price * 100)));
  const outcome = mixSeed(seed, h, STREAM.outcome) % 100 < startCents ? 'yes' : 'no';
  return { open, close, resolve, finalize, retire: finalize + RETENTION_MS, outcome };
}

/** 00:00:00Z of a YYYY-MM-DD date, epoch ms (read by hand: the index reads every market's once); another text through parseInstant. */
function dayStart(date: string): number | undefined {
  if (date.length !== 10 || date.charCodeAt(4) !== 45 || date.charCodeAt(7) !== 45) return parseInstant(date);
  const [y, m, d] = [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
  const ms = Date.UTC(y, m - 1, d);
  // Date.UTC rolls 2026-02-30 over into March: a date that does not exist has no lifecycle.
  return Number.isInteger(ms) && new Date(ms).getUTCDate() === d && m >= 1 && m <= 12 && y >= 1970 ? ms : undefined;
}

/**
 * The status of a market with this life at stub instant `t` (epoch ms), or undefined before it
 * opens in the generic set (it does not exist yet). Never goes back as t grows.
 */
export function statusAt(life: MarketLife, t: number, mode: Exclude<LifecycleMode, 'off'>): string | undefined {
  if (t < life.open) return mode === 'kalshi' ? 'initialized' : undefined;
  if (t < life.close) return 'active';
  if (t < life.resolve) return 'closed';
  if (mode === 'generic') return 'resolved';
  return t < life.finalize ? 'determined' : 'finalized';
}

/** Whether the list shows a market with this life at `t`: open, and not yet past its retention. */
export function listedAt(life: MarketLife, t: number): boolean {
  return life.open <= t && t < life.retire;
}

/**
 * A market as its lifecycle serves it at stub instant `t`: its status at t; its prices walked
 * (`pricesAt(step)`) before close, held at the close instant's prices while closed, and 1 / 0 from
 * resolution (yes_price 1 for a yes outcome, 0 for no), unchanged after. `pricesAt` gives the
 * market with its prices at a stub instant (the price walk; the market itself when it does not walk).
 * @returns undefined for a market not yet open in the generic set.
 */
export function livedMarket(market: Market, life: MarketLife, t: number, mode: Exclude<LifecycleMode, 'off'>, pricesAt: (instant: number) => Market): Market | undefined {
  const status = statusAt(life, t, mode);
  if (status === undefined) return undefined;
  if (t >= life.resolve) {
    const yes = life.outcome === 'yes' ? 1 : 0;
    return { ...market, status, yes_price: yes, no_price: 1 - yes };
  }
  const priced = pricesAt(t < life.close ? t : life.close);
  return status === priced.status ? priced : { ...priced, status };
}
