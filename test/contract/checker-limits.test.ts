// One rule for the checker's own limits (a body past --max-market-bytes or --max-body-mb, more
// pages than --max-pages, an answer past --timeout-ms): exit 2 with a could-not-run report naming
// the flag and the value that lets the run finish, never a contract finding; member names that
// are also JavaScript built-ins are data; refusals that are not about a credential (451, a CDN's
// bot challenge) are could-not-run with what to do. Each against a deployment built for the test.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer, type RawMarket } from './deviant-server.js';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { checkDeployment, DeploymentRefusal } from '../../src/contract/index.js';
import { findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';

const LIST = 'GET /markets';
const SINGLE = 'GET /markets/{market_id}';
const FORMATS = ['text', 'json', 'markdown', 'html', 'junit', 'sarif'] as const;
const MiB = 1_048_576;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-limits-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Runs check in every format; each report holds one could-not-run finding whose sentence matches `sentence`. */
async function expectCouldNotRunEverywhere(baseUrl: string, args: readonly string[], sentence: RegExp, words: readonly string[]): Promise<void> {
  for (const format of FORMATS) {
    const output = path.join(work, `run-${Math.random().toString(36).slice(2)}.${format}`);
    const run = await runCliInProcess(['check', '--base-url', baseUrl, ...args, '--format', format, '--output', output]);
    expect(run.code, format).toBe(2);
    expect(run.stderr, format).toMatch(sentence);
    const written = await readFile(output, 'utf8');
    expect(written, format).toContain('could-not-run');
    for (const word of words) expect(written, `${format}: ${word}`).toContain(word);
  }
}

describe('the checker\'s own limits: exit 2 naming the flag and the value that lets the run finish', () => {
  it('a conforming market larger than --max-market-bytes: could-not-run naming the flag and its Content-Length, never body-too-large', async () => {
    const big = conformingMarket(1, { title: 'T'.repeat(3 * MiB) });
    const markets = [conformingMarket(0), big, conformingMarket(2)];
    await withServer(markets, undefined, async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--max-market-bytes', String(MiB)]);
      expect(run.code).toBe(2);
      expect(problemKeys(run.report)).toEqual([`error could-not-run ${SINGLE} `]);
      const found = findingOf(run.report, 'could-not-run').found;
      const length = Buffer.byteLength(JSON.stringify(big));
      expect(found).toContain(`a limit of the checker (--max-market-bytes ${MiB}), not of the deployment's contract`);
      expect(found).toContain(`give --max-market-bytes ${length} (its Content-Length is ${length.toLocaleString('en-US')} bytes)`);
      expect(run.report.findings.some((f) => f.code === 'body-too-large')).toBe(false);
      // The value named lets the run finish; so does the new default (8 MiB).
      expect((await runCheckJson(server.url, ['--all', '--max-market-bytes', String(length)])).code).toBe(0);
      expect((await runCheckJson(server.url, ['--all'])).code).toBe(0);
      await expectCouldNotRunEverywhere(server.url, ['--all', '--max-market-bytes', String(MiB)], /^market-stub check: (COULD NOT RUN; \w+ report written to .*\n)?market-stub check: GET http:\/\/127\.0\.0\.1:\d+\/markets\/DEV-1: the single-market body is larger than the limit of 1 MiB/m, ['--max-market-bytes']);
    });
  });

  it('a chunked single market without Content-Length: the limit and "more than" it', async () => {
    const single = (id: string) => (id === 'DEV-1' ? { stream: (res: ServerResponse) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(conformingMarket(1, { title: 'x'.repeat(2 * MiB) }))); } } : undefined);
    await withServer(conformingMarkets(3), { single }, async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--max-market-bytes', String(MiB)]);
      expect(run.code).toBe(2);
      expect(findingOf(run.report, 'could-not-run').found).toContain(`give --max-market-bytes more than ${MiB} (the body was cut there; its whole size is unknown)`);
    });
  });

  it('a list with more pages than --max-pages: could-not-run naming --max-pages (was a warning)', async () => {
    const markets = conformingMarkets(6);
    const list = (url: URL) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      const items = markets.slice((page - 1) * 2, page * 2).map(summaryOf);
      return json({ markets: items, ...(page < 3 ? { next: `/markets?page=${page + 1}` } : {}) });
    };
    await withServer(markets, { list }, async (server) => {
      const run = await runCheckJson(server.url, ['--max-pages', '2']);
      expect(run.code).toBe(2);
      expect(problemKeys(run.report)).toEqual([`error could-not-run ${LIST} `]);
      expect(findingOf(run.report, 'could-not-run').found).toMatch(/^the list has more than 2 pages: page 2 links to \/markets\?page=3: a limit of the checker \(--max-pages 2\), not of the deployment's contract\. To let the run finish, give --max-pages more than 2 \(up to 1000000\)\./);
      expect((await runCheckJson(server.url, ['--max-pages', '3'])).code).toBe(0);
    });
  });

  it('a single market slower than --timeout-ms: could-not-run naming --timeout-ms (was request-failed)', async () => {
    await withServer(conformingMarkets(3), { single: (id) => (id === 'DEV-2' ? 'hang' : undefined) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--timeout-ms', '400']);
      expect(run.code).toBe(2);
      expect(problemKeys(run.report)).toEqual([`error could-not-run ${SINGLE} `]);
      expect(findingOf(run.report, 'could-not-run').found).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/markets\/DEV-2: no complete answer within 400 ms \(--timeout-ms\): a limit of the checker \(--timeout-ms 400\), not of the deployment's contract\. To let the run finish, give --timeout-ms more than 400 \(up to 600000\) if the deployment is this slow\./);
    });
  });

  it('a list page larger than --max-body-mb: a could-not-run report (every format), not only a sentence', async () => {
    const markets = conformingMarkets(2).map((m) => ({ ...m, note: 'n'.repeat(700_000) }));
    await withServer(markets, undefined, async (server) => {
      await expectCouldNotRunEverywhere(server.url, ['--max-body-mb', '1'], /market-stub check: GET http:\/\/127\.0\.0\.1:\d+\/markets: the body is larger than the limit of 1 MiB/, ['--max-body-mb 1']);
    });
  });
});

