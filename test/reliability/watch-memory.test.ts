// A watch's memory stays O(markets tracked) whatever the number of rounds: a 10,000-market stub,
// ticked every round, watched for 1,000 rounds (200 in --quick) at the shortest interval. The heap
// after a collection, measured after the first 20 rounds and after the last, may grow by at most
// WATCH_HEAP_GROWTH_BOUND (docs/limits.md); every round must run, and no finding over time but the
// two a ticking stub provokes by construction (below) may appear.
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect, it } from 'vitest';
import { startMarketStub } from '../../src/index.js';
import { watchDeployment } from '../../src/contract/index.js';
import { figure, QUICK } from './reliability-support.js';

const MARKETS = 10_000;
const ROUNDS = QUICK ? 200 : 1_000;
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
  const stub = await startMarketStub({ seed: 11, count: MARKETS });
  try {
    let early = 0;
    let last = 0;
    let tracked = 0;
    const overTime: string[] = [];
    const started = performance.now();
    for await (const round of watchDeployment({ baseUrl: stub.url, intervalMs: 100, rounds: ROUNDS, maxMarkets: 20, timeoutMs: 120_000 })) {
      expect(round.failure, `round ${round.round}`).toBeUndefined();
      overTime.push(...round.findings.filter((f) => f.severity !== 'info').map((f) => `${round.round} ${f.code}`));
      tracked = round.marketsTracked;
      await stub.tick();
      if (round.round === 20) early = heap();
      last = round.round;
    }
    const growth = heap() - early;
    figure('watch memory', `${MARKETS} markets, ${last} rounds in ${Math.round((performance.now() - started) / 1000)} s: heap grew ${(growth / 1048576).toFixed(1)} MiB from round 20 to round ${last} (bound ${WATCH_HEAP_GROWTH_BOUND / 1048576} MiB)`);
    expect(last).toBe(ROUNDS);
    expect(tracked).toBe(MARKETS);
    // Two findings a stub ticked every round provokes by construction, left out here (this test
    // bounds memory): clock-skew (each tick moves the stub's Date a price step ahead of this
    // machine's clock) and prices-frozen for the few of 10,000 markets whose walk drew ten 0-cent
    // steps in a row (the walk's steps are −1, 0 or +1 cent: a known false positive of the
    // K-round rule, docs/contract-check.md). Every other finding over time fails it.
    expect(overTime.filter((f) => !/ (clock-skew|prices-frozen)$/.test(f))).toEqual([]);
    expect(growth).toBeLessThan(WATCH_HEAP_GROWTH_BOUND);
  } finally {
    await stub.close();
  }
});
