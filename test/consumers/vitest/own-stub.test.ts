import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMarketStub, type MarketStub } from 'market-stub';

// A stub of this file's own, controlled through its handle.
let stub: MarketStub;
beforeAll(async () => {
  stub = await startMarketStub({ seed: 1, count: 3, clock: '2026-01-01' });
});
afterAll(() => stub.close());

test('reads both endpoints, then answers 503 and journals it', async () => {
  const markets = (await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[];
  expect(markets).toHaveLength(3);
  const id = markets[0]!.market_id;
  expect((await fetch(`${stub.url}/markets/${encodeURIComponent(id)}`)).status).toBe(200);

  await stub.setBehaviour({ status: 503 });
  expect((await fetch(`${stub.url}/markets`)).status).toBe(503);

  const listRequests = await stub.requests({ path: '/markets' });
  expect(listRequests.map((entry) => entry.status)).toEqual([200, 503]);
  expect(await stub.requestCount({ status: 503 })).toBe(1);
});