describe('member names are data', () => {
  const BUILT_INS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__lookupSetter__'];

  it('a market carrying a member named like an Object.prototype built-in passes as the same market without it (list and single)', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...BUILT_INS), fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })), async (name, value) => {
      const extra = `{"${name}":${JSON.stringify(value)},`;
      const markets = conformingMarkets(2);
      const withName = (m: RawMarket) => extra + JSON.stringify(m).slice(1);
      const deviations = {
        list: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: `[${markets.map((m) => withName(summaryOf(m))).join(',')}]` }),
        single: (id: string) => { const m = markets.find((x) => x.market_id === id); return m ? { status: 200, headers: { 'content-type': 'application/json' }, body: withName(m) } : undefined; },
      };
      await withServer(markets, deviations, async (server) => {
        const run = await runCheckJson(server.url, ['--all']);
        expect(run.code).toBe(0);
        expect(problemKeys(run.report)).toEqual([]);
        expect(run.report.findings.filter((f) => f.code === 'undocumented-field').map((f) => f.pointer).sort()).toEqual([`/*/${name}`, `/${name}`].sort());
      });
    }), { numRuns: 12 });
  });

  it('record keeps the contract verdict and names the market it cannot write as a fixture (the fixture reader refuses the name)', async () => {
    const markets = conformingMarkets(2);
    const [kept, named] = markets.map((m) => String(m['market_id']));
    const single = (id: string) => (id === named ? { status: 200, headers: { 'content-type': 'application/json' }, body: `{"constructor":1,${JSON.stringify(markets.find((m) => m['market_id'] === id)).slice(1)}` } : undefined);
    await withServer(markets, { single }, async (server) => {
      const out = path.join(work, 'names-recorded');
      const run = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out, '--format', 'json']);
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as ContractReport;
      expect(findingOf(report, 'not-recorded').found).toBe('member "constructor" (the fixture reader refuses it: docs/limits.md)');
      const written = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(written.map((m) => m['market_id'])).toEqual([kept]);
    });
  });
});

