// The watch twin of deviation-proof.test.ts: for every deviation of the catalogue that declares
// what a watch sees (`watch`), watchDeployment against a stub serving it, ticked once between
// rounds, reports exactly the declared findings over time within the declared rounds, naming the
// affected markets; with no deviation, rounds of a ticking stub end with no finding over time.
// The stubs' clock starts at this machine's time, in whole seconds (a Date hours from the
// checker's clock is clock-skew), with a step of one second; the last block proves the same on a
// clock that runs in real time, with no tick at all.
import { describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { watchDeployment, type WatchFinding } from '../../src/contract/index.js';
import { DEVIATIONS } from '../../src/deviation/deviation-catalogue.js';
import type { Deviation } from '../../src/deviation/deviation-definition.js';
import { WATCH_RULES } from '../../src/floor/watch-finding-codes.js';

const SEED = 5;
const COUNT = 12;
const AFFECTED = [2, 7];
/** This machine's time in whole seconds, as an RFC 3339 instant: where each stub's clock starts. */
const now = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();

async function stubServing(deviation: Deviation | undefined, clockRate = 0): Promise<{ stub: MarketStub; affected: string[] }> {
  const plain = await startMarketStub({ seed: SEED, count: COUNT });
  const ids = (await plain.catalog()).map((m) => m.market_id);
  await plain.close();
  const affected = deviation?.scope === 'market' ? AFFECTED.map((k) => ids[k] as string) : [];
  const setting = deviation === undefined ? [] : [deviation.scope === 'market' ? { name: deviation.name, marketIds: affected } : { name: deviation.name }];
  return { stub: await startMarketStub({ seed: SEED, count: COUNT, clock: now(), clockRate, priceStep: 'PT1S', deviations: setting }), affected };
}

/** Rounds of a watch, the stub ticked once after each; every finding over time with its round. */
async function watchTicking(stub: MarketStub, rounds: number): Promise<Array<WatchFinding & { round: number }>> {
  const seen: Array<WatchFinding & { round: number }> = [];
  for await (const round of watchDeployment({ baseUrl: stub.url, all: true, intervalMs: 100, rounds })) {
    expect(round.failure, `round ${round.round} ran`).toBeUndefined();
    seen.push(...round.findings.map((f) => ({ ...f, round: round.round })));
    await stub.tick();
  }
  return seen;
}

describe('a watch of the stub serving no deviation, ticked between rounds', () => {
  it(`ends ${WATCH_RULES.frozenRounds + 3} rounds with no finding over time`, async () => {
    const { stub } = await stubServing(undefined);
    try {
      expect(await watchTicking(stub, WATCH_RULES.frozenRounds + 3)).toEqual([]);
    } finally {
      await stub.close();
    }
  });
});

describe('a watch of the stub serving no deviation, never ticked', () => {
  it('says once, as information, that no price moves', async () => {
    const { stub } = await stubServing(undefined);
    try {
      const seen: Array<WatchFinding & { round: number }> = [];
      for await (const round of watchDeployment({ baseUrl: stub.url, all: true, intervalMs: 100, rounds: WATCH_RULES.frozenRounds + 4 })) seen.push(...round.findings.map((f) => ({ ...f, round: round.round })));
      expect(seen.map((f) => [f.round, f.severity, f.code])).toEqual([[WATCH_RULES.frozenRounds + 1, 'info', 'prices-static']]);
      expect(seen[0]?.message).toContain(`no listed price moved in the last ${WATCH_RULES.frozenRounds} rounds (${COUNT} active markets)`);
    } finally {
      await stub.close();
    }
  });
});

const WATCHED = DEVIATIONS.filter((d) => d.watch !== undefined);

describe.concurrent('a watch of a stub serving each deviation that declares what a watch sees', () => {
  it('covers the deviations the issue names', () => {
    expect(WATCHED.map((d) => d.name)).toEqual(expect.arrayContaining(['stale-prices', 'status-regression', 'prices-after-resolution', 'item-flapping', 'clock-skew', 'stale-etag', 'list-lags-items']));
  });

  it.each(WATCHED.map((d) => [d.name, d] as const))('%s', async (_name, deviation) => {
    const declared = deviation.watch ?? { findings: [], rounds: 0 };
    const { stub, affected } = await stubServing(deviation);
    try {
      const seen = await watchTicking(stub, declared.rounds);
      const problems = seen.filter((f) => f.severity !== 'info');
      expect([...new Set(problems.map((f) => f.code))].sort(), 'the findings over time').toEqual([...declared.findings].sort());
      expect(Math.max(...problems.map((f) => f.round)), 'found within the declared rounds').toBeLessThanOrEqual(declared.rounds);
      for (const finding of problems) {
        expect(finding.examples.every((e) => e.seen.length >= 1 && e.seen.every((s) => s.round >= 1 && s.at !== undefined && s.value !== '')), 'evidence: rounds, instants, values').toBe(true);
      }
      // A market deviation: each code names exactly the affected markets, over the rounds (each may show in its own round).
      for (const code of deviation.scope === 'market' ? declared.findings : []) {
        const named = problems.filter((f) => f.code === code).flatMap((f) => f.examples.map((e) => e.marketId));
        expect([...new Set(named)].sort(), `${code} names the affected markets`).toEqual([...affected].sort());
      }
    } finally {
      await stub.close();
    }
  });
});

describe.concurrent('a watch of a stub whose clock runs in real time (one price step a second), never ticked', () => {
  // The run prices-frozen needs is learnt from the rounds (contract/watch/still-odds.ts): here from
  // rounds that see one or two steps at this machine's pace, not one tick each, so it varies from
  // run to run (about 17 to 20 unchanged rounds): 8 rounds more than stale-prices declares for ticks.
  const rounds = (DEVIATIONS.find((d) => d.name === 'stale-prices')?.watch?.rounds ?? 0) + 8;
  const watchRunning = async (deviation: Deviation | undefined) => {
    const { stub, affected } = await stubServing(deviation, 1);
    try {
      const seen: Array<WatchFinding & { round: number }> = [];
      // Rounds 1.2 s apart: every round sees at least one step of the walk.
      for await (const round of watchDeployment({ baseUrl: stub.url, all: true, intervalMs: 1200, rounds })) {
        expect(round.failure, `round ${round.round} ran`).toBeUndefined();
        seen.push(...round.findings.map((f) => ({ ...f, round: round.round })));
      }
      return { seen, affected };
    } finally {
      await stub.close();
    }
  };

  it('serving no deviation: prices move by themselves, the Date keeps time, no finding over time', async () => {
    const { seen } = await watchRunning(undefined);
    expect(seen.map((f) => [f.round, f.code])).toEqual([]);
  }, 90_000);

  it('serving stale-prices: prices-frozen names exactly the stale markets', async () => {
    const deviation = DEVIATIONS.find((d) => d.name === 'stale-prices');
    const { seen, affected } = await watchRunning(deviation);
    const problems = seen.filter((f) => f.severity !== 'info');
    expect(problems.map((f) => f.code)).toEqual(['prices-frozen']);
    expect(problems[0]?.examples.map((e) => e.marketId).sort()).toEqual([...affected].sort());
  }, 90_000);
});
