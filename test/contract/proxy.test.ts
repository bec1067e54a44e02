// `market-stub proxy`: byte-identical pass-through, the same findings as `check` for the same
// deviant deployment, findings logged as they happen, and --record / --report on SIGTERM.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { startRecordingProxy } from '../../src/proxy/recording-proxy.js';
import { createMarketSpool } from '../../src/contract/fixture-sets/market-spool.js';
import { CLI } from '../support/cli-process.js';
import { closedPort, conformingMarket, conformingMarkets, json, summaryOf, withServer, type RawMarket } from './deviant-server.js';
import { problemKeys, runCheckJson } from './contract-report-helpers.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-proxy-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A raw HTTP exchange: status, headers as sent (raw pairs) and the body bytes, undecoded. */
interface RawExchange {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

function rawRequest(url: string, options: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** End-to-end headers worth comparing: everything but hop-by-hop fields and Date (RFC 9110 §7.6.1). */
function endToEnd(raw: string[]): string[] {
  const skip = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!skip.has((raw[i] ?? '').toLowerCase())) out.push(`${(raw[i] ?? '').toLowerCase()}: ${raw[i + 1]}`);
  return out;
}

/** Spawns `market-stub proxy ...args` and resolves once it prints its ready line. */
function startProxyProcess(args: string[]): Promise<{ url: string; stdout: () => string; stop: () => Promise<{ code: number | null; stdout: string; stderr: string }> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'proxy', ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let ready = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /proxy listening on (http:\/\/\S+)/.exec(stdout);
      if (m?.[1] && !ready) {
        ready = true;
        resolve({
          url: m[1],
          stdout: () => stdout,
          stop: async () => {
            child.kill('SIGTERM');
            const code = await exited;
            return { code, stdout, stderr };
          },
        });
      }
    });
    void exited.then((code) => {
      if (!ready) reject(new Error(`proxy exited with ${code} before it was ready\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}

/** The client under test: the list, then every listed market, one by one. */
async function crawlLikeAClient(base: string): Promise<void> {
  const list = JSON.parse((await rawRequest(`${base}/markets`)).body.toString()) as RawMarket[];
  for (const item of list) await rawRequest(`${base}/markets/${encodeURIComponent(String(item['market_id']))}`);
}

/** A deployment with errors and warnings of several kinds, and some extra fields. */
const deviantMarkets: RawMarket[] = [
  conformingMarket(1, { yes_price: '0.57' }),
  conformingMarket(2, { yes_price: 0.5700000000000001, no_price: 0.43, volume: 12 }),
  conformingMarket(3, { resolution_date: '2099-12-31T10:00:00Z' }),
  conformingMarket(4),
  conformingMarket(5, { status: 'closed' }),
];
const deviantRoutes = {
  single: (id: string) => {
    if (id === 'DEV-4') return json({ error: 'gone' }, 404);
    if (id === 'DEV-5') return json(conformingMarket(5, { status: 'closed', title: 'Renamed?' }));
    return undefined;
  },
};

describe('market-stub proxy', () => {
  it('reports the same errors and warnings as check for the same deviant deployment, logs them as they happen, and writes --report and --record on SIGTERM', async () => {
    await withServer(deviantMarkets, deviantRoutes, async (upstream) => {
      const check = await runCheckJson(upstream.url, ['--all']);
      expect(check.code).toBe(1);
      const reportFile = path.join(work, 'proxy-report.json');
      const recordDir = path.join(work, 'seen');
      const htmlFile = path.join(work, 'proxy-report.html');
      // A bare --report PATH takes --format; FORMAT:PATH adds more reports of the same summary.
      const proxy = await startProxyProcess(['--upstream', upstream.url, '--port', '0', '--report', reportFile, '--report', `html:${htmlFile}`, '--format', 'json', '--record', recordDir, '--log-format', 'text']);
      await crawlLikeAClient(proxy.url);
      // Findings are logged while the proxy runs, one line each.
      await expect.poll(() => proxy.stdout(), { timeout: 5_000 }).toMatch(/ERROR.*error GET \/markets \/\*\/yes_price \[type\]: expected number, found "0\.57"/);
      const stopped = await proxy.stop();
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toContain(`market-stub proxy: FAIL; json report written to ${reportFile}`);
      expect(stopped.stderr).toContain(`market-stub proxy: FAIL; html report written to ${htmlFile}`);
      const html = await readFile(htmlFile, 'utf8');
      expect(html).toContain('<h1>FAIL</h1>');
      expect(html).toContain('Response times, GET /markets/{market_id} (ms)');
      const report = JSON.parse(await readFile(reportFile, 'utf8')) as ContractReport;
      expect(report).toMatchObject({ reportVersion: 1, command: 'proxy', verdict: 'fail', exitCode: 1, baseUrl: upstream.url });
      expect(problemKeys(report)).toEqual(problemKeys(check.report));
      const counts = (r: ContractReport) => r.findings.filter((f) => f.severity !== 'info').map((f) => `${f.code} ${f.endpoint} ${f.pointer} ${f.count}`).sort();
      expect(counts(report)).toEqual(counts(check.report));
      expect(problemKeys(report)).toEqual([
        'error format GET /markets/{market_id} /resolution_date',
        'error list-single-mismatch GET /markets/{market_id} /title',
        'error not-found GET /markets/{market_id} ',
        'error type GET /markets /*/yes_price',
        'error type GET /markets/{market_id} /yes_price',
        'warning const GET /markets /*/status',
        'warning const GET /markets/{market_id} /status',
        'warning float-noise GET /markets /*/yes_price',
        'warning float-noise GET /markets/{market_id} /yes_price',
      ]);
      for (const line of stopped.stdout.split('\n').filter((l) => l.includes('[list-single-mismatch]'))) expect(line).toContain('market "DEV-5"');
      // --record: the valid markets seen (DEV-2's float noise and DEV-5's status are warnings), in list order.
      const recorded = JSON.parse(await readFile(path.join(recordDir, 'markets.json'), 'utf8')) as RawMarket[];
      expect(recorded.map((m) => m['market_id'])).toEqual(['DEV-2', 'DEV-5']);
    });
  });

  it('passes bodies, statuses and end-to-end headers through byte for byte, on the market routes and any other path', async () => {
    // DEV-1 as conformingMarket(1) has it (yes 0.38, no 0.62), written unusually: spacing, 0.380, 6.2e-1.
    const oddList = Buffer.from(`[ {"market_id":"DEV-1",   "title":"Will deviant market 1 resolve yes?","status":"active","yes_price":0.380,"no_price":6.2e-1} ]\n`);
    const gz = gzipSync(Buffer.from(JSON.stringify(conformingMarket(2))));
    const routes = {
      list: () => ({ headers: { 'content-type': 'application/json', 'x-request-id': 'abc', 'set-cookie': ['a=1', 'b=2'], link: '</markets?page=2>; rel="next"' }, body: oddList }),
      single: (id: string) => (id === 'DEV-2' ? { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', vary: 'accept-encoding' }, body: gz } : undefined),
      other: (url: URL) => {
        if (url.pathname === '/markets' && url.searchParams.get('page') === '2') return json([summaryOf(conformingMarket(3))]);
        if (url.pathname === '/healthz') return { status: 418, headers: { 'content-type': 'text/plain' }, body: Buffer.from([0xde, 0xad, 0xbe, 0xef]) };
        return undefined;
      },
    };
    await withServer(conformingMarkets(3), routes, async (upstream) => {
      const spool = await createMarketSpool(path.join(work, 'pass-through.spool'));
      const proxy = await startRecordingProxy({ upstream: upstream.url, spool });
      try {
        for (const target of ['/markets', '/markets?page=2', '/markets/DEV-1', '/markets/DEV-2', '/markets/NOPE', '/healthz', '/elsewhere/deep?q=1']) {
          const direct = await rawRequest(`${upstream.url}${target}`, { headers: { 'accept-encoding': 'gzip' } });
          const proxied = await rawRequest(`${proxy.url}${target}`, { headers: { 'accept-encoding': 'gzip' } });
          expect(proxied.status, target).toBe(direct.status);
          expect(proxied.body.equals(direct.body), target).toBe(true);
          expect(endToEnd(proxied.rawHeaders), target).toEqual(endToEnd(direct.rawHeaders));
        }
        // A request body and method reach the upstream unchanged.
        await rawRequest(`${proxy.url}/orders`, { method: 'POST', body: '{"qty":3}', headers: { 'content-type': 'application/json', 'x-client': 'suite' } });
        const post = upstream.requests.find((r) => r.method === 'POST');
        expect(post).toMatchObject({ url: '/orders', headers: { 'x-client': 'suite', 'content-type': 'application/json' } });
        // The gzip body was decoded for the check; the oddly written list is valid and agrees with DEV-1.
        const report = proxy.report();
        expect(report.summary).toMatchObject({ errors: 0, warnings: 0, marketsListed: 2 });
        const kept: string[] = [];
        for await (const text of spool.texts(proxy.listedIds())) kept.push((JSON.parse(text) as RawMarket)['market_id'] as string);
        expect(kept).toEqual(['DEV-1', 'DEV-2']);
      } finally {
        await proxy.close();
        await spool.dispose();
      }
    });
  });

  it('answers 502 with a JSON body when the upstream is down, and counts every failure as an error finding', async () => {
    const port = await closedPort();
    const errors: string[] = [];
    const proxy = await startRecordingProxy({ upstream: `http://127.0.0.1:${port}`, onUpstreamError: (e) => errors.push(e.reason) });
    try {
      const answer = await rawRequest(`${proxy.url}/markets`);
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ status: 502, error: 'upstream_unreachable' });
      for (let k = 0; k < 4; k++) expect((await rawRequest(`${proxy.url}/markets/DEV-${k}`)).status).toBe(502);
      expect((await rawRequest(`${proxy.url}/healthz`)).status).toBe(502);
      expect(errors).toHaveLength(6);
      expect(errors[0]).toMatch(/ECONNREFUSED/);
      const report = proxy.report();
      expect(report).toMatchObject({ verdict: 'fail', summary: { errors: 3 } });
      expect(report.findings.filter((f) => f.code === 'request-failed').map((f) => `${f.endpoint} ${f.count}`).sort()).toEqual(['GET /markets 1', 'GET /markets/{market_id} 4', 'deployment 1']);
    } finally {
      await proxy.close();
    }
  });

  it('does not report a 404 for an id that was never listed (error behaviour is undocumented)', async () => {
    await withServer(conformingMarkets(2), undefined, async (upstream) => {
      const proxy = await startRecordingProxy({ upstream: upstream.url });
      try {
        await crawlLikeAClient(proxy.url);
        expect((await rawRequest(`${proxy.url}/markets/UNKNOWN`)).status).toBe(404);
        expect(proxy.report()).toMatchObject({ verdict: 'pass', summary: { errors: 0, warnings: 0, marketsListed: 2, marketsChecked: 3 } });
      } finally {
        await proxy.close();
      }
    });
  });
});
