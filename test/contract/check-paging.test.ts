// Paging dialects: `check` and `record` follow every dialect of docs/paging.md to the last page
// (a contract break on page 3 is found), and a list they cannot follow, or that announces more
// than they saw, is never a silent PASS: a warning names the evidence and --strict fails it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformingMarkets, json, summaryOf, withServer, type Deviations, type RawMarket } from './deviant-server.js';
import { findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';
import { DIALECT_DEPLOYMENTS, pagedIn } from './paging-deployments.js';

const LIST = 'GET /markets';
const SINGLE = 'GET /markets/{market_id}';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-paging-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Nine conforming markets, three a page; DEV-8 (on page 3) sends its yes_price as a string. */
const brokenOnPage3: RawMarket[] = conformingMarkets(9).map((m, i) => (i === 7 ? { ...m, yes_price: '0.57' } : m));

describe.concurrent('check follows every paging dialect to the last page', () => {
  it.each(DIALECT_DEPLOYMENTS)('$name: the contract break on page 3 fails the check', async (d) => {
    await withServer(brokenOnPage3, pagedIn(d, brokenOnPage3, 3), async (server) => {
      const run = await runCheckJson(server.url);
      expect(run.stderr).toBe('');
      expect(problemKeys(run.report).map((k) => k.split(' ').slice(0, -1).join(' '))).toEqual([`error type ${LIST}`, `error type ${SINGLE}`]);
      expect(findingOf(run.report, 'type', LIST).examples[0]).toMatchObject({ marketId: 'DEV-8' });
      expect(run.code).toBe(1);
      // Nine markets fill three pages: a list that ends only at a short page takes a fourth, empty one.
      expect(run.report.list).toMatchObject({ pages: d.endsShort ? 4 : 3, dialect: d.dialect, paging: d.paging, complete: true });
      expect(run.report.summary).toMatchObject({ marketsListed: 9, marketsChecked: 9 });
      expect(findingOf(run.report, 'paging').message).toContain(`followed ${d.dialect} (`);
    });
  });
});

describe.concurrent('record follows every paging dialect', () => {
  it.each(DIALECT_DEPLOYMENTS)('$name: every market is recorded', async (d) => {
    const markets = conformingMarkets(8);
    await withServer(markets, pagedIn(d, markets, 3), async (server) => {
      const out = await mkdtemp(path.join(work, 'record-'));
      const run = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out, '--format', 'json']);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ command: 'record', list: { pages: 3, dialect: d.dialect, complete: true }, summary: { warnings: 0, marketsListed: 8 } });
      const written = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(written).toEqual(markets);
    });
  });
});

const firstPage = conformingMarkets(3).map(summaryOf);

interface Unfollowable {
  name: string;
  list: Deviations['list'];
  code: 'paging-unfollowed' | 'list-partial';
  found: RegExp;
}

/** Lists the crawl cannot see whole: each passed silently before (exit 0, one page, no warning). */
const unfollowable: Unfollowable[] = [
  { name: 'an unknown paging key (next_token)', list: () => json({ markets: firstPage, next_token: 'tok-2' }), code: 'paging-unfollowed', found: /^page 1: "next_token": "tok-2", a paging key no dialect follows; later pages were not checked$/ },
  { name: 'an unknown paging key in meta (meta.continuation)', list: () => json({ data: firstPage, meta: { continuation: 'abc' } }), code: 'paging-unfollowed', found: /"meta\.continuation": "abc"/ },
  { name: 'an unknown paging header (X-Continuation-Token)', list: () => json(firstPage, 200, { 'x-continuation-token': 'abc' }), code: 'paging-unfollowed', found: /^page 1: X-Continuation-Token: "abc", a paging header no dialect follows/ },
  { name: 'has_more: true on a page without a last market_id', list: () => json({ data: [], has_more: true }), code: 'paging-unfollowed', found: /"has_more": true, but the page has no last market_id to continue after/ },
  { name: 'a next_url that is not a URL', list: () => json({ markets: firstPage, next_url: 'page two' }), code: 'paging-unfollowed', found: /"next_url": "page two" is not a URL/ },
  { name: 'a total larger than the markets listed', list: () => json({ markets: firstPage, total: 9 }), code: 'list-partial', found: /^"total": 9, but 3 markets listed and no next page followable$/ },
  { name: 'X-Total-Count larger than the markets listed (bare array)', list: () => json(firstPage, 200, { 'x-total-count': '9' }), code: 'list-partial', found: /^X-Total-Count: 9, but 3 markets listed/ },
  { name: 'a full page as large as its "limit", no offset and no next signal', list: () => json({ markets: firstPage, limit: 3 }), code: 'paging-unfollowed', found: /^page 1: a full page of 3 markets \("limit": 3\) and no next page signalled; later pages were not checked$/ },
  { name: 'a full page as large as "meta.page_size", no page number', list: () => json({ data: firstPage, meta: { page_size: 3 } }), code: 'paging-unfollowed', found: /a full page of 3 markets \("meta\.page_size": 3\)/ },
  { name: 'a full bare-array page as large as X-Per-Page, no X-Page', list: () => json(firstPage, 200, { 'x-per-page': '3' }), code: 'paging-unfollowed', found: /a full page of 3 markets \(X-Per-Page: 3\) and no next page signalled/ },
  { name: 'a Content-Range total above the markets listed, on an empty page', list: () => json([], 200, { 'content-range': 'markets 0-2/9' }), code: 'paging-unfollowed', found: /^page 1: Content-Range: markets 0-2\/9, but the page is empty/ },
  { name: 'a page count above the pages read', list: () => json({ data: firstPage, meta: { total_pages: 3 } }), code: 'list-partial', found: /^"meta\.total_pages": 3, but 1 page read/ },
];

