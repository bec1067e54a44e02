// `market-stub check` (the built CLI, as a real process) against deployments that break the
// contract or our assumptions on purpose: each case asserts the exit code and exactly which
// errors and warnings are reported (severity, code, endpoint, pointer).
import { describe, expect, it } from 'vitest';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer, type Deviations, type RawMarket } from './deviant-server.js';
import { findingOf, problemKeys, runCheckJson } from './contract-report-helpers.js';

const LIST = 'GET /markets';
const SINGLE = 'GET /markets/{market_id}';

/** Six conforming markets with market `index` (1-based) replaced by `overrides` merged in. */
function withMarket(index: number, overrides: RawMarket, drop: string[] = []): RawMarket[] {
  return conformingMarkets(6).map((m, i) => {
    if (i !== index - 1) return m;
    const changed: RawMarket = { ...m, ...overrides };
    for (const key of drop) delete changed[key];
    return changed;
  });
}

/** Pages of `size` markets; `link` bare arrays with Link headers, else envelopes with `field`. */
function paged(markets: RawMarket[], size: number, style: 'link' | 'next_cursor' | 'next-path'): Deviations {
  return {
    list: (url) => {
      const page = Number(url.searchParams.get(style === 'next_cursor' ? 'cursor' : 'page') ?? '0');
      const items = markets.slice(page * size, page * size + size).map(summaryOf);
      const more = (page + 1) * size < markets.length;
      if (style === 'link') return json(items, 200, more ? { link: `</markets?page=${page + 1}>; rel="next", </markets?page=0>; rel="first"` } : {});
      if (style === 'next_cursor') return json({ markets: items, next_cursor: more ? String(page + 1) : null });
      return json({ data: items, next: more ? `/markets?page=${page + 1}` : null });
    },
  };
}

interface Case {
  name: string;
  markets: RawMarket[];
  deviations?: Deviations;
  args?: string[];
  exit: number;
  /** The one sentence on stderr of a run that could not run (exit 2); none otherwise. */
  stderr?: RegExp;
  /** Exactly these errors and warnings, as `severity code endpoint pointer`. */
  problems: string[];
  /** Further assertions on the report. */
  also?: (report: Awaited<ReturnType<typeof runCheckJson>>['report']) => void;
}

