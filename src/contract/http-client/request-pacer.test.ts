import { describe, expect, it } from 'vitest';
import { createRequestPacer } from './request-pacer.js';

const none = { evidence: [] };

describe('createRequestPacer', () => {
  it('halves the concurrency on each 429, never below 1, and grows it back by one per calm round', () => {
    const pacer = createRequestPacer(8, undefined, 10_000);
    for (const expected of [4, 2, 1, 1]) {
      pacer.limited(0);
      expect(pacer.concurrency).toBe(expected);
    }
    expect(pacer.lowest).toBe(1);
    pacer.answered(none);
    expect(pacer.concurrency).toBe(2);
    pacer.answered(none);
    expect(pacer.concurrency).toBe(2);
    pacer.answered(none);
    expect(pacer.concurrency).toBe(3);
    for (let k = 0; k < 100; k++) pacer.answered(none);
    expect(pacer.concurrency).toBe(8);
  });

  it('runs a retry before the requests not yet started', async () => {
    const pacer = createRequestPacer(1, undefined, 10_000);
    const order: string[] = [];
    let open: () => void = () => undefined;
    const first = pacer.run(() => new Promise<void>((resolve) => (open = resolve)).then(() => order.push('first')), false);
    const later = pacer.run(async () => order.push('later'), false);
    const retry = pacer.run(async () => order.push('retry'), true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    open();
    await Promise.all([first, later, retry]);
    expect(order).toEqual(['first', 'retry', 'later']);
  });

  it('holds every request for a 429\'s wait, and spaces them to a quota of a short window within the cap', async () => {
    const pacer = createRequestPacer(4, undefined, 10_000);
    const held = performance.now();
    pacer.limited(120);
    await pacer.run(async () => undefined, false);
    expect(performance.now() - held).toBeGreaterThanOrEqual(110);
    pacer.answered({ quota: 10, windowMs: 1000, evidence: [] });
    const starts: number[] = [];
    await Promise.all([0, 1, 2].map(() => pacer.run(async () => starts.push(performance.now()), false)));
    expect((starts[2] as number) - (starts[0] as number)).toBeGreaterThanOrEqual(190);
  });

  it('keeps to no spacing or hold past the cap (the 429 that follows names the bound)', async () => {
    const pacer = createRequestPacer(4, undefined, 50);
    pacer.answered({ quota: 1, windowMs: 1000, remaining: 0, resetMs: 5000, evidence: [] });
    const started = performance.now();
    await Promise.all([0, 1, 2].map(() => pacer.run(async () => undefined, false)));
    // Kept to, the 1 s spacing would take 2,000 ms and the hold 5,000 ms: 500 leaves room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(500);
  });
});
