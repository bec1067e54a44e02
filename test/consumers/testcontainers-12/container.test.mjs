// market-stub/testcontainers on the testcontainers major this folder installs (12 here, 11 in
// ../testcontainers-11): the image built from docker/Dockerfile, started through the module,
// answered over HTTP and controlled through the same client as an in-process stub. Needs a container
// engine (DOCKER_HOST) and MARKET_STUB_IMAGE: .ci/container-test.sh builds the image and runs this.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { MarketStubContainer } from 'market-stub/testcontainers';

const readJson = (file) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));

test('the installed testcontainers is the major this consumer names', () => {
  const wanted = readJson('./package.json').devDependencies.testcontainers;
  const installed = readJson('./node_modules/testcontainers/package.json').version;
  assert.equal(installed.split('.')[0], wanted.split('.')[0], `package.json asks for testcontainers ${wanted}, node_modules has ${installed}`);
});

test('MarketStubContainer starts the image, serves the seeded markets and takes a behaviour', { timeout: 120_000 }, async () => {
  const image = process.env.MARKET_STUB_IMAGE;
  assert.ok(image, 'MARKET_STUB_IMAGE must name the image built from docker/Dockerfile (e.g. localhost/market-stub:ci)');
  const stub = await new MarketStubContainer(image).withSeed(7).withCount(5).withClock('2026-01-01').withAdminToken('consumer-t0ken').start();
  try {
    const list = await fetch(`${stub.url}/markets`);
    assert.equal(list.status, 200);
    const markets = await list.json();
    assert.equal(markets.length, 5);
    const item = await fetch(`${stub.url}/markets/${encodeURIComponent(markets[0].market_id)}`);
    assert.deepEqual(await item.json(), (await stub.client().catalog())[0]);
    await stub.client().setBehaviour({ status: 503, retryAfter: 2 });
    const failing = await fetch(`${stub.url}/markets`);
    assert.equal(failing.status, 503);
    assert.equal(failing.headers.get('retry-after'), '2');
    assert.equal(await stub.client().requestCount({ status: 503 }), 1);
  } finally {
    await stub.stop();
  }
});
