import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals';
import { startMarketStub } from 'market-stub';

let stub;
beforeAll(async () => {
  stub = await startMarketStub({ seed: 7, count: 5, clock: '2026-01-01' });
});
afterAll(() => stub.close());
afterEach(() => stub.reset());

test('serves the list and each market', async () => {
  const list = await fetch(`${stub.url}/markets`);
  expect(list.status).toBe(200);
  const markets = await list.json();
  expect(markets).toHaveLength(5);

  const one = await fetch(`${stub.url}/markets/${encodeURIComponent(markets[0].market_id)}`);
  expect(one.status).toBe(200);
  expect(await one.json()).toMatchObject({ market_id: markets[0].market_id });
});

test('a 503 on the item route is answered and journaled', async () => {
  await stub.clearRequests();
  await stub.addRule({ match: { route: 'item' }, behaviour: { status: 503 } });

  const markets = await (await fetch(`${stub.url}/markets`)).json();
  const id = markets[0].market_id;
  expect((await fetch(`${stub.url}/markets/${encodeURIComponent(id)}`)).status).toBe(503);

  expect(await stub.requests({ status: 503 })).toEqual([expect.objectContaining({ path: `/markets/${id}`, status: 503 })]);
  expect(await stub.requestCount({ path: '/markets' })).toBe(1);
});

test('is the ESM build', async () => {
  // Jest 29 gives test modules no import.meta.resolve; Jest 30 does. On both, a CommonJS file
  // imported from ESM shows its module.exports as a `default` export, which the ESM build has not.
  if (typeof import.meta.resolve === 'function') expect(import.meta.resolve('market-stub')).toMatch(/dist\/index\.js$/);
  const namespace = await import('market-stub');
  expect(Object.keys(namespace)).not.toContain('default');
  expect(namespace.startMarketStub).toBe(startMarketStub);
});
