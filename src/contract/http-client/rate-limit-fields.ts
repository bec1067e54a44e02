import { parseDictionary, parseList, type Item } from 'structured-headers';

/**
 * What an answer says about the deployment's rate limit, read from the header fields deployments
 * use: `Retry-After` (RFC 9110 §10.2.3: delta-seconds or an HTTP-date), the IETF `RateLimit` and
 * `RateLimit-Policy` fields (draft-ietf-httpapi-ratelimit-headers: Structured Field lists,
 * `RateLimit: "default";r=0;t=5`, `RateLimit-Policy: "default";q=10;w=1`), the earlier drafts'
 * `RateLimit: limit=10, remaining=0, reset=5` dictionary and `RateLimit-Limit`/`-Remaining`/`-Reset`
 * fields, and the common `X-RateLimit-Limit`/`-Remaining`/`-Reset` (the reset in seconds from now,
 * or, past 10⁹, a Unix time in seconds as GitHub sends it).
 */
export interface RateLimitReading {
  /** Requests left in the current window. */
  remaining?: number;
  /** Time until the window resets (or the answer's Retry-After), in ms from now. */
  resetMs?: number;
  /** The quota: `quota` requests per `windowMs` (RateLimit-Policy q and w). */
  quota?: number;
  windowMs?: number;
  /** The fields read, as written (`RateLimit: "default";r=0;t=5`), for findings and messages. */
  evidence: string[];
}

/** Values of X-RateLimit-Reset above this are a Unix time in seconds, below it seconds from now. */
const EPOCH_SECONDS = 1_000_000_000;
/** Longest header value read (a hostile field costs no more). */
const MAX_FIELD = 1_024;

/**
 * The rate-limit fields of an answer (header names lower-cased). `now` is `Date.now()` (for an
 * HTTP-date or a Unix-time reset). Malformed fields are ignored: a pace hint, never an error.
 */
export function readRateLimit(headers: Readonly<Record<string, string>>, now = Date.now()): RateLimitReading {
  const reading: RateLimitReading = { evidence: [] };
  const field = (name: string) => {
    const value = headers[name];
    return value === undefined || value.length > MAX_FIELD ? undefined : value.trim();
  };
  readIetf(field('ratelimit'), field('ratelimit-policy'), reading);
  readTriple(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'], field, reading, now);
  readTriple(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'], field, reading, now);
  const retryAfter = field('retry-after');
  const wait = retryAfter === undefined ? undefined : retryAfterMs(retryAfter, now);
  if (wait !== undefined && retryAfter !== undefined) {
    reading.resetMs = Math.max(reading.resetMs ?? 0, wait);
    reading.evidence.push(`Retry-After: ${retryAfter}`);
  }
  return reading;
}

/** Retry-After as ms from `now` (delta-seconds or an HTTP-date, RFC 9110 §10.2.3), never negative; undefined when neither. */
function retryAfterMs(value: string, now = Date.now()): number | undefined {
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** `RateLimit` (a list of policies with r and t, or the earlier dictionary) and `RateLimit-Policy` (q and w). */
function readIetf(limit: string | undefined, policy: string | undefined, reading: RateLimitReading): void {
  if (limit !== undefined) {
    const items = listItems(limit);
    const first = items.find(([, params]) => params.has('r') || params.has('t'));
    const dictionary = first ? undefined : dictionaryOf(limit);
    const remaining = first ? count(first[1].get('r')) : count(dictionary?.get('remaining')?.[0]);
    const reset = first ? count(first[1].get('t')) : count(dictionary?.get('reset')?.[0]);
    if (remaining !== undefined || reset !== undefined) {
      if (remaining !== undefined) reading.remaining = remaining;
      if (reset !== undefined) reading.resetMs = reset * 1000;
      reading.evidence.push(`RateLimit: ${limit}`);
      const quota = dictionary ? count(dictionary.get('limit')?.[0]) : undefined;
      if (quota !== undefined) reading.quota = quota;
    }
  }
  if (policy !== undefined) {
    const item = listItems(policy).find(([, params]) => params.has('q'));
    const quota = count(item?.[1].get('q'));
    const window = count(item?.[1].get('w'));
    if (quota !== undefined && quota > 0) {
      reading.quota = quota;
      if (window !== undefined && window > 0) reading.windowMs = window * 1000;
      reading.evidence.push(`RateLimit-Policy: ${policy}`);
    }
  }
}

/** A `…-Limit`, `…-Remaining`, `…-Reset` triple (the earlier IETF drafts, or the X- fields). */
function readTriple(names: readonly [string, string, string], field: (name: string) => string | undefined, reading: RateLimitReading, now: number): void {
  const [limitName, remainingName, resetName] = names;
  const limit = count(field(limitName));
  const remaining = count(field(remainingName));
  const reset = count(field(resetName));
  if (limit === undefined && remaining === undefined && reset === undefined) return;
  if (limit !== undefined && reading.quota === undefined) reading.quota = limit;
  if (remaining !== undefined && reading.remaining === undefined) reading.remaining = remaining;
  if (reset !== undefined && reading.resetMs === undefined) reading.resetMs = reset > EPOCH_SECONDS ? Math.max(0, reset * 1000 - now) : reset * 1000;
  const shown = names.flatMap((name) => {
    const value = field(name);
    return value === undefined ? [] : [`${headerName(name)}: ${value}`];
  });
  reading.evidence.push(shown.join(', '));
}

function listItems(text: string): Item[] {
  try {
    return parseList(text).filter((member): member is Item => !Array.isArray(member[0]));
  } catch {
    return [];
  }
}

function dictionaryOf(text: string): Map<string, Item | [Item[], Map<string, unknown>]> | undefined {
  try {
    return parseDictionary(text) as Map<string, Item | [Item[], Map<string, unknown>]>;
  } catch {
    return undefined;
  }
}

/** A non-negative integer, from a Structured Field value or a header's text; else undefined. */
function count(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** `x-ratelimit-reset` → `X-RateLimit-Reset`. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => `${dash}${c.toUpperCase()}`).replace('Ratelimit', 'RateLimit');
}
