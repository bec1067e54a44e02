import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { startMarketStub } from 'market-stub';

let stub;
before(async () => {
  stub = await startMarketStub({ seed: 7, count: 5, clock: '2026-01-01' });
});
after(() => stub.close());
afterEach(() => stub.reset());

test('serves the list and each market', async () => {
  const list = await fetch(`${stub.url}/markets`);
  assert.equal(list.status, 200);
  const markets = await list.json();
  assert.equal(markets.length, 5);

  const one = await fetch(`${stub.url}/markets/${encodeURIComponent(markets[0].market_id)}`);
  assert.equal(one.status, 200);
  assert.equal((await one.json()).market_id, markets[0].market_id);
});

test('a 503 on the item route is answered and journaled', async () => {
  await stub.clearRequests();
  await stub.addRule({ match: { route: 'item' }, behaviour: { status: 503 } });

  const markets = await (await fetch(`${stub.url}/markets`)).json();
  const id = markets[0].market_id;
  assert.equal((await fetch(`${stub.url}/markets/${encodeURIComponent(id)}`)).status, 503);

  const failed = await stub.requests({ status: 503 });
  assert.deepEqual(failed.map((entry) => [entry.path, entry.status]), [[`/markets/${id}`, 503]]);
  assert.equal(await stub.requestCount({ path: '/markets' }), 1);
});
