// The lifecycle's cost (docs/lifecycle.md), as same-run ratios against the same stub with the
// lifecycle off: a page of the list and a single market read at a new step of the clock (each
// round advances the clock one price step, so every read builds the step's view), and the clock
// moved by a year. Built package, in process (createFetchHandler: the core without sockets).
// Usage: npm run build && node bench/lifecycle-bench.mjs [count=250000] [rounds=400]
/* global Request -- Node 20's fetch Request (the handler takes one) */
import { createFetchHandler } from '../dist/fetch.js';

const count = Number(process.argv[2] ?? 250_000);
const rounds = Number(process.argv[3] ?? 400);
const options = { seed: 7, count, clock: '2026-01-01', profile: { paging: 'offset', pageSize: 100 } };
const stubs = { off: createFetchHandler({ ...options, lifecycle: 'off' }), kalshi: createFetchHandler({ ...options, lifecycle: 'kalshi' }) };
const get = async (stub, path) => {
  const res = await stub.fetch(new Request(`http://bench.test${path}`));
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
};

// The first list read of a lifecycle stub builds its index (once); timed apart.
const first = performance.now();
await get(stubs.kalshi, '/markets?limit=1');
const indexMs = performance.now() - first;
await get(stubs.off, '/markets?limit=1');
// Ids spread over the catalog (both stubs answer every one: kalshi from `initialized`).
const itemIds = await Promise.all(Array.from({ length: 50 }, async (_, k) => {
  const res = await stubs.off.fetch(new Request(`http://bench.test/markets?limit=1&offset=${Math.floor((k * count) / 50)}`));
  return (await res.json())[0].market_id;
}));

/** Median ms of `read` after a one-step clock move, alternating the two stubs round by round. */
async function perRound(read) {
  const times = { off: [], kalshi: [] };
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 === 0 ? ['off', 'kalshi'] : ['kalshi', 'off']) {
      const stub = stubs[name];
      await stub.setClock({ advance: 'PT1M' });
      const t = performance.now();
      await read(stub, r);
      times[name].push(performance.now() - t);
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { off: median(times.off), kalshi: median(times.kalshi) };
}

const page = await perRound((stub, r) => get(stub, `/markets?limit=100&offset=${(r * 7919) % 100_000}`));
const item = await perRound((stub, r) => get(stub, `/markets/${encodeURIComponent(itemIds[r % itemIds.length])}`));
const year = { off: 0, kalshi: 0 };
for (const name of ['off', 'kalshi']) {
  const t = performance.now();
  await stubs[name].setClock({ advance: 'P1Y' });
  year[name] = performance.now() - t;
}
const ratio = (x) => (x.kalshi / x.off).toFixed(2);
console.log(JSON.stringify({
  count, rounds, indexBuildMs: Math.round(indexMs),
  pageAtNewStepMs: page, pageRatio: ratio(page),
  itemAtNewStepMs: item, itemRatio: ratio(item),
  advanceYearMs: year,
}, null, 2));
