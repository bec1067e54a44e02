import { describe, expect, it } from 'vitest';
import type { PageFacts } from './paging-dialects.js';
import { readPaging } from './paging-reading.js';

const at = new URL('https://api.test/api/v1/markets?limit=3&page=1');

/** An envelope page of three markets read at `at`, with `extra` members. */
const envelope = (extra: Record<string, unknown>, more: Partial<PageFacts> = {}): PageFacts => ({
  body: { markets: 3, ...extra }, envelope: true, headers: {}, url: at, lastId: 'M-3', items: 3, pageIndex: 0, ...more,
});
const bare = (headers: Record<string, string>, more: Partial<PageFacts> = {}): PageFacts => ({ body: 3, envelope: false, headers, url: at, lastId: 'M-3', items: 3, pageIndex: 0, ...more });

describe('readPaging: the next page of each dialect (RFC 3986 §5 resolution against the URL that answered)', () => {
  it.each([
    ['Link, absolute', bare({ link: '<https://api.test/api/v1/markets?page=2>; rel="next"' }), 'link-header', 'https://api.test/api/v1/markets?page=2'],
    ['Link, relative path', bare({ link: '<markets?page=2>; rel="next"' }), 'link-header', 'https://api.test/api/v1/markets?page=2'],
    ['Link, dot segments', bare({ link: '<../v2/markets?page=2>; rel="next"' }), 'link-header', 'https://api.test/api/v2/markets?page=2'],
    ['Link, query only', bare({ link: '<?page=2>; rel="prev next"' }), 'link-header', 'https://api.test/api/v1/markets?page=2'],
    ['next_url', envelope({ next_url: '/api/v1/markets?page=2' }), 'body-next-url', 'https://api.test/api/v1/markets?page=2'],
    ['_links.next.href (HAL)', envelope({ _links: { next: { href: '?page=2' } } }), 'body-next-url', 'https://api.test/api/v1/markets?page=2'],
    ['paging.next', envelope({ paging: { next: 'https://api.test/api/v1/markets?after=x' } }), 'body-next-url', 'https://api.test/api/v1/markets?after=x'],
    ['meta.next_cursor', envelope({ meta: { next_cursor: 'c/2' } }), 'body-cursor', 'https://api.test/api/v1/markets?limit=3&page=1&cursor=c%2F2'],
    ['next_page_token', envelope({ next_page_token: 't2' }), 'body-cursor', 'https://api.test/api/v1/markets?limit=3&page=1&page_token=t2'],
    ['has_more', envelope({ has_more: true }), 'has-more', 'https://api.test/api/v1/markets?limit=3&page=1&starting_after=M-3'],
    ['offset', envelope({ offset: 3, limit: 3, total: 10 }), 'offset-limit', 'https://api.test/api/v1/markets?limit=3&page=1&offset=6'],
    ['page from 1', envelope({ page: 1, per_page: 3, total_pages: 2 }), 'page-number', 'https://api.test/api/v1/markets?limit=3&page=2&per_page=3'],
    ['page from 0', envelope({ meta: { current_page: 0, page_size: 3, total_pages: 2 } }), 'page-number', 'https://api.test/api/v1/markets?limit=3&page=1&page_size=3'],
    ['X-Next-Page', bare({ 'x-next-page': '2', 'x-per-page': '3' }), 'page-headers', 'https://api.test/api/v1/markets?limit=3&page=2&per_page=3'],
    ['X-Page of X-Total-Pages', bare({ 'x-page': '1', 'x-total-pages': '2' }), 'page-headers', 'https://api.test/api/v1/markets?limit=3&page=2'],
  ])('%s', (_name, page, dialect, url) => {
    const reading = readPaging(page);
    expect(reading.dialect).toBe(dialect);
    expect(reading.next?.url.href).toBe(url);
    expect(reading.stuck).toBeUndefined();
  });

  it('follows the first dialect that gives a next page (Link before body fields; has_more over an ended cursor)', () => {
    expect(readPaging(envelope({ next_cursor: 'x' }, { headers: { link: '</other>; rel=next' } })).dialect).toBe('link-header');
    expect(readPaging(envelope({ next_cursor: null, has_more: true }))).toMatchObject({ dialect: 'has-more', next: { cursor: 'M-3' } });
  });
});

