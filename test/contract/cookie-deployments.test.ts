// Cookies a deployment sets, kept for the run (docs/networks.md, "Cookies"; RFC 6265): a load
// balancer's stickiness cookie set on the first answer goes back on every later request to the
// base URL's origin, never to another origin, and its value is a secret of the run: in no report
// format, no stderr line, no recorded fixture.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformingMarkets, json, summaryOf, withServer, type Answer, type RawMarket } from './deviant-server.js';
import { filesUnder, findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';
import { startRecordingProxy } from '../../src/proxy/recording-proxy.js';

const FORMATS = ['text', 'json', 'markdown', 'html', 'junit', 'sarif'] as const;
const STICKY = 'AWSALB';
const VALUE = 'lb-7f3a9c2e41d0b8a6-node-3';
const markets = conformingMarkets(4);
const summaries = markets.map(summaryOf);

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-cookies-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const hasSticky = (req: IncomingMessage) => (req.headers.cookie ?? '').split(/;\s*/).includes(`${STICKY}=${VALUE}`);
const missing = () => json({ error: 'bad_request', message: 'no backend affinity: stickiness cookie missing' }, 400);

/**
 * A deployment behind a load balancer: the first list page sets the stickiness cookie and links to
 * page 2; every later request without the cookie is a 400 (the balancer sent it to a node that
 * does not know the cursor). `single` may answer a market otherwise.
 */
function stickyDeployment(single?: (id: string) => Answer | undefined) {
  return {
    list: (url: URL, req: IncomingMessage) => {
      if (url.searchParams.get('page') !== '2') return json({ markets: summaries.slice(0, 2), next: '/markets?page=2' }, 200, { 'set-cookie': [`${STICKY}=${VALUE}; Path=/; HttpOnly`, 'theme=dark; Path=/docs'] });
      return hasSticky(req) ? json({ markets: summaries.slice(2), next: null }) : missing();
    },
    single: (id: string, _url: URL, req: IncomingMessage) => (hasSticky(req) ? single?.(id) : missing()),
  };
}

describe('cookies the deployment sets are kept for the run', () => {
  it('a stickiness cookie set on page 1 goes back on page 2 and every market: the run passes', async () => {
    await withServer(markets, stickyDeployment(), async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(problemKeys(run.report)).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.report.list).toMatchObject({ pages: 2, complete: true });
      expect(run.report.summary.marketsListed).toBe(4);
      // Path=/docs (RFC 6265 §5.1.4) is kept but never sent to /markets.
      const later = server.requests.filter((r) => r.url !== '/markets');
      expect(later.length).toBeGreaterThan(4);
      for (const request of later) expect(request.headers.cookie, request.url).toBe(`${STICKY}=${VALUE}`);
      expect(server.requests[0]?.headers.cookie).toBeUndefined();
      expect(findingOf(run.report, 'cookies').found).toBe(`the deployment set 2 cookies "${STICKY}", "theme"; kept for the run and sent back on ${server.url} only (values redacted)`);
      expect(JSON.stringify(run.report)).not.toContain(VALUE);
    });
  });

  it('a --header Cookie is sent with the kept cookies, in one field', async () => {
    await withServer(markets, stickyDeployment(), async (server) => {
      const run = await runCheckJson(server.url, ['--header', 'Cookie: consent=yes']);
      expect(run.code).toBe(0);
      expect(server.requests.find((r) => r.url === '/markets?page=2')?.headers.cookie).toBe(`consent=yes; ${STICKY}=${VALUE}`);
    });
  });

  it('a cookie is never sent to another origin: a next link to another host gets none', async () => {
    await withServer(markets, { list: () => json({ markets: summaries.slice(2), next: null }) }, async (elsewhere) => {
      const list = (url: URL) => (url.searchParams.get('page') === '2' ? missing() : json({ markets: summaries.slice(0, 2), next: `${elsewhere.url}/markets?page=2` }, 200, { 'set-cookie': `${STICKY}=${VALUE}; Path=/` }));
      await withServer(markets, { list }, async (server) => {
        const run = await runCheckJson(server.url, ['--all']);
        expect(run.code).toBe(0);
        expect(problemKeys(run.report)).toEqual(['warning cross-origin GET /markets ']);
        expect(elsewhere.requests.map((r) => [r.url, r.headers.cookie])).toEqual([['/markets?page=2', undefined]]);
        // Back on the base origin, the cookie goes with every market.
        expect(server.requests.filter((r) => r.url.startsWith('/markets/DEV-')).every((r) => r.headers.cookie === `${STICKY}=${VALUE}`)).toBe(true);
      });
    });
  });

  it('a cookie set by another origin is not kept (nothing set there comes back to the base origin)', async () => {
    await withServer(markets, { list: () => json({ markets: summaries.slice(2), next: null }, 200, { 'set-cookie': 'foreign=from-elsewhere-0001; Path=/' }) }, async (elsewhere) => {
      const list = () => json({ markets: summaries.slice(0, 2), next: `${elsewhere.url}/markets?page=2` });
      await withServer(markets, { list }, async (server) => {
        const run = await runCheckJson(server.url);
        expect(run.code).toBe(0);
        expect(server.requests.every((r) => r.headers.cookie === undefined)).toBe(true);
        expect(run.report.findings.some((f) => f.code === 'cookies')).toBe(false);
      });
    });
  });

  it('a cookie value appears in no report format, no stderr line and no recorded fixture, even when the deployment echoes it', async () => {
    const echo = (id: string) => {
      if (id === 'DEV-2') return { status: 500, headers: { 'content-type': 'text/plain' }, body: `node for ${STICKY}=${VALUE} failed` };
      if (id === 'DEV-3') return json({ ...markets[2], title: `Served by ${VALUE}` });
      // theme=dark is no secret (shorter than 8 characters): a title holding the word is recorded whole.
      if (id === 'DEV-4') return json({ ...markets[3], title: 'Will the dark horse win?' });
      return undefined;
    };
    await withServer(markets, stickyDeployment(echo), async (server) => {
      for (const format of FORMATS) {
        const output = path.join(work, `report.${format}`);
        const run = await runCliInProcess(['check', '--base-url', server.url, '--all', '--format', format, '--output', output]);
        expect(run.code, format).toBe(1);
        const written = await readFile(output, 'utf8');
        expect(written, format).toContain('http-status');
        expect(written, format).toMatch(/node for AWSALB=\[redacted\]|AWSALB=\[redacted\]/);
        expect(`${written}${run.stdout}${run.stderr}`, format).not.toContain(VALUE);
      }
      const out = path.join(work, 'recorded');
      const record = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out, '--keep-invalid', '--format', 'json']);
      expect(record.code).toBe(1);
      expect(`${record.stdout}${record.stderr}${await filesUnder(out)}`).not.toContain(VALUE);
      const written = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(written.map((m) => [m['market_id'], m['title']])).toEqual([['DEV-1', markets[0]?.['title']], ['DEV-4', 'Will the dark horse win?']]);
      expect(findingOf(JSON.parse(record.stdout) as never, 'header-echo').found).toBe('a cookie value the deployment set ([redacted])');
    });
  });

  it('proxy passes cookies between client and upstream and keeps their values out of its report and findings', async () => {
    // The upstream sets the cookie on an error answer that also echoes it: the client sent no cookie, so only the Set-Cookie field tells the proxy the value.
    const single = (id: string) => (id === 'DEV-2' ? { status: 500, headers: { 'content-type': 'text/plain', 'set-cookie': `${STICKY}=${VALUE}; Path=/; HttpOnly` }, body: `node for ${STICKY}=${VALUE} failed` } : undefined);
    await withServer(markets, { single }, async (server) => {
      const findings: string[] = [];
      const proxy = await startRecordingProxy({ upstream: server.url, onFinding: (f) => findings.push(JSON.stringify(f)) });
      try {
        expect((await fetch(`${proxy.url}/markets`)).status).toBe(200);
        const failed = await fetch(`${proxy.url}/markets/DEV-2`);
        expect(failed.status).toBe(500);
        expect(failed.headers.getSetCookie()).toEqual([`${STICKY}=${VALUE}; Path=/; HttpOnly`]);
        expect((await fetch(`${proxy.url}/markets/DEV-1`, { headers: { cookie: `${STICKY}=${VALUE}` } })).status).toBe(200);
        expect(server.requests.find((r) => r.url === '/markets/DEV-1')?.headers.cookie).toBe(`${STICKY}=${VALUE}`);
        const report = JSON.stringify(proxy.report());
        // The finding is logged as the exchange ends, before the client ever sends the cookie back: only the Set-Cookie field named the value.
        expect(findings.join('\n')).toContain(`node for ${STICKY}=[redacted]`);
        expect(report).toContain('node for [redacted]');
        expect(`${report}${findings.join('\n')}`).not.toContain(VALUE);
      } finally {
        await proxy.close();
      }
    });
  });
});
