// A watch's memory stays O(markets tracked) whatever the number of rounds: a 10,000-market stub
// whose clock runs in real time from this machine's time (one price step a second, so prices move
// by themselves and the `Date` keeps this machine's time), watched for 1,000 rounds (100 in
// --quick, about 3 minutes) at the shortest interval. The heap after a collection, measured after
// the first 20 rounds and after the last, may grow by at most WATCH_HEAP_GROWTH_BOUND
// (docs/limits.md); every round must run, and no finding over time may appear: the stub serves no
// deviation, so any would be a false one.
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect, it } from 'vitest';
import { startMarketStub } from '../../src/index.js';
import { watchDeployment } from '../../src/contract/index.js';
import { figure, QUICK } from './reliability-support.js';

const MARKETS = 10_000;
const ROUNDS = QUICK ? 100 : 1_000;
/** The documented bound (docs/limits.md, "Watching a deployment"): heap growth from round 20 to the last. */
const WATCH_HEAP_GROWTH_BOUND = 16 * 1024 * 1024;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

it(`watches ${MARKETS} markets for ${ROUNDS} rounds in bounded memory`, async () => {
  const clock = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
  const stub = await startMarketStub({ seed: 11, count: MARKETS, clock, clockRate: 1, priceStep: 'PT1S' });
  try {
    let early = 0;
    let last = 0;
    let tracked = 0;
    const overTime: string[] = [];
    const started = performance.now();
    for await (const round of watchDeployment({ baseUrl: stub.url, intervalMs: 100, rounds: ROUNDS, maxMarkets: 20, timeoutMs: 120_000 })) {
      expect(round.failure, `round ${round.round}`).toBeUndefined();
      overTime.push(...round.findings.map((f) => `${round.round} ${f.code}: ${f.message}`));
      tracked = round.marketsTracked;
      if (round.round === 20) early = heap();
      last = round.round;
    }
    const growth = heap() - early;
    figure('watch memory', `${MARKETS} markets, ${last} rounds in ${Math.round((performance.now() - started) / 1000)} s: heap grew ${(growth / 1048576).toFixed(1)} MiB from round 20 to round ${last} (bound ${WATCH_HEAP_GROWTH_BOUND / 1048576} MiB), ${overTime.length} findings over time`);
    expect(last).toBe(ROUNDS);
    expect(tracked).toBe(MARKETS);
    expect(overTime).toEqual([]);
    expect(growth).toBeLessThan(WATCH_HEAP_GROWTH_BOUND);
  } finally {
    await stub.close();
  }
});
