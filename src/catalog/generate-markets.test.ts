import { describe, expect, it } from 'vitest';
import { generateMarket, generateMarkets, indexFromGeneratedId, MAX_HORIZON_DAYS } from './generate-markets.js';
import { addDays } from '../core/market-rules.js';
import { getMarketValidator } from '../schema/market-validator.js';
import type { Market } from '../schema/market-types.js';

const CLOCK = '2026-01-01';

/** Every generator guarantee for one market, checked on its JSON text as a client sees it. */
function assertInvariants(m: Market, index: number, clock: string): void {
  const text = JSON.stringify(m);
  expect(Object.keys(m)).toEqual(['market_id', 'title', 'status', 'yes_price', 'no_price', 'resolution_date']);
  expect(m.status).toBe('active');
  for (const key of ['yes_price', 'no_price'] as const) {
    const priceText = new RegExp(`"${key}":([^,}]*)`).exec(text)?.[1] ?? '';
    expect(priceText, `${key} text of ${m.market_id}`).toMatch(/^0\.\d{1,2}$/);
    expect(m[key]).toBeGreaterThanOrEqual(0.01);
    expect(m[key]).toBeLessThanOrEqual(0.99);
  }
  expect(Math.round(m.yes_price * 100) + Math.round(m.no_price * 100)).toBe(100);
  expect(m.resolution_date > clock).toBe(true);
  expect(m.resolution_date <= addDays(clock, MAX_HORIZON_DAYS)).toBe(true);
  expect(m.market_id).toMatch(/^[A-Za-z0-9-]+$/);
  expect(indexFromGeneratedId(m.market_id)).toBe(index);
  expect(m.title).toMatch(/^Will .+\?$/);
}

describe('generateMarket', () => {
  it('holds every invariant over 1,000 seeds (5 markets each, varied clocks)', () => {
    for (let seed = 0; seed < 1000; seed++) {
      const clock = addDays(CLOCK, (seed * 37) % 1500);
      const markets = generateMarkets(5, { seed, clock });
      markets.forEach((m, i) => assertInvariants(m, i, clock));
    }
  });

  it('produces 10,000 markets that all validate against $defs/Market and $defs/MarketAssumptions', () => {
    const validator = getMarketValidator();
    const markets = generateMarkets(10_000, { seed: 42, clock: CLOCK });
    const invalid = markets.flatMap((m, i) => [...validator.market(m, `/${i}`), ...validator.assumptions(m, `/${i}`)]);
    expect(invalid).toEqual([]);
    expect(new Set(markets.map((m) => m.market_id)).size).toBe(10_000);
  });

  it('is a pure function of (seed, index, clock): any order, any count', () => {
    const forward = generateMarkets(50, { seed: 9, clock: CLOCK });
    const backward = Array.from({ length: 50 }, (_, i) => 49 - i).map((i) => generateMarket(i, { seed: 9, clock: CLOCK })).reverse();
    expect(JSON.stringify(backward)).toBe(JSON.stringify(forward));
    expect(generateMarkets(10, { seed: 9, clock: CLOCK })).toEqual(generateMarkets(1000, { seed: 9, clock: CLOCK }).slice(0, 10));
  });

  it('gives different markets for another seed and another clock', () => {
    const a = generateMarkets(20, { seed: 1, clock: CLOCK });
    const b = generateMarkets(20, { seed: 2, clock: CLOCK });
    expect(a.filter((m, i) => JSON.stringify(m) === JSON.stringify(b[i]))).toEqual([]);
    const later = generateMarkets(20, { seed: 1, clock: '2027-06-15' });
    expect(later.map((m) => m.resolution_date)).not.toEqual(a.map((m) => m.resolution_date));
  });

  it('spreads prices and dates instead of repeating one value', () => {
    const markets = generateMarkets(2000, { seed: 3, clock: CLOCK });
    expect(new Set(markets.map((m) => m.yes_price)).size).toBeGreaterThan(90);
    expect(new Set(markets.map((m) => m.resolution_date)).size).toBeGreaterThan(500);
    expect(new Set(markets.map((m) => m.title)).size).toBeGreaterThan(1000);
  });

  it.each([
    [-1, CLOCK, /index/],
    [1.5, CLOCK, /index/],
    [0, '2026-02-30', /clock/],
    [0, '26-01-01', /clock/],
  ])('rejects index %s / clock %s', (index, clock, message) => {
    expect(() => generateMarket(index, { seed: 1, clock })).toThrow(message);
  });
});

describe('indexFromGeneratedId', () => {
  it.each([
    ['ABC-12JUN34-1', 0],
    ['ABC-12JUN34-250', 249],
    ['ABC-12JUN34-0', undefined],
    ['ABC-12JUN34-01', undefined],
    ['no-number', undefined],
  ])('%s → %s', (id, index) => {
    expect(indexFromGeneratedId(id)).toBe(index);
  });
});
