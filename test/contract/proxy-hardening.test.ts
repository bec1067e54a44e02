// The recording proxy under real conditions: in-flight exchanges finish on
// SIGTERM, a big slow body never holds up another client, an undecodable list and an oversized
// body are errors (the client still gets every byte), and the report is written even when
// --record cannot be.
import { spawn } from 'node:child_process';
import { request, type ServerResponse } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { startRecordingProxy } from '../../src/proxy/recording-proxy.js';
import { CLI } from '../support/cli-process.js';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer } from './deviant-server.js';
import { findingOf, problemKeys } from './contract-report-helpers.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-proxy-hardening-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** GET through the proxy; resolves status and the body length (or the socket error's code). */
function get(url: string): Promise<{ status: number; bytes: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end();
  });
}

/** Spawns `market-stub proxy`; resolves its URL and a stop() that sends SIGTERM. */
async function proxyProcess(args: string[]): Promise<{ url: string; stop(): Promise<{ code: number | null; stdout: string; stderr: string }> }> {
  const child = spawn(process.execPath, [CLI, 'proxy', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await expect.poll(() => /listening on (http:\/\/\S+)/.exec(stdout)?.[1], { timeout: 10_000 }).toBeTruthy();
  return {
    url: /listening on (http:\/\/\S+)/.exec(stdout)?.[1] as string,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      return { code, stdout, stderr };
    },
  };
}

describe('proxy hardening', () => {
  it('finishes the 50 exchanges in flight on SIGTERM (within --grace-ms), then writes its report', async () => {
    await withServer(conformingMarkets(50), { single: (id) => ({ ...json(conformingMarkets(50).find((m) => m['market_id'] === id)), delayMs: 700 }) }, async (upstream) => {
      const reportFile = path.join(work, 'sigterm-report.json');
      const proxy = await proxyProcess(['--upstream', upstream.url, '--report', reportFile, '--format', 'json', '--grace-ms', '5000']);
      const clients = Array.from({ length: 50 }, (_, i) => get(`${proxy.url}/markets/DEV-${i + 1}`));
      await expect.poll(() => upstream.requests.length, { timeout: 5_000 }).toBe(50);
      const stopped = proxy.stop();
      const answers = await Promise.all(clients);
      expect(answers.filter((a) => 'error' in a)).toEqual([]);
      expect(answers.every((a) => 'status' in a && a.status === 200 && a.bytes > 100)).toBe(true);
      expect((await stopped).code).toBe(0);
      const report = JSON.parse(await readFile(reportFile, 'utf8')) as ContractReport;
      expect(report.summary.marketsChecked).toBe(50);
    });
  });

  it('never holds up a small exchange behind another client\'s big, slow, compressed body', async () => {
    const list = gzipSync(JSON.stringify(conformingMarkets(40_000).map(summaryOf)));
    const slowBig = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      let at = 0;
      const step = Math.ceil(list.length / 10);
      const timer = setInterval(() => {
        res.write(list.subarray(at, at + step));
        at += step;
        if (at >= list.length) {
          clearInterval(timer);
          res.end();
        }
      }, 80);
    };
    await withServer(conformingMarkets(3), { list: () => ({ stream: slowBig }) }, async (upstream) => {
      const proxy = await startRecordingProxy({ upstream: upstream.url });
      try {
        const order: string[] = [];
        const big = get(`${proxy.url}/markets`).then(() => order.push('big list'));
        await new Promise((r) => setTimeout(r, 150));
        const small = get(`${proxy.url}/markets/DEV-2`).then(() => order.push('small market'));
        await Promise.all([big, small]);
        expect(order).toEqual(['small market', 'big list']);
        await expect.poll(() => proxy.report().summary.marketsListed, { timeout: 5_000 }).toBe(40_000);
      } finally {
        await proxy.close();
      }
    });
  });

  it('reports an undecodable list and an oversized market as errors, and still passes every byte on', async () => {
    const notGzip = Buffer.from(JSON.stringify(conformingMarkets(3).map(summaryOf)));
    const huge = JSON.stringify({ ...conformingMarket(2), notes: 'x'.repeat(1_200_000) });
    await withServer(conformingMarkets(3), {
      list: () => ({ status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: notGzip }),
      single: (id) => (id === 'DEV-2' ? json(JSON.parse(huge)) : undefined),
    }, async (upstream) => {
      const proxy = await startRecordingProxy({ upstream: upstream.url, maxBodyMb: 1 });
      try {
        expect(await get(`${proxy.url}/markets`)).toEqual({ status: 200, bytes: notGzip.length });
        expect(await get(`${proxy.url}/markets/DEV-2`)).toEqual({ status: 200, bytes: Buffer.byteLength(huge) });
        await expect.poll(() => proxy.report().summary.errors, { timeout: 5_000 }).toBe(2);
        const report = proxy.report();
        expect(report.verdict).toBe('fail');
        expect(problemKeys(report)).toEqual(['error undecodable-body GET /markets ', 'error body-too-large GET /markets/{market_id} '].sort());
        expect(findingOf(report, 'undecodable-body').found).toBe('the gzip body could not be decoded: incorrect header check (Z_DATA_ERROR)');
        expect(findingOf(report, 'body-too-large').found).toMatch(/larger than the limit of 1 MiB/);
      } finally {
        await proxy.close();
      }
    });
  });

  it('writes its report (and exits 2) when --record cannot be written', async () => {
    await withServer(conformingMarkets(3), undefined, async (upstream) => {
      const reportFile = path.join(work, 'record-fails-report.json');
      const recordDir = path.join(work, 'record-fails');
      const proxy = await proxyProcess(['--upstream', upstream.url, '--report', reportFile, '--format', 'json', '--record', recordDir]);
      await get(`${proxy.url}/markets`);
      for (const id of ['DEV-1', 'DEV-2', 'DEV-3']) await get(`${proxy.url}/markets/${id}`);
      // Something removes the staging area under the proxy's feet (a cleaner, a full disk).
      const staging = (await readdir(work)).filter((name) => name.startsWith('.record-fails.staging-'));
      expect(staging).toHaveLength(1);
      await rm(path.join(work, staging[0] as string), { recursive: true, force: true });
      const stopped = await proxy.stop();
      expect(stopped.code).toBe(2);
      expect(stopped.stdout).toMatch(/cannot write the fixture set .*record-fails: a directory on the path does not exist \(ENOENT\)/);
      const report = JSON.parse(await readFile(reportFile, 'utf8')) as ContractReport;
      expect(report).toMatchObject({ command: 'proxy', verdict: 'pass', summary: { marketsChecked: 3 } });
    });
  });
});
