// bench/bench-results.ts: the paired ratio the load verdicts use (pure, no servers).
import { describe, expect, it } from 'vitest';
import { computeFigures, medianOfRoundRatios } from '../../bench/bench-results.js';
import type { BenchResults, RoundSample } from '../../bench/bench-results.js';

const rounds = (pairs: [number, number | null][]) => new Map(pairs);

describe('medianOfRoundRatios', () => {
  it('pairs each round of the stub with the same round of the baseline, and takes the median', () => {
    expect(medianOfRoundRatios(rounds([[1, 2], [2, 3], [3, 8]]), rounds([[1, 1], [2, 2], [3, 2]]))).toBe(2);
    // An even count averages the two middle ratios.
    expect(medianOfRoundRatios(rounds([[1, 1], [2, 3]]), rounds([[1, 1], [2, 1]]))).toBe(2);
  });

  it('skips rounds without a value on either side, or with a zero baseline, and is null when none pair up', () => {
    expect(medianOfRoundRatios(rounds([[1, 4], [2, null], [3, 9]]), rounds([[1, 2], [2, 1], [4, 3]]))).toBe(2);
    expect(medianOfRoundRatios(rounds([[1, 4]]), rounds([[1, 0]]))).toBeNull();
    expect(medianOfRoundRatios(rounds([[1, 4]]), null)).toBeNull();
  });
});

describe('computeFigures: a machine that slows down between rounds', () => {
  // The baseline ran fast in rounds 1-3 and slow in 4-5; the stub slow in 2-5. Each round, the stub's
  // p99 was 1.2× the baseline's, but the medians come from different machine states: 3.0 ÷ 1.0.
  const p99 = { baseline: [1, 1, 1, 2.5, 2.5], stub: [1.2, 3, 3, 3, 3] };
  const sample = (round: number, p99Ms: number): RoundSample => ({
    round, reqPerSec: 1000, p50Ms: p99Ms / 2, p99Ms, meanMs: p99Ms / 2, requests: 1000, durationS: 1, errors: 0, non2xx: 0, timeouts: 0, cpuUsPerReq: 10, serverCpuPct: 99,
  } as unknown as RoundSample);
  const load = (values: number[]) => ({ rounds: values.map((v, i) => sample(i + 1, v)), median: { reqPerSec: 1000, p50Ms: 0, p99Ms: [...values].sort((a, b) => a - b)[2] as number, cpuUsPerReq: 10, serverCpuPct: 99 } });
  const results = {
    load: { market: { baseline: load(p99.baseline), 'stub-generated': load([1.2, 1.2, 1.2, 3, 3]), 'stub-fixtures': load(p99.stub), 'stub-quiet': load(p99.baseline) } },
    coldStart: {}, rssAfterLoad: {},
  } as unknown as Pick<BenchResults, 'load' | 'coldStart' | 'rssAfterLoad'>;

  it('judges the p99 goal on the paired ratio and still reports the ratio of medians', () => {
    const f = computeFigures(results).find((x) => x.id === 'market.p99Ms');
    const fixtures = f?.stubs['stub-fixtures'];
    expect(fixtures?.ratio).toBeCloseTo(3, 9);
    expect(fixtures?.pairedRatio).toBeCloseTo(1.2, 9);
    expect(fixtures?.goal).toEqual({ op: '<=', limit: 1.5, pass: true });
    // A stub that is slower in every round misses, whichever way it is measured.
    const slower = computeFigures({ ...results, load: { market: { ...results.load.market, 'stub-quiet': load(p99.baseline.map((v) => v * 1.6)) } } }).find((x) => x.id === 'market.p99Ms');
    expect(slower?.stubs['stub-quiet'].pairedRatio).toBeCloseTo(1.6, 9);
    expect(slower?.stubs['stub-quiet'].goal?.pass).toBe(false);
  });
});
