// Test deployments limited to a few requests a second (a token bucket over every route), each
// announcing its limit in one header style real gateways use: Retry-After only (delta-seconds or an
// HTTP-date), the IETF RateLimit/RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers),
// or X-RateLimit-Limit/Remaining/Reset (a Unix time, as GitHub sends it). Over the limit, a 429.
import { json, summaryOf, type Answer, type Deviations, type RawMarket } from './deviant-server.js';

/** How the deployment announces its limit. */
export type RateLimitStyle = 'retry-after' | 'retry-after-date' | 'ietf' | 'x-ratelimit';

export const RATE_LIMIT_STYLES: readonly RateLimitStyle[] = ['retry-after', 'retry-after-date', 'ietf', 'x-ratelimit'];

/** A token bucket of `perSecond` tokens, refilled continuously; `take` spends one when there is one. */
function tokenBucket(perSecond: number) {
  let tokens = perSecond;
  let at = performance.now();
  const refill = () => {
    const now = performance.now();
    tokens = Math.min(perSecond, tokens + ((now - at) / 1000) * perSecond);
    at = now;
  };
  return {
    take(): boolean {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    /** Whole tokens left. */
    get remaining() {
      refill();
      return Math.floor(tokens);
    },
    /** Whole seconds until the next token (at least 1). */
    get resetSeconds() {
      refill();
      return Math.max(1, Math.ceil((1 - tokens) / perSecond));
    },
  };
}

/** The header fields of one answer in `style` (on 200s too, but for Retry-After). */
function limitHeaders(style: RateLimitStyle, perSecond: number, bucket: ReturnType<typeof tokenBucket>, limited: boolean): Record<string, string> {
  const reset = bucket.resetSeconds;
  switch (style) {
    case 'retry-after': return limited ? { 'retry-after': String(reset) } : {};
    case 'retry-after-date': return limited ? { 'retry-after': new Date((Math.floor(Date.now() / 1000) + reset + 1) * 1000).toUTCString() } : {};
    case 'ietf': return { ratelimit: `"default";r=${bucket.remaining};t=${reset}`, 'ratelimit-policy': `"default";q=${perSecond};w=1` };
    case 'x-ratelimit': return { 'x-ratelimit-limit': String(perSecond), 'x-ratelimit-remaining': String(bucket.remaining), 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + reset + 1) };
  }
}

/**
 * Deviations serving `markets` (a bare array list, single markets) at most `perSecond` requests a
 * second; `counts` tallies the answers given (200s and 429s).
 */
export function rateLimited(markets: readonly RawMarket[], style: RateLimitStyle, perSecond: number, counts = { ok: 0, limited: 0 }): Deviations {
  const bucket = tokenBucket(perSecond);
  const byId = new Map(markets.map((m) => [String(m['market_id']), m]));
  return {
    other: (url): Answer | undefined => {
      if (!bucket.take()) {
        counts.limited++;
        return json({ error: 'too many requests' }, 429, limitHeaders(style, perSecond, bucket, true));
      }
      counts.ok++;
      const headers = limitHeaders(style, perSecond, bucket, false);
      if (url.pathname === '/markets') return json(markets.map(summaryOf), 200, headers);
      const market = byId.get(decodeURIComponent(url.pathname.slice('/markets/'.length)));
      return market ? json(market, 200, headers) : json({ error: 'not found' }, 404, headers);
    },
  };
}

/** A deployment whose every answer is a 429 with these header fields. */
export function alwaysLimited(headers: Record<string, string>): Deviations {
  return { other: () => json({ error: 'too many requests' }, 429, headers) };
}