const cases: Case[] = [
  {
    name: 'a price sent as a string is an error on both endpoints',
    markets: withMarket(2, { yes_price: '0.57', no_price: 0.43 }),
    exit: 1,
    problems: [`error type ${LIST} /*/yes_price`, `error type ${SINGLE} /yes_price`],
    also: (report) => {
      const f = findingOf(report, 'type', LIST);
      expect(f).toMatchObject({ count: 1, expected: 'number', found: '"0.57"' });
      expect(f.examples[0]).toMatchObject({ marketId: 'DEV-2', pointer: '/1/yes_price' });
    },
  },
  {
    name: 'a datetime resolution_date is an error',
    markets: withMarket(3, { resolution_date: '2099-12-31T00:00:00Z' }),
    exit: 1,
    problems: [`error format ${SINGLE} /resolution_date`],
    also: (report) => expect(findingOf(report, 'format').examples[0]).toMatchObject({ marketId: 'DEV-3', found: '"2099-12-31T00:00:00Z"' }),
  },
  {
    name: 'resolution_date missing from the single response is an error',
    markets: withMarket(1, {}, ['resolution_date']),
    exit: 1,
    problems: [`error required ${SINGLE} /resolution_date`],
  },
  {
    name: 'resolution_date present in list items is an error',
    markets: conformingMarkets(4),
    deviations: { list: () => json(conformingMarkets(4)) },
    exit: 1,
    problems: [`error forbidden ${LIST} /*/resolution_date`],
    also: (report) => expect(findingOf(report, 'forbidden').count).toBe(4),
  },
  {
    name: 'an integer market_id is an error on both endpoints',
    markets: withMarket(5, { market_id: 42 }),
    exit: 1,
    problems: [`error type ${LIST} /*/market_id`, `error type ${SINGLE} /market_id`],
    also: (report) => expect(findingOf(report, 'type', LIST).examples[0]).toMatchObject({ marketId: '42', pointer: '/4/market_id', found: '42' }),
  },
  {
    name: 'a listed id that 404s is an error',
    markets: conformingMarkets(6),
    deviations: { single: (id) => (id === 'DEV-4' ? json({ error: 'gone' }, 404) : undefined) },
    exit: 1,
    problems: [`error not-found ${SINGLE} `],
    also: (report) => expect(findingOf(report, 'not-found').examples[0]).toMatchObject({ marketId: 'DEV-4', request: '/markets/DEV-4' }),
  },
  {
    name: 'a listed id that answers 503 is an error',
    markets: conformingMarkets(6),
    deviations: { single: (id) => (id === 'DEV-2' ? json({ error: 'busy' }, 503) : undefined) },
    args: ['--retries', '0'],
    exit: 1,
    problems: [`error http-status ${SINGLE} `],
  },
  {
    name: 'a listed id that keeps answering 503 with Retry-After is retried, then an error once the budget is spent',
    markets: conformingMarkets(6),
    deviations: { single: (id) => (id === 'DEV-2' ? json({ error: 'busy' }, 503, { 'retry-after': '0' }) : undefined) },
    exit: 1,
    problems: [`error retry-exhausted ${SINGLE} `],
    also: (report) => {
      expect(findingOf(report, 'retry-exhausted').found).toMatch(/^503 after 2 retries \(--retries 2\); last answer 503: a JSON object with keys error/);
      expect(findingOf(report, 'retry')).toMatchObject({ severity: 'info', count: 2 });
    },
  },
  {
    name: 'a list that answers 500 is an error on GET /markets (the deployment answered: exit 1, not 2)',
    markets: conformingMarkets(6),
    deviations: { list: () => json({ error: 'internal' }, 500) },
    exit: 1,
    problems: [`error http-status ${LIST} `],
    also: (report) => {
      expect(findingOf(report, 'http-status').found).toMatch(/^500: a JSON object with keys error/);
      expect(report.summary.marketsChecked).toBe(0);
      expect(report.list.shape).toBe('unavailable');
    },
  },
  {
    name: 'a list body that is not JSON is an error',
    markets: conformingMarkets(6),
    deviations: { list: () => ({ headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Maintenance</title>' }) },
    exit: 1,
    problems: [`error not-json ${LIST} `],
    also: (report) => expect(findingOf(report, 'not-json').found).toMatch(/^text\/html, 41 bytes: "<!doctype html>.*\(not JSON: /),
  },
  {
    name: 'a single body that is not JSON is an error',
    markets: conformingMarkets(6),
    deviations: { single: (id) => (id === 'DEV-6' ? { headers: { 'content-type': 'application/json' }, body: '{"market_id": "DEV-6", ' } : undefined) },
    exit: 1,
    problems: [`error not-json ${SINGLE} `],
  },
  {
    name: 'a single market that hangs past --timeout-ms stops the run at the checker\'s limit (exit 2, could-not-run naming --timeout-ms)',
    markets: conformingMarkets(6),
    deviations: { single: (id) => (id === 'DEV-1' ? 'hang' : undefined) },
    args: ['--timeout-ms', '400'],
    exit: 2,
    stderr: /^market-stub check: GET http:\/\/127\.0\.0\.1:\d+\/markets\/DEV-1: no complete answer within 400 ms \(--timeout-ms\): a limit of the checker \(--timeout-ms 400\)/,
    problems: [`error could-not-run ${SINGLE} `],
    also: (report) => expect(findingOf(report, 'could-not-run').found).toContain('give --timeout-ms more than 400 (up to 600000)'),
  },
  {
    name: 'undocumented extra fields are information only, listed once by name with counts',
    markets: conformingMarkets(6).map((m, i) => ({ ...m, volume: 1000 + i, open_interest: i })),
    exit: 0,
    problems: [],
    also: (report) => {
      const names = report.findings.filter((f) => f.code === 'undocumented-field').map((f) => `${f.endpoint} ${f.pointer} ${f.count}`).sort();
      expect(names).toEqual([`${LIST} /*/open_interest 6`, `${LIST} /*/volume 6`, `${SINGLE} /open_interest 6`, `${SINGLE} /volume 6`]);
      expect(report.findings.filter((f) => f.code === 'undocumented-field').every((f) => f.severity === 'info')).toBe(true);
    },
  },
  {
    name: 'float noise is a warning (exit 0)',
    markets: withMarket(2, { yes_price: 0.5700000000000001, no_price: 0.43 }),
    exit: 0,
    problems: [`warning float-noise ${LIST} /*/yes_price`, `warning float-noise ${SINGLE} /yes_price`],
    also: (report) => expect(findingOf(report, 'float-noise', LIST).found).toBe('0.5700000000000001'),
  },
  {
    name: 'float noise fails with --strict (exit 1)',
    markets: withMarket(2, { yes_price: 0.5700000000000001, no_price: 0.43 }),
    args: ['--strict'],
    exit: 1,
    problems: [`warning float-noise ${LIST} /*/yes_price`, `warning float-noise ${SINGLE} /yes_price`],
    also: (report) => expect(report).toMatchObject({ strict: true, verdict: 'fail', summary: { errors: 0, warnings: 2 } }),
  },
  {
    name: 'a status other than active, a price above 1 and a sum away from 1 are warnings',
    markets: withMarket(1, { status: 'closed', yes_price: 1.2, no_price: 0.1 }),
    exit: 0,
    problems: [
      `warning const ${LIST} /*/status`, `warning const ${SINGLE} /status`,
      `warning maximum ${LIST} /*/yes_price`, `warning maximum ${SINGLE} /yes_price`,
      `warning price-sum ${LIST} /*`, `warning price-sum ${SINGLE} `,
    ],
  },
  {
    name: 'JSON served as text/plain is a warning',
    markets: conformingMarkets(3),
    deviations: { list: () => ({ headers: { 'content-type': 'text/plain' }, body: JSON.stringify(conformingMarkets(3).map(summaryOf)) }) },
    exit: 0,
    problems: [`warning content-type ${LIST} `],
  },
  {
    name: 'list and single disagreeing on title is an error; on prices, a warning (markets move)',
    markets: conformingMarkets(4),
    deviations: { single: (id) => (id === 'DEV-3' ? json(conformingMarket(3, { title: 'Another question?', yes_price: 0.5, no_price: 0.5 })) : undefined) },
    exit: 1,
    problems: [`error list-single-mismatch ${SINGLE} /title`, `warning price-moved ${SINGLE} /no_price`, `warning price-moved ${SINGLE} /yes_price`],
  },
  {
    name: 'a single market wrapped in an envelope is an error',
    markets: conformingMarkets(3),
    deviations: { single: (id) => (id === 'DEV-1' ? json({ market: conformingMarket(1) }) : undefined) },
    exit: 1,
    problems: [`error single-envelope ${SINGLE} `],
  },
  {
    name: 'a repeated market_id in the list is a warning',
    markets: conformingMarkets(3),
    deviations: { list: () => json([...conformingMarkets(3), conformingMarket(2)].map(summaryOf)) },
    exit: 0,
    problems: [`warning duplicate-id ${LIST} /*/market_id`],
    also: (report) => expect(findingOf(report, 'duplicate-id').examples[0]).toMatchObject({ marketId: 'DEV-2', pointer: '/3/market_id' }),
  },
  {
    name: 'an envelope is information (which key held the array)',
    markets: conformingMarkets(5),
    deviations: { list: () => json({ markets: conformingMarkets(5).map(summaryOf), total: 5 }) },
    exit: 0,
    problems: [],
    also: (report) => {
      expect(report.list).toMatchObject({ shape: 'envelope', envelopeKey: 'markets', pages: 1, paging: 'none' });
      expect(findingOf(report, 'list-shape')).toMatchObject({ severity: 'info', found: 'an envelope: the array under "markets" (other keys: total)' });
      expect(report.summary.marketsListed).toBe(5);
    },
  },
  {
    name: 'cursor pagination (next_cursor in an envelope) is followed to the last page',
    markets: conformingMarkets(7),
    deviations: paged(conformingMarkets(7), 3, 'next_cursor'),
    exit: 0,
    problems: [],
    also: (report) => expect(report).toMatchObject({ list: { shape: 'envelope', pages: 3, paging: 'next_cursor', complete: true }, summary: { marketsListed: 7, marketsChecked: 7 } }),
  },
  {
    name: 'Link rel="next" pagination of a bare array is followed',
    markets: conformingMarkets(7),
    deviations: paged(conformingMarkets(7), 3, 'link'),
    exit: 0,
    problems: [],
    also: (report) => expect(report).toMatchObject({ list: { shape: 'array', pages: 3, paging: 'link', complete: true }, summary: { marketsListed: 7 } }),
  },
  {
    name: 'a `next` path in an envelope is followed',
    markets: conformingMarkets(5),
    deviations: paged(conformingMarkets(5), 2, 'next-path'),
    exit: 0,
    problems: [],
    also: (report) => expect(report).toMatchObject({ list: { shape: 'envelope', envelopeKey: 'data', pages: 3, paging: 'next' }, summary: { marketsListed: 5 } }),
  },
  {
    name: 'a cursor that loops back to the first page is one warning (not a duplicate per market) and the crawl stops',
    markets: conformingMarkets(2),
    deviations: { list: () => json({ markets: conformingMarkets(2).map(summaryOf), next_cursor: 'again' }) },
    exit: 0,
    // The second page repeats the first: one cursor-loop, no duplicate-id per market.
    problems: [`warning cursor-loop ${LIST} `],
    also: (report) => expect(report.list).toMatchObject({ pages: 2, complete: false }),
  },
  {
    name: 'a repeated cursor is found before it is fetched again',
    markets: conformingMarkets(4),
    deviations: { list: (url) => {
      const page = url.searchParams.get('cursor') ?? 'a';
      const items = conformingMarkets(4).slice(page === 'a' ? 0 : 2, page === 'a' ? 2 : 4).map(summaryOf);
      return json({ markets: items, next_cursor: page === 'a' ? 'b' : 'b' });
    } },
    exit: 0,
    problems: [`warning cursor-loop ${LIST} `],
    also: (report) => {
      expect(report.list).toMatchObject({ pages: 2, complete: false });
      expect(findingOf(report, 'cursor-loop').found).toMatch(/^next page \/markets\?cursor=b was already fetched; not fetched again$/);
    },
  },
  {
    name: 'a page limit stops the run at the checker\'s limit (exit 2, could-not-run naming --max-pages)',
    markets: conformingMarkets(7),
    deviations: paged(conformingMarkets(7), 3, 'next_cursor'),
    args: ['--max-pages', '2'],
    exit: 2,
    stderr: /^market-stub check: the list has more than 2 pages: page 2 links to \/markets\?cursor=2: a limit of the checker \(--max-pages 2\)/,
    problems: [`error could-not-run ${LIST} `],
    also: (report) => {
      expect(findingOf(report, 'could-not-run').found).toContain('give --max-pages more than 2 (up to 1000000)');
      expect(report.summary.marketsListed).toBe(6);
    },
  },
  {
    name: 'a redirect is followed and reported as information',
    markets: conformingMarkets(3),
    deviations: {
      prefix: '/v2',
      other: (url) => (url.pathname.startsWith('/markets') ? { status: 301, headers: { location: `/v2${url.pathname}${url.search}` }, body: '' } : undefined),
    },
    exit: 0,
    problems: [],
    also: (report) => {
      expect(report.list.redirectedTo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/markets$/);
      expect(findingOf(report, 'redirect', LIST).severity).toBe('info');
      expect(findingOf(report, 'redirect', SINGLE).count).toBe(4);
      expect(report.summary).toMatchObject({ marketsListed: 3, marketsChecked: 3 });
    },
  },
];

describe.concurrent('market-stub check against deviant deployments', () => {
  it.each(cases)('$name', async (c) => {
    await withServer(c.markets, c.deviations, async (server) => {
      const run = await runCheckJson(server.url, ['--all', ...(c.args ?? [])]);
      if (c.stderr) expect(run.stderr).toMatch(c.stderr);
      else expect(run.stderr).toBe('');
      expect(problemKeys(run.report)).toEqual([...c.problems].sort());
      expect(run.code).toBe(c.exit);
      expect(run.report.exitCode).toBe(c.exit);
      c.also?.(run.report);
    });
  });

  it('aggregates 20,000 markets with the same problem into one finding with a count and three examples', async () => {
    const markets = Array.from({ length: 20_000 }, (_, i) => conformingMarket(i + 1, { yes_price: String(0.5), no_price: 0.5 }));
    await withServer(markets, undefined, async (server) => {
      const run = await runCheckJson(server.url, ['--max-markets', '5']);
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual([`error type ${LIST} /*/yes_price`, `error type ${SINGLE} /yes_price`]);
      const list = findingOf(run.report, 'type', LIST);
      expect(list.count).toBe(20_000);
      expect(list.examples.map((e) => [e.marketId, e.pointer])).toEqual([['DEV-1', '/0/yes_price'], ['DEV-2', '/1/yes_price'], ['DEV-3', '/2/yes_price']]);
      expect(findingOf(run.report, 'type', SINGLE).count).toBe(5);
      // --max-markets 5 spreads the sample over the list.
      const asked = server.requests.filter((r) => /^\/markets\/DEV-/.test(r.url)).map((r) => r.url).sort();
      expect(asked).toEqual(['/markets/DEV-1', '/markets/DEV-12001', '/markets/DEV-16001', '/markets/DEV-4001', '/markets/DEV-8001']);
    });
  });

  it('probes an id that cannot exist and reports the answer as information only, whatever it is', async () => {
    const probeAnswers500 = { single: (id: string) => (id.startsWith('market-stub-probe-') ? { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>oops</h1>' } : undefined) };
    await withServer(conformingMarkets(2), probeAnswers500, async (server) => {
      const run = await runCheckJson(server.url);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([]);
      expect(run.report.probe).toMatchObject({ status: 500, contentType: 'text/html', body: 'text/html, 13 bytes: "<h1>oops</h1>"' });
      expect(run.report.probe?.request).toMatch(/^\/markets\/market-stub-probe-[0-9a-z]+$/);
      expect(findingOf(run.report, 'unknown-id-probe').severity).toBe('info');
      // Seeded: the same probe path on every run.
      const again = await runCheckJson(server.url);
      expect(again.report.probe?.request).toBe(run.report.probe?.request);
    });
  });

  it('reports a listed market_id "." or ".." as dot-segment-id, the one market no URL can reach', async () => {
    const markets = [conformingMarket(1, { market_id: '.' }), conformingMarket(2, { market_id: '..' }), conformingMarket(3, { market_id: 'KX-26MAY19' })];
    await withServer(markets, undefined, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(1);
      const f = findingOf(run.report, 'dot-segment-id', LIST);
      expect(f).toMatchObject({ severity: 'error', count: 2 });
      expect(f.expected).toContain('a market_id other than "." and ".."');
      expect(problemKeys(run.report)).toEqual([`error dot-segment-id ${LIST} /*/market_id`]);
      expect(server.requests.map((r) => r.url)).toContain('/markets/KX-26MAY19');
      // `/markets/.` and `/markets/..` would reach the list and the root: never asked.
      expect(server.requests.filter((r) => r.url === '/' || r.url === '/markets/')).toEqual([]);
    });
  });

  it('percent-encodes listed ids as one path segment', async () => {
    const markets = [conformingMarket(1, { market_id: 'a/b c?d' }), conformingMarket(2, { market_id: 'KX-26MAY19' })];
    await withServer(markets, undefined, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(0);
      expect(server.requests.map((r) => r.url)).toContain('/markets/a%2Fb%20c%3Fd');
    });
  });
});
