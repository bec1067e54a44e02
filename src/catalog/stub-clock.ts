import { MAX_CLOCK_RATE, MAX_INSTANT_MS } from '../floor/limits.js';
import { addDuration, DURATION_EXPECTED, formatInstant, INSTANT_EXPECTED, parseDuration, parseInstant } from '../floor/instant.js';
import { optionError } from '../floor/market-stub-error.js';
import type { LifecycleMode } from './market-lifecycle.js';

/**
 * The stub clock: the one owner of stub time (docs/architecture.md, "The stub clock"). It holds an
 * instant and a rate (stub seconds per real second): `now()` is the instant it was last set to plus
 * the real time since, times the rate. The request core reads it once per request and passes the
 * instant down; nothing else moves the world (no timer).
 */
export interface StubClock {
  /** The instant the clock started at (and `reset` returns to), epoch ms: the origin of every price walk. */
  readonly start: number;
  /** The stub instant now, epoch ms (integer; at most MAX_INSTANT_MS however long it runs). */
  now(): number;
  /** What `GET /__stub/clock` answers: the instant now, the rate, the start and the lifecycle that follows the clock. */
  read(): ClockReading;
  /**
   * Sets the clock: `to` an instant, then `advance` by an ISO 8601 duration, then `rate`; each
   * optional, all checked before any applies (nothing half-done). The clock never goes back
   * (`reset` does). @returns the reading after.
   * @throws MarketStubError OPTION_INVALID naming the rule broken (`to`, `advance`, `rate`, or `body` for another field).
   */
  set(change: unknown, where: string): ClockReading;
  /**
   * Moves the clock forward by `ms` (what `tick(n)` does: n price steps).
   * @throws MarketStubError OPTION_INVALID (`option`) when that passes MAX_INSTANT_MS; nothing changes then.
   */
  forward(ms: number, where: string, option: string): void;
  /** Back to the start instant and start rate. */
  reset(): void;
}

/** The clock as the admin API, the handle and the remote client show it. */
export interface ClockReading {
  /** The stub instant now, RFC 3339 UTC (`2026-01-01T06:00:00Z`). */
  instant: string;
  /** Stub seconds per real second: 0 frozen, 1 real time, 3600 an hour a second. */
  rate: number;
  /** The instant the clock started at, RFC 3339 UTC: `reset` goes back to it, and price walks start from it. */
  start: string;
  /**
   * The lifecycle generated markets follow on this clock (the `lifecycle` option, docs/lifecycle.md):
   * `off` (the default: every market keeps its status), `generic` or `kalshi`. Set at start; no control changes it.
   */
  lifecycle: LifecycleMode;
}

/** What `POST /__stub/clock` and `setClock` take: any of the three, alone or together. */
export interface ClockChange {
  /** An instant (`2026-01-02` or an RFC 3339 date-time), not before the clock's instant now. */
  to?: string;
  /** An ISO 8601 duration to move forward by (`PT6H`, `P1D`, `P1Y`). */
  advance?: string;
  /** Stub seconds per real second, 0 to MAX_CLOCK_RATE. */
  rate?: number;
}

/** The words every surface refuses a bad rate with. */
export const RATE_EXPECTED = `stub seconds per real second, a number from 0 (frozen) to ${MAX_CLOCK_RATE} (a year a second)`;
const CHANGE_KEYS = ['to', 'advance', 'rate'] as const;

/**
 * Creates a clock at `start` (epoch ms, within MIN_INSTANT_MS…MAX_INSTANT_MS) running at `rate`.
 * `wall` is the real clock (Date.now unless a test gives another): read only while the rate is not 0.
 * `lifecycle` is only reported in the reading (the store moves the markets: catalog/market-store.ts).
 */
export function createStubClock(start: number, rate = 0, wall: () => number = Date.now, lifecycle: LifecycleMode = 'off'): StubClock {
  let anchorStub = start;
  let anchorWall = wall();
  let current = rate;
  const now = (): number => {
    if (current === 0) return anchorStub;
    return Math.min(MAX_INSTANT_MS, anchorStub + Math.floor((wall() - anchorWall) * current));
  };
  const settle = (instant: number, nextRate: number): void => {
    anchorStub = instant;
    anchorWall = wall();
    current = nextRate;
  };
  const read = (): ClockReading => ({ instant: formatInstant(now()), rate: current, start: formatInstant(start), lifecycle });
  return {
    start,
    now,
    read,
    set(change, where) {
      const planned = planChange(change, now(), current, where);
      settle(planned.instant, planned.rate);
      return read();
    },
    forward(ms, where, option) {
      const from = now();
      if (!(from + ms <= MAX_INSTANT_MS)) throw optionError(where, option, `a move that keeps the clock at or before ${formatInstant(MAX_INSTANT_MS)} (it is ${formatInstant(from)})`, ms);
      settle(from + ms, current);
    },
    reset: () => settle(start, rate),
  };
}

/** Stage: a change checked against the clock's instant now and turned into the instant and rate it leads to. */
function planChange(change: unknown, instantNow: number, rateNow: number, where: string): { instant: number; rate: number } {
  if (change === null || typeof change !== 'object' || Array.isArray(change)) throw optionError(where, 'body', 'an object with any of to, advance, rate (such as {"advance":"PT6H"})', change);
  const given = change as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(CHANGE_KEYS as readonly string[]).includes(key)) throw optionError(where, key, `one of ${CHANGE_KEYS.join(', ')}`, key);
  }
  let instant = instantNow;
  if (given['to'] !== undefined) {
    const to = typeof given['to'] === 'string' ? parseInstant(given['to']) : undefined;
    if (to === undefined) throw optionError(where, 'to', INSTANT_EXPECTED, given['to']);
    if (to < instantNow) throw optionError(where, 'to', `an instant not before the clock's ${formatInstant(instantNow)} (the clock moves only forward; reset goes back to its start)`, given['to']);
    instant = to;
  }
  if (given['advance'] !== undefined) {
    const duration = typeof given['advance'] === 'string' ? parseDuration(given['advance']) : undefined;
    if (duration === undefined) throw optionError(where, 'advance', DURATION_EXPECTED, given['advance']);
    const moved = addDuration(instant, duration);
    if (!(moved <= MAX_INSTANT_MS)) throw optionError(where, 'advance', `a duration that keeps the clock at or before ${formatInstant(MAX_INSTANT_MS)} (it is ${formatInstant(instant)})`, given['advance']);
    instant = moved;
  }
  const rate = given['rate'] === undefined ? rateNow : checkRate(given['rate'], where, 'rate');
  return { instant, rate };
}

/** A rate: a finite number from 0 to MAX_CLOCK_RATE. @throws MarketStubError OPTION_INVALID */
export function checkRate(value: unknown, where: string, option: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_CLOCK_RATE) throw optionError(where, option, RATE_EXPECTED, value);
  return value;
}
