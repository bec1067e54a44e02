import type { CatalogEntry, MarketCatalog } from '../catalog/market-catalog.js';
import { errorReply } from './error-reply.js';
import { jsonReply, sharedJsonReply, type Reply } from './reply.js';
import type { ResponseProfile } from './response-profile.js';
import { concatBytes, fromBase64Url, toBase64Url, utf8 } from '../floor/bytes.js';

// Per-catalog caches: a catalog is immutable, so its filtered index lists and whole-list bodies
// can be computed once (edits swap in a new catalog object, which starts with empty caches).
const statusIndex = new WeakMap<MarketCatalog, Map<string, number[]>>();
const envelopeBody = new WeakMap<MarketCatalog, Map<string, Uint8Array>>();

/** Encodes a list position as an opaque cursor (base64url, RFC 4648 §5). */
export function encodeCursor(offset: number): string {
  return toBase64Url(`o:${offset}`);
}

/** Decodes a cursor from encodeCursor, or undefined when it is not one. */
export function decodeCursor(cursor: string): number | undefined {
  const m = /^o:(\d{1,15})$/.exec(fromBase64Url(cursor) ?? '');
  return m ? Number(m[1]) : undefined;
}

/**
 * Renders `GET /markets` under a response profile: optional `?status=` filter, then paging
 * (`limit`+`offset` or `limit`+`cursor`), then the envelope. The next page is announced in the
 * envelope (`next` for offset paging, `next_cursor` for cursors) and, always, in a
 * `Link: <…>; rel="next"` header (RFC 8288), which is the only signal a bare array can carry.
 * Cost is O(page) for unfiltered pages; the unpaged, unfiltered list is one cached buffer.
 * Bad `limit`, `offset` or `cursor` → 400 in the profile's error shape.
 */
export function renderList(catalog: MarketCatalog, query: URLSearchParams, profile: ResponseProfile): Reply {
  const status = profile.filterStatus ? query.get('status') ?? undefined : undefined;
  const indices = status === undefined ? undefined : filterByStatus(catalog, status);
  const total = indices ? indices.length : catalog.size;
  const entryAt = (i: number): CatalogEntry | undefined => catalog.entryAt(indices ? (indices[i] ?? -1) : i);

  if (profile.paging === 'none') {
    if (!indices && catalog.listChunks) return streamedList(catalog.listChunks(), profile.envelope);
    if (!indices && profile.envelope === 'bare') return sharedJsonReply(catalog.listBody());
    if (!indices) return sharedJsonReply(cachedEnvelope(catalog, profile.envelope));
    return jsonReply(utf8(wrap(profile, joinSummaries(entryAt, 0, total), {})));
  }

  const limitText = query.get('limit');
  let limit = profile.pageSize;
  if (limitText !== null) {
    if (!/^\d{1,9}$/.test(limitText) || Number(limitText) < 1) return badQuery(profile, 'limit', limitText, `an integer from 1 to ${profile.maxPageSize}`);
    limit = Math.min(Number(limitText), profile.maxPageSize);
  }
  let offset = 0;
  if (profile.paging === 'offset') {
    const offsetText = query.get('offset');
    if (offsetText !== null) {
      if (!/^\d{1,15}$/.test(offsetText)) return badQuery(profile, 'offset', offsetText, 'an integer ≥ 0');
      offset = Number(offsetText);
    }
  } else {
    const cursor = query.get('cursor');
    if (cursor !== null && cursor !== '') {
      const decoded = decodeCursor(cursor);
      if (decoded === undefined) return badQuery(profile, 'cursor', cursor, 'a cursor from a previous next_cursor or Link header');
      offset = decoded;
    }
  }
  const end = Math.min(total, offset + limit);
  const items = joinSummaries(entryAt, offset, end);
  const more = end < total;
  const nextQuery = new URLSearchParams();
  if (status !== undefined) nextQuery.set('status', status);
  nextQuery.set('limit', String(limit));
  let extra: Record<string, unknown>;
  if (profile.paging === 'offset') {
    nextQuery.set('offset', String(end));
    extra = { limit, offset, total, next: more ? `/markets?${nextQuery.toString()}` : null };
  } else {
    nextQuery.set('cursor', encodeCursor(end));
    extra = { limit, next_cursor: more ? encodeCursor(end) : null };
  }
  const headers: Record<string, string> = {};
  if (more) headers['link'] = `</markets?${nextQuery.toString()}>; rel="next"`;
  if (profile.paging === 'offset') headers['x-total-count'] = String(total);
  return jsonReply(utf8(wrap(profile, items, extra)), 200, headers);
}

/**
 * The first `size` markets of the list, in the profile's envelope, announcing `X-Per-Page: size`
 * and nothing else about paging (no next page, no total): the `list-partial-no-signal` deviation,
 * a full first page whose only evidence of more pages is its own size.
 */
export function renderFirstPageOnly(catalog: MarketCatalog, size: number, profile: ResponseProfile): Reply {
  const items = joinSummaries((i) => catalog.entryAt(i), 0, Math.min(size, catalog.size));
  return jsonReply(utf8(wrap(profile, items, {})), 200, { 'x-per-page': String(size) });
}

/** A list too large to hold, sent in chunks (optionally inside the envelope). */
function streamedList(chunks: Iterable<Uint8Array>, envelope: string): Reply {
  function* wrapped(): Generator<Uint8Array> {
    if (envelope !== 'bare') yield utf8(`{${JSON.stringify(envelope)}:`);
    yield* chunks;
    if (envelope !== 'bare') yield utf8('}');
  }
  return { ...jsonReply(new Uint8Array(0)), chunks: wrapped() };
}

function wrap(profile: ResponseProfile, items: string, extra: Record<string, unknown>): string {
  if (profile.envelope === 'bare') return items;
  const rest = Object.entries(extra).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join('');
  return `{${JSON.stringify(profile.envelope)}:${items}${rest}}`;
}

function joinSummaries(entryAt: (i: number) => CatalogEntry | undefined, from: number, to: number): string {
  const parts: string[] = [];
  for (let i = from; i < to; i++) {
    const e = entryAt(i);
    if (e) parts.push(e.summaryJson);
  }
  return `[${parts.join(',')}]`;
}

function filterByStatus(catalog: MarketCatalog, status: string): number[] {
  let byStatus = statusIndex.get(catalog);
  if (!byStatus) statusIndex.set(catalog, (byStatus = new Map()));
  let indices = byStatus.get(status);
  if (!indices) {
    indices = [];
    for (let i = 0; i < catalog.size; i++) if (catalog.entryAt(i)?.market.status === status) indices.push(i);
    if (byStatus.size < 32) byStatus.set(status, indices);
  }
  return indices;
}

function cachedEnvelope(catalog: MarketCatalog, key: string): Uint8Array {
  let byKey = envelopeBody.get(catalog);
  if (!byKey) envelopeBody.set(catalog, (byKey = new Map()));
  let body = byKey.get(key);
  if (!body) {
    const list = catalog.listBody();
    body = concatBytes([utf8(`{${JSON.stringify(key)}:`), list, utf8('}')]);
    byKey.set(key, body);
  }
  return body;
}

function badQuery(profile: ResponseProfile, name: string, value: string, expected: string): Reply {
  return errorReply(profile.errors, 400, 'bad_request', `Query parameter ${name} must be ${expected}; got ${JSON.stringify(value)}.`, { parameter: name });
}
