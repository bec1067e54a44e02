// What the catalog pane shows, computed from admin API data alone (no DOM): testable under Node.
import type { DeviationReach, DeviationState, MarketRow } from './console-types.js';
import { text } from './value-text.js';

/**
 * A deviation as one market serves it: named for it (`market`), served by every market (`all`),
 * chosen for it by a seeded share (`share`), or a share of a catalog too large for the stub to
 * count market by market (`rate`: this market may or may not serve it).
 */
export interface MarketDeviationTag {
  name: string;
  kind: 'market' | 'all' | 'share' | 'rate';
  label: string;
}

/** The markets of each reach entry, as a set (built once per entry: a catalog row looks up its id). */
const members = new WeakMap<DeviationReach, ReadonlySet<string>>();

function membersOf(reach: DeviationReach): ReadonlySet<string> {
  let set = members.get(reach);
  if (!set) members.set(reach, (set = new Set(reach.marketIds)));
  return set;
}

/**
 * The deviations in force that one market serves, from what the stub counted (`reach` of
 * `GET /__stub/deviations`): a share tags only the markets it selected; list deviations concern
 * the list, not a market.
 */
export function deviationsOf(marketId: string, state: DeviationState): MarketDeviationTag[] {
  const tags: MarketDeviationTag[] = [];
  for (const reach of state.reach ?? []) {
    if (reach.scope === 'list') continue;
    const percent = `${Math.round((reach.rate ?? 1) * 100)}%`;
    if (reach.chosen === 'all') tags.push({ name: reach.name, kind: 'all', label: `${reach.name} (all)` });
    else if (reach.marketIds === undefined) tags.push({ name: reach.name, kind: 'rate', label: `${reach.name} ~${percent}?` });
    else if (membersOf(reach).has(marketId)) tags.push(reach.chosen === 'rate' ? { name: reach.name, kind: 'share', label: `${reach.name} (${percent} share)` } : { name: reach.name, kind: 'market', label: reach.name });
  }
  return tags;
}

/** Whether a market matches a search: every word in its id, title, status, resolution date or deviation names. */
export function marketMatches(market: MarketRow, tags: readonly MarketDeviationTag[], query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const haystack = [market.market_id, text(market.title), text(market.status), text(market.resolution_date), ...tags.map((t) => t.label)].join(' ').toLowerCase();
  return words.every((w) => haystack.includes(w));
}

/** Bars of the price chart: prices 0–1 in steps of 1/PRICE_BINS. */
export const PRICE_BINS = 20;

/** How many markets' yes_price fall in each bin of [0, 1] (1 itself in the last); prices that are not numbers in [0, 1] are counted apart. */
export function priceBins(markets: readonly MarketRow[], bins = PRICE_BINS): { counts: number[]; outside: number } {
  const counts = new Array<number>(bins).fill(0);
  let outside = 0;
  for (const market of markets) {
    const price = market.yes_price;
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > 1) {
      outside += 1;
      continue;
    }
    const bin = Math.min(bins - 1, Math.floor(price * bins));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  return { counts, outside };
}

/** Markets whose yes_price + no_price is not 1 (to the cent), or not two numbers. */
export function unbalanced(markets: readonly MarketRow[]): number {
  return markets.filter((m) => typeof m.yes_price !== 'number' || typeof m.no_price !== 'number' || Math.abs(m.yes_price + m.no_price - 1) > 0.005).length;
}
