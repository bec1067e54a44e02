import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPendingResponses } from './pending-responses.js';

describe('createPendingResponses', () => {
  it('holds what was added and not removed, in the order added; removing twice is harmless', () => {
    const list = createPendingResponses<string>();
    const removeA = list.add('a');
    list.add('b');
    const removeC = list.add('c');
    removeA();
    removeA();
    expect([...list]).toEqual(['b', 'c']);
    removeC();
    expect([...list]).toEqual(['b']);
    expect(list.size).toBe(1);
  });

  it('a walk goes on when the item it stands on, or the next one, is removed during it', () => {
    const list = createPendingResponses<number>();
    const removers = [0, 1, 2, 3, 4].map((n) => list.add(n));
    const seen: number[] = [];
    for (const n of list) {
      seen.push(n);
      removers[n]?.();
      if (n === 1) removers[2]?.();
    }
    expect(seen).toEqual([0, 1, 3, 4]);
    expect([...list]).toEqual([]);
    expect(list.size).toBe(0);
  });

  it('agrees with a Set over random sequences of adds and removes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(30)), { maxLength: 300 }), (steps) => {
        const list = createPendingResponses<number>();
        const model = new Set<number>();
        const removers = new Map<number, () => void>();
        let next = 0;
        for (const [add, pick] of steps) {
          if (add || model.size === 0) {
            removers.set(next, list.add(next));
            model.add(next);
            next += 1;
          } else {
            const victim = [...model][pick % model.size] as number;
            removers.get(victim)?.();
            model.delete(victim);
          }
          expect([...list]).toEqual([...model]);
          expect(list.size).toBe(model.size);
        }
      }),
      { numRuns: 200 },
    );
  });
});
