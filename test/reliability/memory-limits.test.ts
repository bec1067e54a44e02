// Memory follows the documented limits, not the load: the journal's resident memory stays within a
// small multiple of --journal-bytes whatever --journal-size is. Runs the built CLI; RSS from /proc.
import autocannon, { type AutocannonResult } from 'autocannon';
import { describe, expect, it } from 'vitest';
import { startServeProcess } from '../support/cli-process.js';
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