describe.concurrent('a list the crawl cannot see whole is never a silent PASS', () => {
  it.each(unfollowable)('$name: a warning naming the evidence; --strict fails', async (c) => {
    await withServer(conformingMarkets(9), { list: c.list }, async (server) => {
      const run = await runCheckJson(server.url);
      expect(problemKeys(run.report)).toEqual([`warning ${c.code} ${LIST} `]);
      expect(findingOf(run.report, c.code).found).toMatch(c.found);
      expect(run.report.list.complete).toBe(false);
      expect(run.code).toBe(0);
      const strict = await runCliInProcess(['check', '--base-url', server.url, '--strict']);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toContain(`[${c.code}]`);
      expect(strict.stdout).toMatch(/^FAIL: 0 errors, 1 warning in \d+ markets? .*\(--strict: warnings fail\); the list was not seen whole$/m);
    });
  });

  it('names the warning in JUnit: a failure of the paging check with --strict', async () => {
    await withServer(conformingMarkets(9), { list: () => json({ markets: firstPage, next_token: 'tok-2' }) }, async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--strict', '--format', 'junit']);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/<testcase [^>]*name="paging: paging-unfollowed \/"[^>]*>\s*<failure message="[^"]*next_token[^"]*" type="paging-unfollowed">/);
    });
  });
});

/** A deployment that ignores the dialect's parameter and always answers the first page. */
const stuckOn = (body: unknown, headers: Record<string, string> = {}): Deviations => ({ list: () => json(body, 200, headers) });

describe.concurrent('paging is bounded', () => {
  it.each([
    ['offset/limit', stuckOn({ markets: firstPage, offset: 0, limit: 3, total: 9 }), 'offset-limit'],
    ['page numbers', stuckOn({ data: firstPage, page: 1, total_pages: 3 }), 'page-number'],
    ['has_more', stuckOn({ data: firstPage, has_more: true }), 'has-more'],
    ['X-Next-Page', stuckOn(firstPage, { 'x-next-page': '2' }), 'page-headers'],
  ] as const)('a deployment ignoring the %s parameter is a cursor-loop, not an endless crawl', async (_name, deviations, dialect) => {
    await withServer(conformingMarkets(9), deviations, async (server) => {
      const run = await runCheckJson(server.url);
      expect(problemKeys(run.report)).toEqual([`warning cursor-loop ${LIST} `]);
      expect(run.report.list).toMatchObject({ dialect, complete: false });
      expect(run.report.list.pages).toBeLessThanOrEqual(3);
    });
  });

  it('stops at --max-pages in any dialect: exit 2 naming the limit (a limit of the checker, not a finding on the list)', async () => {
    const offset = DIALECT_DEPLOYMENTS.find((d) => d.dialect === 'offset-limit');
    if (!offset) throw new Error('no offset-limit deployment');
    await withServer(brokenOnPage3, pagedIn(offset, brokenOnPage3, 3), async (server) => {
      const run = await runCheckJson(server.url, ['--max-pages', '2']);
      expect(run.code).toBe(2);
      expect(problemKeys(run.report)).toEqual([`error could-not-run ${LIST} `]);
      expect(findingOf(run.report, 'could-not-run').found).toMatch(/^the list has more than 2 pages: page 2 links to \/markets\?offset=6&limit=3: a limit of the checker \(--max-pages 2\)/);
      const junit = await runCliInProcess(['check', '--base-url', server.url, '--max-pages', '2', '--format', 'junit']);
      expect(junit.code).toBe(2);
      expect(junit.stdout).toContain('could-not-run');
    });
  });
});
