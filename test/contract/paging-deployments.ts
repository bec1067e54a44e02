// Test deployments that page their market list in one dialect each, as real APIs do (GitHub and
// RFC 8288 Link headers, JSON:API and HAL links, Kalshi's `cursor`, Google's `next_page_token`,
// Stripe's `has_more`, offset/limit with a total, page numbers with a page count, GitLab's
// X-Next-Page headers). Each reads only its own query parameters: a crawler that asks for a page
// any other way gets the first page again (and reports a loop), so a wrong dialect cannot pass.
import type { IncomingMessage } from 'node:http';
import { json, summaryOf, type Answer, type Deviations, type RawMarket } from './deviant-server.js';

/** One page of the list: its position and the markets on it. */
interface Page {
  start: number;
  items: RawMarket[];
  /** Position after the page; equals total on the last page. */
  end: number;
  total: number;
  /** 0-based page number (start / size). */
  index: number;
  pages: number;
  /** `http://127.0.0.1:PORT` of the request, for absolute links. */
  origin: string;
}

/** A deployment paged in one dialect; `dialect` and `paging` are what the report must name. */
export interface DialectDeployment {
  name: string;
  dialect: string;
  paging: string;
  /** Where the page starts, from the request's query or headers (0 when they are not this dialect's). */
  start(url: URL, markets: readonly RawMarket[], size: number, req: IncomingMessage): number;
  render(page: Page): Answer;
  /** The list ends only at a short or empty page (or a 416 past the last range): a list that fills its last page takes one more request. */
  endsShort?: true;
}

const int = (url: URL, name: string, fallback: number): number => {
  const text = url.searchParams.get(name);
  return text !== null && /^\d+$/.test(text) ? Number(text) : fallback;
};
const byPage = (name: string, first = 1) => (url: URL, _m: readonly RawMarket[], size: number) => (int(url, name, first) - first) * size;
const cursorStart = (name: string) => (url: URL) => {
  const m = /^c-(\d+)$/.exec(url.searchParams.get(name) ?? '');
  return m ? Number(m[1]) : 0;
};
const more = (p: Page) => p.end < p.total;
const nextPage = (p: Page) => p.index + 2;

