// No false findings over time against a stub that lives (docs/contract-check.md, "Watching a
// deployment"; docs/lifecycle.md): a running clock moves prices by itself and, with the
// lifecycle, markets open, close, resolve and leave the list after the retention, silently. A
// watch of 50 rounds must call none of that a regression, a flap, a lag, a frozen market or
// prices after resolution. Each stub's clock starts at this machine's time.
import { describe, expect, it } from 'vitest';
import { startMarketStub, type Market, type MarketStub } from '../../src/index.js';
import { watchDeployment } from '../../src/contract/index.js';

const ROUNDS = 50;
const COUNT = 150;
/** This machine's time in whole seconds, as an RFC 3339 instant. */
const now = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();

/** A watch of every market (the list and each single market) for ROUNDS rounds; what it found over time, and what the list showed. */
async function watchLiving(stub: MarketStub): Promise<{ found: string[]; statuses: Set<string>; opened: number; left: number }> {
  const found: string[] = [];
  const statuses = new Set<string>();
  let [opened, left, before] = [0, 0, new Set<string>()];
  for await (const round of watchDeployment({ baseUrl: stub.url, all: true, intervalMs: 100, rounds: ROUNDS })) {
    expect(round.failure, `round ${round.round} ran`).toBeUndefined();
    found.push(...round.findings.map((f) => `${round.round} ${f.severity} ${f.code}: ${f.message}`));
    const listed = (await (await fetch(`${stub.url}/markets`)).json()) as Market[];
    const ids = new Set(listed.map((m) => m.market_id));
    for (const m of listed) statuses.add(m.status);
    if (round.round > 1) {
      opened += [...ids].filter((id) => !before.has(id)).length;
      left += [...before].filter((id) => !ids.has(id)).length;
    }
    before = ids;
  }
  return { found, statuses, opened, left };
}

describe.concurrent('a watch of a stub whose clock runs fast, with the lifecycle', () => {
  // 500,000 stub seconds a real second: a round of about 0.35 s spans two days of stub time, so 50
  // rounds see markets resolve and, a week later, leave the list, and others open.
  it.each(['generic', 'kalshi'] as const)('%s: statuses move, markets open and leave; the one finding over time is the Date a fast clock puts days ahead', async (lifecycle) => {
    const stub = await startMarketStub({ seed: 5, count: COUNT, clock: now(), clockRate: 500_000, lifecycle });
    try {
      const { found, statuses, opened, left } = await watchLiving(stub);
      expect([...statuses].filter((s) => s !== 'active').length, `statuses seen: ${[...statuses].join(', ')}`).toBeGreaterThan(0);
      expect(opened, 'markets opened under the watch').toBeGreaterThan(0);
      expect(left, 'markets left the list after the retention').toBeGreaterThan(0);
      // The stub's `Date` is its clock's, which runs 500,000 times faster than this machine's: a true
      // clock-skew, said once (a lasting condition), in the first round. Nothing else.
      expect(found.map((f) => f.replace(/:.*/, ''))).toEqual(['1 warning clock-skew']);
    } finally {
      await stub.close();
    }
  }, 90_000);

  it('on a clock that runs in real time (a price step a second), with the lifecycle: no finding at all', async () => {
    const stub = await startMarketStub({ seed: 5, count: COUNT, clock: now(), clockRate: 1, priceStep: 'PT1S', lifecycle: 'kalshi' });
    try {
      const { found } = await watchLiving(stub);
      expect(found).toEqual([]);
    } finally {
      await stub.close();
    }
  }, 90_000);
});
