// The lifecycle's list index (lifecycle-index.ts) against the definition it stands for: the listed
// positions at t are those whose open ≤ t < retire, in position order. A fast-check property over
// catalogs across several blocks, lives (some with none: always listed) and instants, with ranks
// read in order, in reverse and at random.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLifecycleIndex } from './lifecycle-index.js';

type Life = { open: number; retire: number } | undefined;

const life = fc.oneof(
  { weight: 9, arbitrary: fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 400 })).map(([open, length]) => ({ open, retire: open + length })) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** The listed positions at t, by the definition. */
function naive(lives: readonly Life[], t: number): number[] {
  return lives.flatMap((l, p) => (l === undefined || (l.open <= t && t < l.retire) ? [p] : []));
}

describe('the lifecycle index', () => {
  const sizes = new Set<number>();
  it('lists, at any instant, exactly the positions open and not retired, in order, whatever order ranks are read in', () => {
    fc.assert(fc.property(fc.oneof(fc.array(life, { maxLength: 40 }), fc.array(life, { minLength: 1000, maxLength: 3500, size: 'max' })), fc.array(fc.integer({ min: -10, max: 1500 }), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 20 }), (lives, instants, picks) => {
      const index = createLifecycleIndex(lives.length, (p) => lives[p]);
      for (const t of instants) {
        const expected = naive(lives, t);
        const listed = index.listedAt(t);
        expect(listed.size).toBe(expected.length);
        expect(Array.from({ length: listed.size }, (_, r) => listed.positionAt(r))).toEqual(expected);
        const again = index.listedAt(t);
        for (let r = expected.length - 1; r >= 0; r -= 97) expect(again.positionAt(r)).toBe(expected[r]);
        for (const pick of picks) {
          const r = expected.length === 0 ? 0 : pick % expected.length;
          expect(again.positionAt(r)).toBe(expected[r]);
        }
        sizes.add(Math.ceil(lives.length / 1024));
        expect([listed.positionAt(-1), listed.positionAt(expected.length), listed.positionAt(0.5)]).toEqual([undefined, undefined, undefined]);
      }
    }), { numRuns: 60 });
    // Catalogs of one block and of several were drawn.
    expect(Math.max(...sizes)).toBeGreaterThan(1);
  });
});
