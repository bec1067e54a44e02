/**
 * Domain rules JSON Schema cannot state (price sums, float noise, calendar dates): the generator's guarantees and the
 * checker's assumption-level warnings share this one definition.
 */

/** Converts whole cents (1–99) to a price whose shortest JSON text has at most 2 decimals. */
export function centsToPrice(cents: number): number {
  // Integer division by 100 is correctly rounded, so 57 / 100 prints as 0.57 (no float noise).
  return cents / 100;
}

/**
 * The yes/no pair of a generated market: yes on the 0.01 tick clamped to [0.01, 0.99], no its
 * complement, so the two texts sum to exactly 1.00 (computed in cents, never as 1 - yes).
 */
export function complementaryPrices(rawYes: number): { yes_price: number; no_price: number } {
  const cents = Math.min(99, Math.max(1, Math.round(rawYes * 100)));
  return { yes_price: centsToPrice(cents), no_price: centsToPrice(100 - cents) };
}

/**
 * True when a number's shortest JSON text carries binary float noise, e.g. 0.5700000000000001 or
 * 0.26999999999999996: more than 6 decimals, yet within 1e-9 of a 6-decimal value. A genuinely
 * precise value such as 0.66749733001068 is not noise.
 */
export function hasFloatNoise(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const text = String(value);
  const decimals = text.includes('e') ? 0 : (text.split('.')[1]?.length ?? 0);
  if (decimals <= 6) return false;
  return Math.abs(value - Number(value.toFixed(6))) < 1e-9;
}

/** Default tolerance for |yes_price + no_price − 1| before the checker warns (bid/ask spreads are larger). */
export const PRICE_SUM_TOLERANCE = 0.005;

/** |yes + no − 1| computed in 1e-6 units so float representation does not count as deviation. */
export function priceSumDeviation(yes: number, no: number): number {
  return Math.abs(Math.round(yes * 1e6) + Math.round(no * 1e6) - 1e6) / 1e6;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `text` is a real calendar date in YYYY-MM-DD (RFC 3339 full-date). */
export function isCalendarDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Adds whole days to a YYYY-MM-DD date, in UTC. @throws RangeError when `date` is not a calendar date. */
export function addDays(date: string, days: number): string {
  if (!isCalendarDate(date)) throw new RangeError(`not a YYYY-MM-DD calendar date: ${JSON.stringify(date)}`);
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Today's date in UTC as YYYY-MM-DD, for the default clock. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
