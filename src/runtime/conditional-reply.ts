import fresh from 'fresh';
import type { TransportFault } from '../behaviour/behaviour.js';
import { utf8 } from '../floor/bytes.js';
import { strongTag } from '../floor/text-hash.js';
import type { LastModified } from '../catalog/market-store.js';
import type { Reply } from './reply.js';
import { httpDate } from './http-date.js';

/**
 * `Cache-Control` of a market answer that carries validators (RFC 9111 §5.2.2.4): any cache may
 * store it, but must revalidate before each reuse, so a poller's `If-None-Match` reaches the stub
 * every time and sees a price move at once. Prices are live data: nothing is fresh for a second.
 */
export const REVALIDATE = 'no-cache';
/**
 * `Cache-Control` of what no cache may keep (RFC 9111 §5.2.2.5): a market route's errors, 429s,
 * answers broken by a transport fault, streamed lists (too large to tag before they are sent),
 * and every answer of the admin API.
 */
export const NO_STORE = 'no-store';

// Per kept body (Reply.shared: a catalog's market or list bytes, a deviated market's), its tag:
// a body is hashed once, and its tag goes when the body does (edits and steps swap in new bytes).
const tagByBody = new WeakMap<Uint8Array, string>();

/**
 * The strong entity tag of a body (RFC 9110 §8.8.3): `"` 16 hex digits of `bytesDigest` `"`, so
 * it changes exactly when the bytes change, whatever changed them (an edit, a tick, the profile,
 * the envelope, the page, a deviation). Hashed once per kept body, every time for a fresh one.
 */
export function entityTag(body: Uint8Array, kept: boolean): string {
  if (!kept) return strongTag(body);
  let tag = tagByBody.get(body);
  if (tag === undefined) tagByBody.set(body, (tag = strongTag(body)));
  return tag;
}

/** A reply's own tag: its entry's kept one while it carries that entry's body (Reply.entry), else entityTag's. */
function replyTag(reply: Reply): string {
  const entry = reply.entry;
  const kept = entry !== undefined && entry.body === reply.body ? entry.bodyTag : undefined;
  return kept ?? entityTag(reply.body, reply.shared === true);
}

/**
 * The `ETag` of the `stale-etag` deviation: shaped as any of the stub's tags, but the digest of the
 * market_id, so it never changes while the market's body does.
 */
export function pinnedTag(marketId: string): string {
  return entityTag(utf8(marketId), false);
}

/**
 * Stage conditional, after render and the behaviours: validators and `Cache-Control` on a market
 * answer, then the request's preconditions (RFC 9110 §13.2.2). A complete 200 not broken by a
 * transport fault gets its `ETag` (the body's, or the one a deviation pins, `Reply.tag`) and
 * `Cache-Control: no-cache`; anything else gets `Cache-Control: no-store` and no validator, so a
 * fault, an error or a 429 never carries a tag a client could keep. Then `If-None-Match` (weak
 * comparison, `*`, a list of tags), or only when it is absent `If-Modified-Since` against
 * `Last-Modified`, answers 304 (`notModified`). A request `Cache-Control: no-cache` does not stop
 * the 304: that directive asks caches to validate with the origin (RFC 9111 §5.2.1.4), and this is
 * the origin validating. Changes `reply` in place; returns it or its 304.
 */
export function conditional(requestHeaders: Readonly<Record<string, string | string[] | undefined>>, reply: Reply, fault: TransportFault | undefined, lastModified?: LastModified): Reply {
  if (reply.status !== 200 || reply.chunks !== undefined || fault !== undefined) {
    reply.headers['cache-control'] = NO_STORE;
    return reply;
  }
  reply.headers['etag'] = reply.tag ?? replyTag(reply);
  if (lastModified !== undefined && Number.isFinite(lastModified.ms)) reply.headers['last-modified'] = lastModifiedText(lastModified.ms);
  reply.headers['cache-control'] = REVALIDATE;
  return reply.notModified || stillCurrent(requestHeaders, reply.headers, lastModified?.trusted ?? false) ? notModified(reply) : reply;
}

/** Last-Modified's text: one IMF-fixdate a second (http-date.ts, as the `Date` header). */
const lastModifiedText = httpDate();

/**
 * Whether a GET's validators say the client's copy is current (RFC 9110 §13.2.2, steps 3 and 4):
 * `If-None-Match` names the response's `etag` (weak comparison, §8.8.3.2; a list; `*`), or, only
 * when `If-None-Match` is absent, `If-Modified-Since` is at or after its `last-modified` and that
 * second names one body (`modifiedTrusted`, MarketStore.lastModified). False
 * for a request without validators (two lookups, nothing else). The comparison is jshttp's
 * `fresh` (Express's), given only the two validators: the request's `Cache-Control` is for caches.
 */
export function stillCurrent(requestHeaders: Readonly<Record<string, string | string[] | undefined>>, responseHeaders: Readonly<Record<string, string>>, modifiedTrusted = true): boolean {
  const noneMatch = requestHeaders['if-none-match'];
  if (noneMatch !== undefined) return fresh({ 'if-none-match': noneMatch }, responseHeaders);
  const modifiedSince = requestHeaders['if-modified-since'];
  if (modifiedSince === undefined || !modifiedTrusted) return false;
  return fresh({ 'if-modified-since': modifiedSince }, responseHeaders);
}

/**
 * The 304 that replaces a 200 (RFC 9110 §15.4.5): no content, the 200's header fields but its
 * `Content-Type` (representation metadata a cache keeps from the stored 200), so `ETag`,
 * `Last-Modified`, `Cache-Control`, and the paging and rate-limit fields go as the 200 had them.
 */
export function notModified(reply: Reply): Reply {
  const headers = { ...reply.headers };
  delete headers['content-type'];
  return { status: 304, headers, body: new Uint8Array(0) };
}
