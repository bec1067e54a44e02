import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { FixtureError } from '../../src/file-system/load-fixtures.js';

// The per-file beforeAll/afterAll pattern from the README: several stubs on port 0, in parallel,
// with different seeds.
let stubs: MarketStub[] = [];
beforeAll(async () => {
  stubs = await Promise.all([1, 2, 3].map((seed) => startMarketStub({ seed, count: 20, clock: '2026-01-01' })));
});
afterAll(() => Promise.all(stubs.map((s) => s.close())));

describe('startMarketStub', () => {
  it('starts several stubs on distinct free ports with the address actually bound', () => {
    const ports = new Set(stubs.map((s) => s.port));
    expect(ports.size).toBe(3);
    for (const s of stubs) expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
  });

  it('serves each stub its own seeded catalog', async () => {
    const lists = await Promise.all(stubs.map(async (s) => (await fetch(`${s.url}/markets`)).text()));
    expect(new Set(lists).size).toBe(3);
    const again = await startMarketStub({ seed: 2, count: 20, clock: '2026-01-01' });
    try {
      expect(await (await fetch(`${again.url}/markets`)).text()).toBe(lists[1]);
    } finally {
      await again.close();
    }
  });

  it('serves markets given in code and rejects invalid ones before binding', async () => {
    const stub = await startMarketStub({ markets: [{ market_id: 'm1', title: 'Will it?', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' }] });
    try {
      expect(await (await fetch(`${stub.url}/markets/m1`)).json()).toMatchObject({ market_id: 'm1' });
    } finally {
      await stub.close();
    }
    await expect(startMarketStub({ markets: [{ market_id: 'm1', title: 'x', status: 'active', yes_price: '0.5', no_price: 0.5, resolution_date: '2027-01-01' }] })).rejects.toThrow(FixtureError);
  });

  it('close() is idempotent and awaits in-flight requests', async () => {
    const stub = await startMarketStub({ count: 5, behaviour: { delayMs: 200 } });
    const inflight = fetch(`${stub.url}/markets`).then((r) => r.status);
    await new Promise((r) => setTimeout(r, 50));
    const t = performance.now();
    await Promise.all([stub.close(), stub.close()]);
    expect(performance.now() - t).toBeGreaterThan(100);
    expect(await inflight).toBe(200);
    await stub.close();
    await expect(fetch(`${stub.url}/markets`)).rejects.toThrow();
  });

  it('leaks no handles after forty stubs are started and closed', async () => {
    const handles = () => process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap' && r !== 'Timeout').length;
    const before = handles();
    for (let round = 0; round < 4; round++) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, i) => startMarketStub({ seed: round * 10 + i, count: 10, clock: '2026-01-01' })));
      await Promise.all(batch.map(async (s) => {
        expect((await fetch(`${s.url}/markets`, { headers: { connection: 'close' } })).status).toBe(200);
      }));
      await Promise.all(batch.map((s) => s.close()));
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(handles()).toBeLessThanOrEqual(before);
  });
});
