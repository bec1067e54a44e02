// Memory follows the documented limits, not the load: the journal's resident memory stays within a
// small multiple of --journal-bytes whatever --journal-size is; check's stays bounded against a
// deployment whose single-market answers never end (--max-market-bytes, 64 MiB in flight at most).
// Runs the built CLI; RSS from /proc.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon, { type AutocannonResult } from 'autocannon';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { CLI, startServeProcess } from '../support/cli-process.js';
import { figure, QUICK, rssOf } from './reliability-support.js';

const MiB = 2 ** 20;
const mb = (bytes: number) => (bytes / MiB).toFixed(0);

describe('journal memory', () => {
  // 100,000 slots and 8 KB of headers per request: before each slot let go of its buffer when its
  // entry was dropped, RSS grew by 16 KiB per request (1.7 GiB at 100,000 requests).
  const REQUESTS = QUICK ? 20_000 : 100_000;
  const JOURNAL_BYTES = 4 * MiB;

  it(`--journal-size 100000 --journal-bytes 4 MiB: ${REQUESTS} requests with 8 KB of headers grow RSS by less than 16 × --journal-bytes`, async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '20', '--quiet', '--journal-size', '100000', '--journal-bytes', String(JOURNAL_BYTES)], { env: { MARKET_STUB_CLOCK: '2026-01-01' } });
    try {
      const pid = stub.child.pid ?? 0;
      await (await fetch(`${stub.url}/healthz`)).arrayBuffer();
      const before = rssOf(pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 200);
      // Just under the 8 KiB of header names and values an entry keeps (MAX_ENTRY_HEADER_BYTES), so every entry keeps them.
      const headers = { 'x-padding': 'p'.repeat(7_900) };
      const result = await new Promise<AutocannonResult>((resolve, reject) => {
        autocannon({ url: stub.url, connections: 10, amount: REQUESTS, requests: [{ path: '/healthz', headers }] }, (error, r) => (error ? reject(error) : resolve(r)));
      });
      clearInterval(sampler);
      peak = Math.max(peak, rssOf(pid));
      const journal = (await (await fetch(`${stub.url}/__stub/requests?limit=0`)).json()) as { total: number; size: number; bytes: number; maxBytes: number };
      figure('journal memory', `${result['2xx']} requests with 8 KB headers, --journal-size 100000 --journal-bytes ${mb(JOURNAL_BYTES)} MiB: journal ${journal.size} entries / ${mb(journal.bytes)} MiB; RSS ${mb(before)} → peak ${mb(peak)} MiB (+${mb(peak - before)})`);
      expect(result.errors).toBe(0);
      expect(result['2xx']).toBe(REQUESTS);
      expect(journal.total).toBeGreaterThanOrEqual(REQUESTS);
      expect(journal.bytes).toBeLessThanOrEqual(JOURNAL_BYTES);
      expect(journal.size).toBeLessThan(1_000);
      expect(peak - before).toBeLessThan(16 * JOURNAL_BYTES);
    } finally {
      await stub.stop();
    }
  }, 180_000);
});

/** A deployment of `count` listed markets whose single-market answers never end (a JSON string that keeps growing), until the client goes. */
async function endlessDeployment(count: number): Promise<{ url: string; server: Server }> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const markets = Array.from({ length: count }, (_, i) => ({ market_id: `M${i}`, title: `Market ${i}?`, status: 'active', yes_price: 0.5, no_price: 0.5 }));
  const server = createServer((req, res) => {
    if (req.url === '/markets') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(markets));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"market_id":"');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Runs `market-stub check` as a process; resolves with its exit code, stdout and peak RSS (VmHWM, sampled until it exits). */
function checkProcess(args: readonly string[]): Promise<{ code: number | null; stdout: string; peak: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'check', ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let peak = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid ?? 0}/status`, 'utf8'));
        peak = Math.max(peak, Number(m?.[1] ?? 0) * 1024);
      } catch {
        // Gone: the last sample stands.
      }
    };
    const sampler = setInterval(sample, 50);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`check did not finish within 120 s`));
    }, 120_000);
    child.on('exit', () => sample());
    child.on('close', (code) => {
      clearInterval(sampler);
      clearTimeout(timer);
      resolve({ code, stdout, peak });
    });
  });
}

describe('check memory', () => {
  it.each([8, 32, 256])('against single-market answers that never end, --concurrency %i: the first to pass --max-market-bytes (8 MiB) stops the run (exit 2, could-not-run naming the flag), peak RSS bounded', async (concurrency) => {
    const deployment = await endlessDeployment(40);
    try {
      const run = await checkProcess(['--base-url', deployment.url, '--all', '--concurrency', String(concurrency), '--format', 'json']);
      const report = JSON.parse(run.stdout) as ContractReport;
      figure('check memory', `40 endless single-market answers, --concurrency ${concurrency}, default --max-market-bytes (8 MiB): exit ${run.code}, peak RSS ${mb(run.peak)} MiB`);
      expect(run.code).toBe(2);
      expect(report.findings.map((f) => f.code)).toEqual(['could-not-run']);
      expect(report.findings[0]?.found).toContain('the single-market body is larger than the limit of 8 MiB (8,388,608 bytes) (--max-market-bytes; decompressed bytes count); read no further: a limit of the checker (--max-market-bytes 8388608)');
      expect(run.peak).toBeLessThan(256 * MiB);
    } finally {
      deployment.server.closeAllConnections();
      deployment.server.close();
    }
  }, 150_000);

  it('--max-market-bytes 16 MiB with --concurrency 32: 4 single markets in flight (64 MiB), the first past it stops the run, peak RSS bounded', async () => {
    const deployment = await endlessDeployment(12);
    try {
      const run = await checkProcess(['--base-url', deployment.url, '--all', '--concurrency', '32', '--max-market-bytes', String(16 * MiB), '--format', 'json']);
      const report = JSON.parse(run.stdout) as ContractReport;
      figure('check memory (budget)', `12 endless single-market answers, --concurrency 32 --max-market-bytes 16 MiB: exit ${run.code}, peak RSS ${mb(run.peak)} MiB`);
      expect(run.code).toBe(2);
      expect(report.findings[0]?.found).toContain(`(--max-market-bytes ${16 * MiB})`);
      expect(run.peak).toBeLessThan(768 * MiB);
    } finally {
      deployment.server.closeAllConnections();
      deployment.server.close();
    }
  }, 150_000);
});
