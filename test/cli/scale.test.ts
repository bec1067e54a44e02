import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateMarket } from '../../src/index.js';
import { startServeProcess } from '../support/cli-process.js';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

describe('serve --count 10000000 (markets generated on demand)', () => {
  it('answers any market, pages in O(page) and streams the list with flat memory', async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '10000000', '--seed', '1', '--clock', '2026-01-01', '--quiet', '--paging', 'none']);
    const pid = stub.child.pid ?? 0;
    try {
      for (const k of [0, 4_321_987, 9_999_999]) {
        const expected = generateMarket(k, { seed: 1, clock: '2026-01-01' });
        const res = await fetch(`${stub.url}/markets/${expected.market_id}`);
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(JSON.stringify(expected));
      }
      expect((await fetch(`${stub.url}/markets/${generateMarket(5, { seed: 1, clock: '2026-01-01' }).market_id.replace(/-6$/, '-7')}`)).status).toBe(404);
      expect(rssMb(pid)).toBeLessThan(200);
      // Read 5 MB of the streamed list (about 40,000 markets), then hang up.
      const res = await fetch(`${stub.url}/markets`);
      const reader = res.body?.getReader();
      let bytes = 0;
      let head = '';
      while (bytes < 5_000_000) {
        const { done, value } = (await reader?.read()) ?? { done: true, value: undefined };
        if (done) break;
        if (head.length < 200) head += Buffer.from(value).toString();
        bytes += value.length;
      }
      await reader?.cancel();
      expect(head.startsWith(`[{"market_id":${JSON.stringify(generateMarket(0, { seed: 1, clock: '2026-01-01' }).market_id)},`)).toBe(true);
      expect(bytes).toBeGreaterThanOrEqual(5_000_000);
      expect(rssMb(pid)).toBeLessThan(200);
    } finally {
      await stub.stop();
    }
  }, 60_000);

  it('pages through a paged profile at any offset', async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '10000000', '--seed', '1', '--clock', '2026-01-01', '--quiet', '--paging', 'offset', '--envelope', 'markets', '--page-size', '3']);
    try {
      const page = (await (await fetch(`${stub.url}/markets?offset=9999998`)).json()) as { markets: { market_id: string }[]; total: number; next: string | null };
      expect(page.total).toBe(10_000_000);
      expect(page.markets.map((m) => m.market_id)).toEqual([9_999_998, 9_999_999].map((k) => generateMarket(k, { seed: 1, clock: '2026-01-01' }).market_id));
      expect(page.next).toBeNull();
    } finally {
      await stub.stop();
    }
  }, 60_000);
});