describe('refusals that are not about a credential: could-not-run (exit 2), named, with what to do', () => {
  it('451 Unavailable For Legal Reasons with Link rel="blocked-by" (RFC 7725), mid-crawl, in every format', async () => {
    const single = (id: string) => (id === 'DEV-1' ? { status: 451, headers: { 'content-type': 'text/html', link: '<https://authority.example/orders/42>; rel="blocked-by"' }, body: '<h1>Unavailable</h1>' } : undefined);
    await withServer(conformingMarkets(3), { single }, async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--concurrency', '1']);
      expect(run.code).toBe(2);
      expect(problemKeys(run.report)).toEqual([`error could-not-run ${SINGLE} `]);
      expect(findingOf(run.report, 'could-not-run').found).toBe('the deployment withholds its content for legal reasons: 451 (Unavailable For Legal Reasons, RFC 7725) to GET /markets/DEV-1; blocked by https://authority.example/orders/42 (Link rel="blocked-by", RFC 7725 §4). Nothing it withholds can be judged from here: run the check from where the content is served (another network or region, --proxy), or ask the deployment\'s operator. The report has this one finding: the others would be about the block, not the contract.');
      await expectCouldNotRunEverywhere(server.url, ['--all'], /the deployment withholds its content for legal reasons: 451/, ['451', 'blocked-by']);
    });
  });

  it('a Cloudflare challenge (403, cf-mitigated: challenge) mid-crawl is not "asks for a credential"', async () => {
    let answered = 0;
    const single = () => (++answered > 1 ? { status: 403, headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge', server: 'cloudflare' }, body: '<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>' } : undefined);
    await withServer(conformingMarkets(4), { single }, async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--concurrency', '1']);
      expect(run.code).toBe(2);
      const found = findingOf(run.report, 'could-not-run').found;
      expect(found).toMatch(/^a CDN bot challenge answered instead of the deployment: 403 to GET \/markets\/DEV-\d is a challenge by Cloudflare \(cf-mitigated: challenge\), a page for a browser to solve\. The checker does not solve challenges/);
      expect(found).not.toContain('credential given');
    });
  });

  it('an Akamai-style challenge page (503, HTML markers only) on the first request', async () => {
    const list = () => ({ status: 503, headers: { 'content-type': 'text/html' }, body: `<html><head><title>Access Denied</title></head><body>You don't have permission. Reference #18.6f2d1402.1700000000.1a2b3c <script src="/akamai-bm-telemetry.js"></script></body></html>` });
    await withServer(conformingMarkets(2), { list }, async (server) => {
      const rejected = await checkDeployment({ baseUrl: server.url, retries: 0 }).catch((error: unknown) => error);
      expect(rejected).toBeInstanceOf(DeploymentRefusal);
      expect(rejected).toMatchObject({ code: 'DEPLOYMENT_UNREACHABLE', refusal: 'bot-challenge', report: { exitCode: 2, findings: [{ code: 'could-not-run', endpoint: LIST }] } });
      expect((rejected as Error).message).toContain('a challenge by Akamai (its challenge page, text/html)');
    });
  });

  it('an HTML 503 that is no challenge is still judged as before (its body, looked at for markers, read whole)', async () => {
    const list = () => ({ status: 503, headers: { 'content-type': 'text/html' }, body: '<h1>Busy</h1>' });
    await withServer(conformingMarkets(2), { list }, async (server) => {
      const run = await runCheckJson(server.url, ['--retries', '0']);
      expect(run.code).toBe(1);
      expect(findingOf(run.report, 'http-status').found).toBe('503: text/html, 13 bytes: "<h1>Busy</h1>"');
    });
  });
});
