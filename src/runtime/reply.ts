/**
 * A complete HTTP response over web-standard values, built before anything is written: what the
 * core hands every adapter (node:http, Express, MSW) to send.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** When set, the body is these chunks instead (sent chunked, with backpressure: flat memory for huge lists). */
  chunks?: Iterable<Uint8Array>;
  /**
   * The body is a buffer the stub keeps and sends again (a catalog's market or list bytes, the
   * health body), not one made for this request: an adapter may keep what it derives from it (the
   * Fetch adapter's Headers, fetch-response.ts), keyed by the body. A hint only: what is kept is
   * checked against the reply's headers before it is used.
   */
  shared?: true;
  /**
   * The entity tag a deviation pins (`stale-etag`: one that names the market, not its bytes); the
   * conditional stage (conditional-reply.ts) uses it instead of the body's own.
   */
  tag?: string;
  /**
   * The catalog entry the body is (a market's answer): its kept `bodyTag` is the `ETag` while the
   * reply still carries that entry's body (conditional-reply.ts checks that it does).
   */
  entry?: { readonly body: Uint8Array; readonly bodyTag?: string | undefined };
  /** A deviation's 304 to any request, validators sent or not (`item-unconditional-304`, `list-unconditional-304`). */
  notModified?: true;
  /** A deviation's `Date` this many ms from the stub clock (`clock-skew`); the core stamps it (stub-core.ts `dated`). */
  dateSkewMs?: number;
}

/** Media type of every JSON body (RFC 8259 §11; charset spelled out for clients that want it). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A 200 JSON reply around an already serialised body. */
export function jsonReply(body: Uint8Array, status = 200, headers?: Record<string, string>): Reply {
  return { status, headers: headers === undefined ? { 'content-type': JSON_CONTENT_TYPE } : { 'content-type': JSON_CONTENT_TYPE, ...headers }, body };
}

/** A market's 200: its entry's kept body, and the entry, whose kept tag the conditional stage reads. */
export function entryReply(entry: { readonly body: Uint8Array; readonly bodyTag?: string | undefined }): Reply {
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: entry.body, shared: true, entry };
}

/** A 200 JSON reply around a body the stub keeps and sends again (Reply.shared): a market's, a whole list's. */
export function sharedJsonReply(body: Uint8Array): Reply {
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body, shared: true };
}

/**
 * Statuses whose responses carry no content: 204 and 304 (RFC 9110 §15.3.5, §15.4.5; §8.6: no
 * Content-Length on a 204) and 205 (§15.3.6).
 */
export const NO_CONTENT_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);