export const DIALECT_DEPLOYMENTS: readonly DialectDeployment[] = [
  { name: 'Link rel="next", absolute target (bare array)', dialect: 'link-header', paging: 'link', start: byPage('page'), render: (p) => json(p.items, 200, more(p) ? { link: `<${p.origin}/markets?page=${nextPage(p)}>; rel="next", <${p.origin}/markets?page=1>; rel="first"` } : {}) },
  { name: 'Link rel="next", relative path target', dialect: 'link-header', paging: 'link', start: byPage('page'), render: (p) => json(p.items, 200, more(p) ? { link: `<markets?page=${nextPage(p)}>; rel="next"` } : {}) },
  { name: 'Link rel="next", query-only target', dialect: 'link-header', paging: 'link', start: byPage('p'), render: (p) => json(p.items, 200, more(p) ? { link: `<?p=${nextPage(p)}>; rel=next` } : {}) },
  { name: 'next_url, absolute (envelope)', dialect: 'body-next-url', paging: 'next_url', start: byPage('page'), render: (p) => json({ results: p.items, next_url: more(p) ? `${p.origin}/markets?page=${nextPage(p)}` : null }) },
  { name: 'links.next (JSON:API)', dialect: 'body-next-url', paging: 'links.next', start: byPage('page'), render: (p) => json({ data: p.items, links: { self: '/markets', next: more(p) ? `/markets?page=${nextPage(p)}` : null } }) },
  { name: '_links.next.href (HAL)', dialect: 'body-next-url', paging: '_links.next', start: byPage('page'), render: (p) => json({ items: p.items, _links: more(p) ? { next: { href: `/markets?page=${nextPage(p)}` } } : {} }) },
  { name: 'next_cursor (envelope)', dialect: 'body-cursor', paging: 'next_cursor', start: cursorStart('cursor'), render: (p) => json({ markets: p.items, next_cursor: more(p) ? `c-${p.end}` : null }) },
  { name: 'cursor, empty at the end (Kalshi)', dialect: 'body-cursor', paging: 'cursor', start: cursorStart('cursor'), render: (p) => json({ markets: p.items, cursor: more(p) ? `c-${p.end}` : '' }) },
  { name: 'meta.next_cursor', dialect: 'body-cursor', paging: 'meta.next_cursor', start: cursorStart('cursor'), render: (p) => json({ data: p.items, meta: { next_cursor: more(p) ? `c-${p.end}` : null } }) },
  { name: 'next_page_token → page_token (Google AIP-158)', dialect: 'body-cursor', paging: 'next_page_token', start: cursorStart('page_token'), render: (p) => json({ markets: p.items, ...(more(p) ? { next_page_token: `c-${p.end}` } : {}) }) },
  {
    name: 'has_more with starting_after (Stripe)', dialect: 'has-more', paging: 'has_more',
    start: (url, markets) => {
      const after = url.searchParams.get('starting_after');
      const at = after === null ? -1 : markets.findIndex((m) => m['market_id'] === after);
      return at + 1;
    },
    render: (p) => json({ object: 'list', url: '/markets', data: p.items, has_more: more(p) }),
  },
  { name: 'offset/limit with total', dialect: 'offset-limit', paging: 'offset', start: (url) => int(url, 'offset', 0), render: (p) => json({ markets: p.items, offset: p.start, limit: p.items.length, total: p.total }) },
  { name: 'offset/limit with count (in meta)', dialect: 'offset-limit', paging: 'meta.offset', start: (url) => int(url, 'offset', 0), render: (p) => json({ data: p.items, meta: { offset: p.start, limit: 3, count: p.total } }) },
  { name: 'offset/limit without a total (walks on while pages come back full)', dialect: 'offset-limit', paging: 'offset', endsShort: true, start: (url) => int(url, 'offset', 0), render: (p) => json({ markets: p.items, offset: p.start, limit: 3 }) },
  { name: 'response_metadata.next_cursor (Slack: a cursor nested one object deep)', dialect: 'body-cursor', paging: 'response_metadata.next_cursor', start: cursorStart('cursor'), render: (p) => json({ ok: true, members: p.items, response_metadata: { next_cursor: more(p) ? `c-${p.end}` : '' } }) },
  { name: 'meta.next, an opaque cursor', dialect: 'body-cursor', paging: 'meta.next', start: cursorStart('cursor'), render: (p) => json({ data: p.items, meta: { next: more(p) ? `c-${p.end}` : null } }) },
  { name: 'pagination.next_cursor', dialect: 'body-cursor', paging: 'pagination.next_cursor', start: cursorStart('cursor'), render: (p) => json({ markets: p.items, pagination: { next_cursor: more(p) ? `c-${p.end}` : null } }) },
  {
    name: 'Content-Range: markets 0-2/9, next asked with Range: markets=3-5 (RFC 9110 §14)', dialect: 'content-range', paging: 'Content-Range',
    start: (_url, _m, _size, req) => Number(/^markets=(\d+)-\d+$/.exec(String(req.headers.range ?? ''))?.[1] ?? 0),
    render: (p) => json(p.items, p.start === 0 ? 200 : 206, { 'content-range': `markets ${p.start}-${p.end - 1}/${p.total}` }),
  },
  {
    name: 'Content-Range with an unknown total (markets 0-2/*)', dialect: 'content-range', paging: 'Content-Range',
    start: (_url, _m, _size, req) => Number(/^markets=(\d+)-\d+$/.exec(String(req.headers.range ?? ''))?.[1] ?? 0),
    // Past the end, 416 Range Not Satisfiable (RFC 9110 §15.5.17), as a server that cannot count its list answers.
    render: (p) => (p.items.length === 0 ? json({ error: 'range not satisfiable' }, 416) : json(p.items, p.start === 0 ? 200 : 206, { 'content-range': `markets ${p.start}-${p.end - 1}/*` })),
  },
  { name: 'page/per_page without a page count (walks on while pages come back full)', dialect: 'page-number', paging: 'page', endsShort: true, start: byPage('page'), render: (p) => json({ data: p.items, page: p.index + 1, per_page: 3 }) },
  { name: 'X-Page, X-Per-Page without X-Total-Pages', dialect: 'page-headers', paging: 'X-Page', endsShort: true, start: byPage('page'), render: (p) => json(p.items, 200, { 'x-page': String(p.index + 1), 'x-per-page': '3' }) },
  { name: 'page/per_page/total_pages', dialect: 'page-number', paging: 'page', start: byPage('page'), render: (p) => json({ data: p.items, page: p.index + 1, per_page: 3, total_pages: p.pages }) },
  { name: 'page (from 0)/page_size/total_pages in pagination', dialect: 'page-number', paging: 'pagination.page', start: byPage('page', 0), render: (p) => json({ items: p.items, pagination: { page: p.index, page_size: 3, total_pages: p.pages } }) },
  {
    name: 'X-Next-Page, X-Total headers (GitLab)', dialect: 'page-headers', paging: 'X-Next-Page', start: byPage('page'),
    render: (p) => json(p.items, 200, { 'x-page': String(p.index + 1), 'x-per-page': '3', 'x-next-page': more(p) ? String(nextPage(p)) : '', 'x-total': String(p.total), 'x-total-pages': String(p.pages) }),
  },
  { name: 'X-Page, X-Total-Pages, X-Total-Count headers', dialect: 'page-headers', paging: 'X-Page', start: byPage('page'), render: (p) => json(p.items, 200, { 'x-page': String(p.index + 1), 'x-total-pages': String(p.pages), 'x-total-count': String(p.total) }) },
];

/** Deviations serving `markets` through `deployment`, `size` a page (single markets as the deviant server does). */
export function pagedIn(deployment: DialectDeployment, markets: readonly RawMarket[], size: number): Deviations {
  return {
    list: (url: URL, req: IncomingMessage) => {
      const start = Math.min(deployment.start(url, markets, size, req), markets.length);
      const end = Math.min(start + size, markets.length);
      const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
      const page: Page = { start, items: markets.slice(start, end).map(summaryOf), end, total: markets.length, index: Math.floor(start / size), pages: Math.ceil(markets.length / size), origin };
      return deployment.render(page);
    },
  };
}
