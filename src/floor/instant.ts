/**
 * The floor's time vocabulary: an instant (epoch milliseconds, UTC) and an ISO 8601 duration, read
 * strictly from text and written back as RFC 3339. No clock is read here: an instant is a value
 * (docs/architecture.md, "The stub clock").
 *
 * Why a parser here and not a library: the duration parsers of npm (tinyduration 3.4.1,
 * iso8601-duration 2.1.4) match without anchors, so `xP1Dy` reads as one day, and
 * iso8601-duration drops the sign of `-P1D`; a refusal of "an unparsable or negative duration"
 * needs the anchored grammar, which is the whole parser. A Temporal polyfill parses both strictly
 * but is a calendar system on the browser bundle's path for two regular expressions.
 */
import { isCalendarDate } from './market-rules.js';
import { MAX_INSTANT_MS, MIN_INSTANT_MS } from './limits.js';

/** Words for the range, as every surface refuses an instant outside it. */
export const INSTANT_EXPECTED = 'a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999';
/** Words for a price step, as every surface refuses one. */
export const STEP_EXPECTED = 'an ISO 8601 duration without years or months from PT1S to P366D (PT1M, PT15M, PT1H, P1D)';
/** Words for a duration, as every surface refuses one. */
export const DURATION_EXPECTED = 'an ISO 8601 duration such as PT6H, P1D, P1Y2M or PT0.5S (not negative, at most 9 digits a part)';

/**
 * RFC 3339 §5.6 `date-time` (`full-date "T" full-time`, `T`/`Z` in either case) or a bare
 * `full-date`, read as that day's 00:00:00Z. Seconds 60 (a leap second) is refused: an epoch
 * instant has no place for it.
 */
const RFC3339 = /^(\d{4}-\d{2}-\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2})))?$/;

/**
 * Reads an instant from text: `2026-01-01` (that day at 00:00:00Z) or an RFC 3339 date-time
 * (`2026-01-01T12:30:00Z`, `2026-01-01T07:30:00.250-05:00`), fractions beyond milliseconds cut.
 * @returns epoch milliseconds, or undefined for text that is not one or lies outside
 *   MIN_INSTANT_MS…MAX_INSTANT_MS (INSTANT_EXPECTED says so in words).
 */
export function parseInstant(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, date = '', hh, mm, ss, frac, , sign, oh, om] = m;
  if (!isCalendarDate(date)) return undefined;
  let ms = Date.parse(`${date}T00:00:00Z`);
  if (hh !== undefined) {
    const [h, mi, s] = [Number(hh), Number(mm), Number(ss)];
    if (h > 23 || mi > 59 || s > 59) return undefined;
    const offset = sign === undefined ? 0 : Number(oh) * 60 + Number(om);
    if (sign !== undefined && (Number(oh) > 23 || Number(om) > 59)) return undefined;
    ms += ((h * 60 + mi) * 60 + s) * 1000 + Number((frac ?? '').padEnd(3, '0').slice(0, 3)) - (sign === '-' ? -offset : offset) * 60_000;
  }
  return Number.isFinite(ms) && ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS ? ms : undefined;
}

/** An instant as RFC 3339 in UTC: `2026-01-01T12:00:00Z`, with `.250` only when it has milliseconds. */
export function formatInstant(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** The YYYY-MM-DD date (UTC) an instant falls on. */
export function dateOfInstant(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** An ISO 8601 duration (§4.4.3.2, the format with designators): its calendar part and its exact part. */
export interface IsoDuration {
  /** Whole years and months: calendar lengths, applied as the UTC calendar does (addDuration). */
  readonly months: number;
  /** Weeks, days, hours, minutes and seconds in milliseconds (a UTC day is always 86,400 s). */
  readonly ms: number;
}

/** `PnYnMnWnDTnHnMnS`: each part whole (at most 9 digits), seconds with a fraction (`.` or `,`); at least one part; `T` only before a time part. */
const DURATION = /^P(?!$)(?:(\d{1,9})Y)?(?:(\d{1,9})M)?(?:(\d{1,9})W)?(?:(\d{1,9})D)?(?:T(?=\d)(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9})(?:[.,](\d{1,9}))?S)?)?$/;

/**
 * Reads an ISO 8601 duration (`PT6H`, `P1D`, `P1Y2M`, `PT0.5S`, `P2W`); a sign (`-P1D`), an empty
 * `P` or `PT`, a fraction anywhere but the seconds, and anything around the duration are refused.
 * @returns the duration, or undefined (DURATION_EXPECTED says what is taken).
 */
export function parseDuration(text: string): IsoDuration | undefined {
  const m = DURATION.exec(text);
  if (!m) return undefined;
  const [y = 0, mo = 0, w = 0, d = 0, h = 0, mi = 0, s = 0] = m.slice(1, 8).map((part) => (part === undefined ? 0 : Number(part)));
  const fraction = m[8] === undefined ? 0 : Number(m[8].padEnd(3, '0').slice(0, 3));
  return { months: y * 12 + mo, ms: ((((w * 7 + d) * 24 + h) * 60 + mi) * 60 + s) * 1000 + fraction };
}

/**
 * The instant a duration after `ms`: months first on the UTC calendar (a day past the end of the
 * target month is that month's last day, as `P1M` after 31 January is 28 or 29 February), then
 * the exact part. @returns epoch ms (possibly beyond MAX_INSTANT_MS: the caller refuses it).
 */
export function addDuration(ms: number, duration: IsoDuration): number {
  if (duration.months === 0) return ms + duration.ms;
  const t = new Date(ms);
  const month = t.getUTCFullYear() * 12 + t.getUTCMonth() + duration.months;
  const [year, inYear] = [Math.floor(month / 12), month % 12];
  // A clock's instants lie in 1970–9999 (Date.UTC reads a year below 100 as 19xx: never reached).
  if (year > 9999) return Number.POSITIVE_INFINITY;
  const lastDay = new Date(Date.UTC(year, inYear + 1, 0)).getUTCDate();
  return Date.UTC(year, inYear, Math.min(t.getUTCDate(), lastDay), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds(), t.getUTCMilliseconds()) + duration.ms;
}

/**
 * Reads a price step: an ISO 8601 duration of fixed length (no years or months, whose lengths vary)
 * from one second to 366 days. @returns its length in ms, or undefined (STEP_EXPECTED says so).
 */
export function parseStep(text: string): number | undefined {
  const duration = parseDuration(text);
  if (duration === undefined || duration.months !== 0) return undefined;
  return duration.ms >= 1000 && duration.ms <= 366 * 86_400_000 ? duration.ms : undefined;
}
