import type { ListDeviation, RateLimitFields } from '../deviation/deviation-definition.js';
import { errorReply } from './error-reply.js';
import type { Reply } from './reply.js';
import type { ResponseProfile } from './response-profile.js';

/**
 * The stub's side of a rate-limited deviation (`rate-limited`, `rate-limited-ratelimit`,
 * `rate-limited-x-ratelimit`): every market route counts against `perSecond` requests a window of
 * one second (the first request opens it); past it, a 429 in the profile's error shape. The limit
 * is announced as real deployments do: `Retry-After: 1` on the 429 only; the IETF fields
 * (draft-ietf-httpapi-ratelimit-headers) `RateLimit: "default";r=<left>;t=<s>` and
 * `RateLimit-Policy: "default";q=<perSecond>;w=1` on every answer; or
 * `X-RateLimit-Limit`/`-Remaining`/`-Reset` (seconds) on every answer.
 */
export interface RateLimitDecision {
  /** The 429 to answer instead, when the window is used up. */
  limited?: Reply;
  /** Fields to add to the answer served. */
  headers: Record<string, string>;
}

interface Window {
  opened: number;
  used: number;
}

/** One window per deviation set in force (a new set, a new window); kept as long as the set lives. */
const windows = new WeakMap<readonly ListDeviation[], Window>();
const WINDOW_MS = 1000;

/**
 * Counts one request against the first rate-limited deviation of `deviations`; undefined when none
 * is in force. `now` (performance.now() ms) is read only when one is: most answers pay one check.
 */
export function decideRateLimit(deviations: readonly ListDeviation[], profile: ResponseProfile, at?: number): RateLimitDecision | undefined {
  if (deviations.length === 0) return undefined;
  const limit = deviations.find((d) => d.reply.rateLimit !== undefined)?.reply.rateLimit;
  if (limit === undefined) return undefined;
  const now = at ?? performance.now();
  let window = windows.get(deviations);
  if (window === undefined || now - window.opened >= WINDOW_MS) windows.set(deviations, (window = { opened: now, used: 0 }));
  window.used++;
  const resetSeconds = Math.max(1, Math.ceil((window.opened + WINDOW_MS - now) / 1000));
  const left = Math.max(0, limit.perSecond - window.used);
  const over = window.used > limit.perSecond;
  const headers = limitFields(limit.fields, limit.perSecond, left, resetSeconds, over);
  if (!over) return { headers };
  return { limited: errorReply(profile.errors, 429, 'rate_limited', `Too many requests: at most ${limit.perSecond} a second (market-stub rate-limited deviation); retry after ${resetSeconds} s.`, {}, headers), headers };
}

function limitFields(fields: RateLimitFields, perSecond: number, left: number, resetSeconds: number, over: boolean): Record<string, string> {
  switch (fields) {
    case 'retry-after': return over ? { 'retry-after': String(resetSeconds) } : {};
    case 'ratelimit': return { ratelimit: `"default";r=${left};t=${resetSeconds}`, 'ratelimit-policy': `"default";q=${perSecond};w=1` };
    case 'x-ratelimit': return { 'x-ratelimit-limit': String(perSecond), 'x-ratelimit-remaining': String(left), 'x-ratelimit-reset': String(resetSeconds) };
  }
}
