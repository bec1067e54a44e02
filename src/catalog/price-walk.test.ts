import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walkedCents, walkKey } from './price-walk.js';

const key = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const cents = fc.integer({ min: 1, max: 99 });
const step = fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 2 ** 45 }));

describe('the price walk: a pure function of (key, start price, step)', () => {
  it('starts at the start price, stays in 1…99 cents, and moves at most one cent a step, at any step', () => {
    fc.assert(fc.property(key, cents, step, (k, start, n) => {
      expect(walkedCents(start, k, 0)).toBe(start);
      const here = walkedCents(start, k, n);
      const next = walkedCents(start, k, n + 1);
      expect(Number.isInteger(here) && here >= 1 && here <= 99).toBe(true);
      expect(Math.abs(next - here)).toBeLessThanOrEqual(1);
    }), { numRuns: 3000 });
  });

  it('reads any step in any order the same (no state, no earlier step visited)', () => {
    const k = walkKey(7, 12345);
    const forward = Array.from({ length: 500 }, (_, n) => walkedCents(40, k, n));
    const backward = Array.from({ length: 500 }, (_, n) => 499 - n).map((n) => walkedCents(40, k, n)).reverse();
    expect(backward).toEqual(forward);
    expect(walkedCents(40, k, 1_000_000_007)).toBe(walkedCents(40, k, 1_000_000_007));
  });

  it('moves: over a day of minute steps most markets leave their start price, up and down, and every step is -1, 0 or +1', () => {
    const ends = Array.from({ length: 200 }, (_, market) => walkedCents(50, walkKey(1, market), 1440));
    expect(ends.filter((c) => c > 50).length).toBeGreaterThan(50);
    expect(ends.filter((c) => c < 50).length).toBeGreaterThan(50);
    const steps = new Set<number>();
    const k = walkKey(1, 3);
    for (let n = 0; n < 5000; n++) steps.add(walkedCents(50, k, n + 1) - walkedCents(50, k, n));
    expect([...steps].sort()).toEqual([-1, 0, 1]);
  });

  it('gives other markets and other seeds other walks', () => {
    const path = (k: number) => Array.from({ length: 60 }, (_, n) => walkedCents(50, k, n)).join();
    expect(path(walkKey(1, 1))).not.toBe(path(walkKey(1, 2)));
    expect(path(walkKey(1, 1))).not.toBe(path(walkKey(2, 1)));
  });

  it('is pinned: the same walk on every machine and runtime (seed 1, market hash 1, start 50)', () => {
    expect(Array.from({ length: 12 }, (_, n) => walkedCents(50, walkKey(1, 1), n * 97)).join(' ')).toMatchInlineSnapshot(`"50 60 63 60 56 60 62 58 42 41 29 30"`);
  });
});
