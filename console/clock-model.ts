// What the console shows of the stub clock (`GET /__stub/clock`, docs/admin-api.md "The stub clock")
// and the change its form asks for: no DOM here, so test/console/console-model.test.ts runs it in Node.
import { formatInstant, parseInstant } from '../src/floor/instant.js';
import { MAX_INSTANT_MS } from '../src/floor/limits.js';

/** `GET /__stub/clock` and `POST /__stub/clock`: the stub's own type (type-only, nothing of src/ is bundled but the floor). */
export type { ClockReading } from '../src/catalog/stub-clock.js';
import type { ClockChange, ClockReading } from '../src/catalog/stub-clock.js';

/** The clock as the console draws it. */
export interface ClockView {
  /** The stub instant, RFC 3339 UTC to the second: the reading's, run on locally by `rate` for the real time since it was read. */
  instant: string;
  /** The rate in words: `frozen (rate 0)`, `real time (rate 1)`, `rate 60: 1 min of stub time a second`. */
  pace: string;
  /** `lifecycle kalshi: markets open, close and resolve on this clock`, or undefined when it is off. */
  lifecycle: string | undefined;
}

const UNITS: readonly [number, string][] = [[31_536_000, 'y'], [86_400, 'd'], [3600, 'h'], [60, 'min'], [1, 's']];

/** A count of stub seconds in the largest unit that keeps it whole or one decimal (`1 h`, `1.5 min`, `0.5 s`). */
function span(seconds: number): string {
  const [size, unit] = UNITS.find(([s]) => seconds >= s) ?? [1, 's'];
  return `${Math.round((seconds / size) * 10) / 10} ${unit}`;
}

/**
 * The clock read at wall time `readAtMs`, shown at wall time `nowMs` (both ms): a running clock's
 * instant is moved on by (nowMs − readAtMs) × rate, as the stub's own clock moves (stub-clock.ts),
 * and held at MAX_INSTANT_MS. The console reads the clock again every few seconds, so this only
 * fills the time in between.
 */
export function clockView(reading: ClockReading, readAtMs: number, nowMs: number): ClockView {
  const read = parseInstant(reading.instant);
  const moved = read === undefined || reading.rate === 0 ? read : Math.min(MAX_INSTANT_MS, read + Math.floor(Math.max(0, nowMs - readAtMs) * reading.rate));
  const pace = reading.rate === 0 ? 'frozen (rate 0)' : reading.rate === 1 ? 'real time (rate 1)' : `rate ${reading.rate}: ${span(reading.rate)} of stub time a second`;
  return {
    // Whole seconds: a running clock's reading carries milliseconds, which would only flicker.
    instant: moved === undefined ? reading.instant : formatInstant(moved - (moved % 1000)),
    pace,
    lifecycle: reading.lifecycle === 'off' ? undefined : `lifecycle ${reading.lifecycle}: markets open, close and resolve on this clock`,
  };
}

/**
 * The change the clock form asks for, as `POST /__stub/clock` takes it: `advance` (an ISO 8601
 * duration) and `rate` (a number) when given. The stub checks both (a negative or unparsable
 * duration, a rate outside 0–31,536,000) and its refusal, naming the field, is what the page shows.
 * @throws Error naming the field when neither is given, or the rate is not a number at all.
 */
export function clockChange(advance: string, rate: string): ClockChange {
  const change: ClockChange = {};
  if (advance.trim() !== '') change.advance = advance.trim();
  if (rate.trim() !== '') {
    const value = Number(rate.trim());
    if (!Number.isFinite(value)) throw new Error(`rate: expected stub seconds per real second, a number (0 frozen, 1 real time, 3600 an hour a second), found "${rate.trim()}"`);
    change.rate = value;
  }
  if (change.advance === undefined && change.rate === undefined) throw new Error('give a duration to advance by (PT6H, P1D) or a rate: an empty change moves nothing');
  return change;
}
