// The same package from CommonJS in plain Node: require() answers with dist/index.cjs.
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { startMarketStub, MarketStubError } = require('market-stub');

test('require() loads the CommonJS build, which starts a stub and rejects bad options', async () => {
  assert.match(require.resolve('market-stub'), /dist[\\/]index\.cjs$/);
  const stub = await startMarketStub({ seed: 7, count: 2, clock: '2026-01-01' });
  try {
    await stub.setBehaviour({ status: 503 });
    assert.equal((await fetch(`${stub.url}/markets`)).status, 503);
    assert.equal(await stub.requestCount({ status: 503 }), 1);
  } finally {
    await stub.close();
  }
  await assert.rejects(startMarketStub({ clock: '2026-13-01' }), MarketStubError);
});