describe('readPaging: the last page and what it cannot follow', () => {
  it.each([
    ['a null cursor', envelope({ next_cursor: null }), 'body-cursor'],
    ['an empty Kalshi cursor', envelope({ cursor: '' }), 'body-cursor'],
    ['has_more false', envelope({ has_more: false }), 'has-more'],
    ['an offset at the total', envelope({ offset: 6, limit: 3, total: 9 }), 'offset-limit'],
    ['the last page number', envelope({ page: 3, total_pages: 3 }, { pageIndex: 2 }), 'page-number'],
    ['an empty X-Next-Page', bare({ 'x-next-page': '' }), 'page-headers'],
  ])('%s ends the list', (_name, page, dialect) => {
    expect(readPaging(page)).toEqual({ dialect, signal: expect.any(String) as string, evidence: expect.any(String) as string, totals: expect.any(Array) as unknown[] });
  });

  it.each([
    ['next_token', envelope({ next_token: 'abc' }), '"next_token": "abc", a paging key no dialect follows'],
    ['pageInfo-like', envelope({ page_info: { hasNextPage: true, endCursor: 'e' } }), '"page_info.hasNextPage": true, a paging key no dialect follows'],
    ['has_more without a last id', envelope({ has_more: true }, { lastId: undefined }), '"has_more": true, but the page has no last market_id to continue after (starting_after)'],
    ['an empty page below the total', envelope({ offset: 3, total: 9 }, { items: 0 }), '"offset": 3, "total": 9, but the page is empty'],
    ['a non-URL X-Next-Page', bare({ 'x-next-page': 'soon' }), 'X-Next-Page: "soon" is neither a page number nor a URL'],
    ['a Link to another scheme', bare({ link: '<ftp://files.test/m>; rel="next"' }), 'Link: <ftp://files.test/m>; rel="next" is not an http(s) URL reference'],
    ['X-Next-Cursor', bare({ 'x-next-cursor': 'abc' }), 'X-Next-Cursor: "abc", a paging header no dialect follows'],
  ])('%s is stuck, with its evidence', (_name, page, stuck) => {
    const reading = readPaging(page);
    expect(reading.next).toBeUndefined();
    expect(reading.stuck).toBe(stuck);
  });

  it.each([
    ['ended paging keys', envelope({ next_token: null, more: false, continuation: '' })],
    ['keys that do not speak of paging', envelope({ updated: '2026-01-01', token_count: 0, title: 'next' })],
    ['a bare array (no envelope to hold paging keys)', bare({})],
  ])('%s are no signal', (_name, page) => {
    expect(readPaging(page).stuck).toBeUndefined();
  });

  it('reads the announced totals from the body and the headers', () => {
    expect(readPaging(envelope({ meta: { total_count: 12, total_pages: 4 } }, { headers: { 'x-total-count': '12', 'x-total-pages': '4' } })).totals).toEqual([
      { of: 'markets', value: 12, evidence: '"meta.total_count": 12' },
      { of: 'markets', value: 12, evidence: 'X-Total-Count: 12' },
      { of: 'pages', value: 4, evidence: '"meta.total_pages": 4' },
      { of: 'pages', value: 4, evidence: 'X-Total-Pages: 4' },
    ]);
    expect(readPaging(envelope({ total: -1, count: 1.5, total_pages: '3' }, { headers: { 'x-total': 'many' } })).totals).toEqual([]);
  });

  it('looks at a bounded number of members for an unknown paging key', () => {
    const members = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`field_${i}`, i]));
    expect(readPaging(envelope({ ...members, next_token: 'abc' })).stuck).toBeUndefined();
    expect(readPaging(envelope({ next_token: 'abc', ...members })).stuck).toContain('next_token');
  });
});

describe('readPaging: evidence of more pages without a total', () => {
  it('offset/limit and page numbers walk on while the page is full, and stop at a short one', () => {
    expect(readPaging(envelope({ offset: 3, limit: 3 })).next?.url.href).toBe('https://api.test/api/v1/markets?limit=3&page=1&offset=6');
    expect(readPaging(envelope({ offset: 3, limit: 5 }))).toMatchObject({ dialect: 'offset-limit', evidence: '"offset": 3, "limit": 5, no total, 3 on the page' });
    expect(readPaging(envelope({ page: 2, per_page: 3 })).next?.url.href).toBe('https://api.test/api/v1/markets?limit=3&page=3&per_page=3');
    expect(readPaging(bare({ 'x-page': '1', 'x-per-page': '3' })).next?.url.href).toBe('https://api.test/api/v1/markets?limit=3&page=2&per_page=3');
    expect(readPaging(bare({ 'x-page': '1', 'x-per-page': '4' })).next).toBeUndefined();
  });

  it('finds a cursor in any object one level deep (Slack), but not in a link object or deeper', () => {
    expect(readPaging(envelope({ response_metadata: { next_cursor: 'dXNlcjpVMEc5V0ZYTlo=' } }))).toMatchObject({ dialect: 'body-cursor', signal: 'response_metadata.next_cursor' });
    expect(readPaging(envelope({ outer: { inner: { next_cursor: 'x' } } })).next).toBeUndefined();
  });

  it('asks for the next item range of a Content-Range with a Range header on the same URL (RFC 9110 §14)', () => {
    const reading = readPaging(bare({ 'content-range': 'markets 0-2/12' }));
    expect(reading).toMatchObject({ dialect: 'content-range', next: { url: at, headers: { range: 'markets=3-5' }, cursor: 'Range: markets=3-5' } });
    expect(reading.totals).toEqual([{ of: 'markets', value: 12, evidence: 'Content-Range: markets 0-2/12' }]);
    expect(readPaging(bare({ 'content-range': 'markets 9-11/12' })).next).toBeUndefined();
    expect(readPaging(bare({ 'content-range': 'items 0-2/*' })).next?.headers).toEqual({ range: 'items=3-5' });
  });

  it('ignores byte ranges and malformed or oversized Content-Range values', () => {
    for (const value of ['bytes 0-2/12', 'markets 5-2/12', 'markets 0-2', 'markets a-b/12', `markets 0-2/${'9'.repeat(300)}`]) {
      expect(readPaging(bare({ 'content-range': value })).dialect, value).toBeUndefined();
    }
  });

  it('names a full page as large as the page size it gives, when nothing else speaks of paging', () => {
    expect(readPaging(envelope({ limit: 3 })).stuck).toBe('a full page of 3 markets ("limit": 3) and no next page signalled');
    expect(readPaging(bare({ 'x-per-page': '3' })).stuck).toBe('a full page of 3 markets (X-Per-Page: 3) and no next page signalled');
    expect(readPaging(envelope({ limit: 5 })).stuck).toBeUndefined();
    expect(readPaging(envelope({ limit: 3, total: 3 })).stuck).toBeUndefined();
    expect(readPaging(envelope({ limit: 3, next_cursor: null })).stuck).toBeUndefined();
  });
});
