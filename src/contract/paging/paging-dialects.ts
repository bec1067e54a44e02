import { resolveHttpUrl } from '../http-client/index.js';
import { findLinkTarget } from './link-header.js';
import { countOf, findCount, findField, looksLikeUrl, shown, withQuery, type FoundField } from './paging-fields.js';

/** What one list page shows that paging can be read from. */
export interface PageFacts {
  /** The top-level JSON value (the streamed market array replaced by a placeholder). */
  body: unknown;
  /** True when the market array sat in an envelope object (paging fields can only live there). */
  envelope: boolean;
  /** Response header fields, names lower-cased. */
  headers: Readonly<Record<string, string>>;
  /** The URL that answered (after redirects): the base for relative references (RFC 3986 §5.1.3). */
  url: URL;
  /** The market_id of the last item of the market array, when it had one. */
  lastId: string | undefined;
  /** Items in the market array. */
  items: number;
  /** Pages read before this one (0 for the first page). */
  pageIndex: number;
}

/** The next page a dialect asks for. `cursor` is set when a repeated value means a loop (an opaque cursor, a last id, a range). */
export interface NextStep {
  url: URL;
  cursor?: string;
  /** Request header fields the page is asked with (`range` for Content-Range paging), names lower-case. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * How one dialect reads a page: with `next`, the page to fetch; with `stuck`, evidence of more
 * pages that cannot be followed; with neither, the dialect reads this page as the last one.
 */
export interface DialectReading {
  /** What carried the signal: `link`, the field path (`meta.next_cursor`) or the header (`X-Next-Page`). */
  signal: string;
  /** The evidence in words, e.g. `"offset": 0, "limit": 3, "total": 9`. */
  evidence: string;
  next?: NextStep;
  stuck?: string;
}

/** A paging dialect: a name (docs/paging.md lists each), the fields or headers it reads, and the reader. */
export interface PagingDialect {
  readonly name: string;
  /** Every body field and header (lower-cased) the dialect reads: not reported as an unknown paging key. */
  readonly keys: readonly string[];
  /** Undefined when the page shows none of this dialect's evidence. */
  read(page: PageFacts): DialectReading | undefined;
}

/** Next-page URL fields; `@odata.nextLink` (OData JSON Format 4.01 §4.5.5) and `odata.nextLink` (its 4.0 minimal-metadata spelling). */
const NEXT_URL_FIELDS = ['next', 'next_url', 'next_page_url', 'nextUrl', 'nextPageUrl', 'next_link', 'nextLink', '@odata.nextLink', 'odata.nextLink'] as const;
/** Cursor fields and the query parameter their value goes back in (Google AIP-158 for page tokens). */
const CURSOR_PARAMS: Readonly<Record<string, string>> = { next_cursor: 'cursor', nextCursor: 'cursor', cursor: 'cursor', next: 'cursor', next_page_token: 'page_token', nextPageToken: 'pageToken' };
const HAS_MORE_FIELDS = ['has_more', 'hasMore'] as const;
const OFFSET_FIELDS = ['offset'] as const;
const LIMIT_FIELDS = ['limit'] as const;
const PAGE_FIELDS = ['page', 'current_page', 'currentPage'] as const;
const PAGE_SIZE_FIELDS = ['per_page', 'page_size', 'perPage', 'pageSize'] as const;
/** Body fields and headers that give the size of a full page. */
export const PAGE_SIZE_EVIDENCE = [...LIMIT_FIELDS, ...PAGE_SIZE_FIELDS] as const;
export const PAGE_SIZE_HEADERS = ['x-per-page'] as const;

/** Body fields and headers that give the list's size in markets; `count` is a total here only when larger than what was seen. */
export const MARKET_TOTAL_FIELDS = ['total', 'total_count', 'totalCount', 'total_results', 'count', '@odata.count'] as const;
export const MARKET_TOTAL_HEADERS = ['x-total-count', 'x-total'] as const;
/** Body fields and headers that give the list's size in pages. */
export const PAGE_TOTAL_FIELDS = ['total_pages', 'totalPages', 'page_count', 'last_page'] as const;
export const PAGE_TOTAL_HEADERS = ['x-total-pages'] as const;

/** `"offset": 3, "limit": 3, "total": 9`: the count fields found, in words. */
const countsEvidence = (...fields: Array<{ path: string; value: number } | undefined>) => fields.filter((f) => f !== undefined).map((f) => `"${f.path}": ${f.value}`).join(', ');
/** The member name of a field path: `meta.per_page` → `per_page`. */
const fieldName = (path: string) => path.slice(path.lastIndexOf('.') + 1);
const isEnd = (value: unknown) => value === null || value === '' || value === false;
const fieldEvidence = (found: FoundField) => `"${found.path}": ${shown(found.value)}`;

/**
 * The dialects, in the order they are tried: the first that gives a next page is followed.
 * Sources: RFC 8288 (Link), JSON:API §7.1 and HAL (`links.next`, `_links.next.href`), Siren
 * (`links` with `rel: ["next"]`), OData JSON Format 4.01 §4.5.5 (`@odata.nextLink`), Google
 * AIP-158 (`next_page_token`), Stripe's list objects (`has_more`, `starting_after`), GitLab's
 * pagination headers (`X-Next-Page`, `X-Page`, `X-Per-Page`, `X-Total`, `X-Total-Pages`).
 */
export const PAGING_DIALECTS: readonly PagingDialect[] = [
  // A `Link: <…>; rel="next"` header (RFC 8288): absolute, relative or query-only targets, resolved against the URL that answered (RFC 3986 §5).
  {
    name: 'link-header',
    keys: ['link'],
    read(page) {
      const target = findLinkTarget(page.headers['link'], 'next');
      if (target === undefined) return undefined;
      const evidence = `Link: <${target}>; rel="next"`;
      const url = resolveHttpUrl(target, page.url);
      return url ? { signal: 'link', evidence, next: { url } } : { signal: 'link', evidence, stuck: `${evidence} is not an http(s) URL reference` };
    },
  },
  // A next-page URL, path or query in the envelope or one of its paging objects (NEXT_URL_FIELDS; `links.next`, `_links.next.href`, `paging.next`).
  {
    name: 'body-next-url',
    keys: NEXT_URL_FIELDS,
    read(page) {
      const found = page.envelope ? findField(page.body, NEXT_URL_FIELDS) : undefined;
      if (!found) return undefined;
      const evidence = fieldEvidence(found);
      if (isEnd(found.value)) return { signal: found.path, evidence };
      if (typeof found.value !== 'string' || !looksLikeUrl(found.value)) {
        // `next` holding an opaque value is a cursor (next dialect); another URL field is not followable.
        return found.path.endsWith('next') ? undefined : { signal: found.path, evidence, stuck: `${evidence} is not a URL` };
      }
      const url = resolveHttpUrl(found.value, page.url);
      return url ? { signal: found.path, evidence, next: { url } } : { signal: found.path, evidence, stuck: `${evidence} is not an http(s) URL` };
    },
  },
  // Siren's `links`: an array of link objects, the one whose `rel` list holds "next" (Siren, "Links"), resolved like a Link header's target.
  {
    name: 'siren-links',
    keys: ['links'],
    read(page) {
      const target = page.envelope ? sirenNext(page.body) : undefined;
      if (target === undefined) return undefined;
      const evidence = `"links": [{"rel": ["next"], "href": ${shown(target)}}]`;
      const url = resolveHttpUrl(target, page.url);
      return url ? { signal: 'links', evidence, next: { url } } : { signal: 'links', evidence, stuck: `${evidence} is not an http(s) URL reference` };
    },
  },
  // An opaque cursor in the envelope or one of its paging objects, sent back as the query parameter CURSOR_PARAMS names (a URL value is followed as one).
  {
    name: 'body-cursor',
    keys: Object.keys(CURSOR_PARAMS),
    read(page) {
      const found = page.envelope ? findField(page.body, Object.keys(CURSOR_PARAMS)) : undefined;
      if (!found) return undefined;
      const evidence = fieldEvidence(found);
      if (isEnd(found.value)) return { signal: found.path, evidence };
      if (typeof found.value !== 'string' && typeof found.value !== 'number') return { signal: found.path, evidence, stuck: `${evidence} is neither a cursor nor a URL` };
      const text = String(found.value);
      if (looksLikeUrl(text)) {
        const url = resolveHttpUrl(text, page.url);
        return url ? { signal: found.path, evidence, next: { url } } : { signal: found.path, evidence, stuck: `${evidence} is not an http(s) URL` };
      }
      const param = CURSOR_PARAMS[fieldName(found.path)] ?? 'cursor';
      return { signal: found.path, evidence, next: { url: withQuery(page.url, { [param]: text }), cursor: text } };
    },
  },
  // `has_more` (or `hasMore`) true: the next page starts after the last market listed, `?starting_after=<market_id>` (Stripe).
  {
    name: 'has-more',
    keys: [...HAS_MORE_FIELDS, 'starting_after'],
    read(page) {
      const found = page.envelope ? findField(page.body, HAS_MORE_FIELDS) : undefined;
      if (!found || typeof found.value !== 'boolean') return undefined;
      const evidence = fieldEvidence(found);
      if (!found.value) return { signal: found.path, evidence };
      if (page.lastId === undefined) return { signal: found.path, evidence, stuck: `${evidence}, but the page has no last market_id to continue after (starting_after)` };
      return { signal: found.path, evidence: `${evidence} after market_id ${shown(page.lastId)}`, next: { url: withQuery(page.url, { starting_after: page.lastId }), cursor: page.lastId } };
    },
  },
  // `offset` with a total (MARKET_TOTAL_FIELDS) or a `limit`: `?offset=<offset + items>&limit=<limit>` until the total is reached or, without a total, while pages come back full (a short or empty page is the last).
  {
    name: 'offset-limit',
    keys: [...OFFSET_FIELDS, ...LIMIT_FIELDS],
    read(page) {
      const offset = page.envelope ? findCount(page.body, OFFSET_FIELDS) : undefined;
      const total = offset ? findCount(page.body, MARKET_TOTAL_FIELDS) : undefined;
      const limit = offset ? findCount(page.body, LIMIT_FIELDS) : undefined;
      if (!offset || (!total && !limit)) return undefined;
      const signal = offset.path;
      const evidence = countsEvidence(offset, limit, total);
      const nextOffset = offset.value + page.items;
      const query = { offset: String(nextOffset), ...(limit ? { limit: String(limit.value) } : {}) };
      if (!total) return whileFull(signal, evidence, page, limit?.value, () => withQuery(page.url, query), 'total');
      if (nextOffset >= total.value) return { signal, evidence };
      if (page.items === 0) return { signal, evidence, stuck: `${evidence}, but the page is empty` };
      return { signal, evidence, next: { url: withQuery(page.url, query) } };
    },
  },
  // `page` (or `current_page`) with a page count (PAGE_TOTAL_FIELDS) or a page size (`per_page`, `page_size`): `?page=<page + 1>` until the count is reached or, without a count, while pages come back full.
  {
    name: 'page-number',
    keys: [...PAGE_FIELDS, ...PAGE_SIZE_FIELDS],
    read(page) {
      const number = page.envelope ? findCount(page.body, PAGE_FIELDS) : undefined;
      const count = number ? findCount(page.body, PAGE_TOTAL_FIELDS) : undefined;
      const size = number ? findCount(page.body, PAGE_SIZE_FIELDS) : undefined;
      if (!number || (!count && !size)) return undefined;
      const evidence = countsEvidence(number, size, count);
      const query = (next: number) => withQuery(page.url, { page: String(next), ...(size ? { [fieldName(size.path)]: String(size.value) } : {}) });
      if (!count) return whileFull(number.path, evidence, page, size?.value, () => query(number.value + 1));
      const next = nextPageNumber(number.value, count.value, page.pageIndex);
      if (next === undefined) return { signal: number.path, evidence };
      return { signal: number.path, evidence, next: { url: query(next) } };
    },
  },
  // `X-Next-Page` (a page number or a URL), else `X-Page` with `X-Total-Pages`; `X-Per-Page` goes back as `per_page` (GitLab).
  {
    name: 'page-headers',
    keys: ['x-next-page', 'x-page', 'x-per-page', 'x-prev-page'],
    read(page) {
      const { headers } = page;
      const perPage = countOf(headers['x-per-page']);
      const size: Record<string, string> = perPage === undefined ? {} : { per_page: String(perPage) };
      const nextHeader = headers['x-next-page'];
      if (nextHeader !== undefined) return readNextPageHeader(nextHeader.trim(), page, size);
      const number = countOf(headers['x-page']);
      const count = countOf(headers['x-total-pages']);
      if (number === undefined || (count === undefined && perPage === undefined)) return undefined;
      if (count === undefined) return whileFull('X-Page', `X-Page: ${number}, X-Per-Page: ${perPage}`, page, perPage, () => withQuery(page.url, { page: String(number + 1), ...size }));
      const evidence = `X-Page: ${number}, X-Total-Pages: ${count}`;
      const next = nextPageNumber(number, count, page.pageIndex);
      return next === undefined ? { signal: 'X-Page', evidence } : { signal: 'X-Page', evidence, next: { url: withQuery(page.url, { page: String(next), ...size }) } };
    },
  },
  // `Content-Range: markets 0-4/12` (an item range in a custom range unit, RFC 9110 §14.4): the next page is asked for with `Range: markets=5-9` (§14.2) on the same URL.
  {
    name: 'content-range',
    keys: ['content-range'],
    read: readContentRange,
  },
];

/** Links of a Siren `links` array looked at, at most (a hostile envelope costs no more). */
const MAX_SIREN_LINKS = 64;

/** The `href` of the first link of a top-level Siren `links` array whose `rel` holds `next`; undefined when there is none. */
function sirenNext(body: unknown): string | undefined {
  const links = (body as Record<string, unknown> | null)?.['links'];
  if (!Array.isArray(links)) return undefined;
  for (const link of links.slice(0, MAX_SIREN_LINKS) as unknown[]) {
    const record = link !== null && typeof link === 'object' ? (link as Record<string, unknown>) : undefined;
    const rel = record?.['rel'];
    if (Array.isArray(rel) && rel.includes('next') && typeof record?.['href'] === 'string') return record['href'];
  }
  return undefined;
}

/** The page after a page of `size` markets read without a count (or a total: `missing` says which the evidence names): the next one while pages come back full, else the last. */
function whileFull(signal: string, evidence: string, page: PageFacts, size: number | undefined, next: () => URL, missing: 'count' | 'total' = 'count'): DialectReading {
  if (size === undefined || size === 0 || page.items !== size) return { signal, evidence: `${evidence}, no ${missing}, ${page.items} on the page` };
  return { signal, evidence: `${evidence}, no ${missing}, a full page`, next: { url: next() } };
}

/** `unit first-last/total` (total `*` when unknown), for a unit other than bytes; undefined otherwise. */
export function parseItemRange(value: string | undefined): { unit: string; first: number; last: number; total?: number } | undefined {
  const m = value === undefined || value.length > 200 ? null : /^\s*([A-Za-z][\w.-]{0,40})\s+(\d{1,15})-(\d{1,15})\/(\d{1,15}|\*)\s*$/.exec(value);
  if (!m || m[1]?.toLowerCase() === 'bytes') return undefined;
  const first = Number(m[2]);
  const last = Number(m[3]);
  if (last < first) return undefined;
  return { unit: m[1] as string, first, last, ...(m[4] === '*' ? {} : { total: Number(m[4]) }) };
}

function readContentRange(page: PageFacts): DialectReading | undefined {
  const value = page.headers['content-range'];
  const range = parseItemRange(value);
  if (!range || value === undefined) return undefined;
  const signal = 'Content-Range';
  const evidence = `Content-Range: ${value.trim()}`;
  const size = range.last - range.first + 1;
  const ended = range.total === undefined ? page.items < size : range.last + 1 >= range.total;
  if (ended) return { signal, evidence };
  if (page.items === 0) return { signal, evidence, stuck: `${evidence}, but the page is empty` };
  const first = range.last + 1;
  const last = range.total === undefined ? first + size - 1 : Math.min(first + size, range.total) - 1;
  const asked = `${range.unit}=${first}-${last}`;
  return { signal, evidence, next: { url: page.url, headers: { range: asked }, cursor: `Range: ${asked}` } };
}

function readNextPageHeader(value: string, page: PageFacts, size: Record<string, string>): DialectReading {
  const signal = 'X-Next-Page';
  const evidence = `X-Next-Page: ${shown(value)}`;
  if (value === '') return { signal, evidence };
  const number = countOf(value);
  if (number !== undefined) return { signal, evidence, next: { url: withQuery(page.url, { page: String(number), ...size }) } };
  const url = looksLikeUrl(value) ? resolveHttpUrl(value, page.url) : undefined;
  return url ? { signal, evidence, next: { url } } : { signal, evidence, stuck: `${evidence} is neither a page number nor a URL` };
}

/**
 * The page number after `number`, or undefined on the last page. Pages count from 0 or 1: the
 * first page read tells which (`number - pageIndex`, 1 unless that is 0).
 */
function nextPageNumber(number: number, count: number, pageIndex: number): number | undefined {
  const first = number - pageIndex === 0 ? 0 : 1;
  return number < first + count - 1 ? number + 1 : undefined;
}
