import { createHash } from 'node:crypto';
import { MAX_HORIZON_DAYS } from '../floor/limits.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { generateMarket, generateMarkets, indexFromGeneratedId } from './generate-markets.js';
import { addDays } from '../floor/market-rules.js';
import { getMarketValidator } from '../schema/market-validator.js';
import type { Market } from '../schema/generated/market-types.js';
import { loadMarketSchema } from '../schema/market-schema.js';

const CLOCK = '2026-01-01';
/** The generated catalog of seed 1 at the clock above, as json-schema-faker 0.6.3 draws it (a change here changes every user's catalog). */
const PINNED_FIRST_TWO: Market[] = [
  { market_id: 'TDWW-82MAR12-1', title: 'Will the UK rise by more than 5% before the next election?', status: 'active', yes_price: 0.49, no_price: 0.51, resolution_date: '2026-12-30' },
  { market_id: 'USN-61SEP87-2', title: 'Will Nvidia close above its record high before the summer?', status: 'active', yes_price: 0.03, no_price: 0.97, resolution_date: '2026-01-02' },
];
/** sha256 of JSON.stringify(generateMarkets(1000, { seed: 1, clock: CLOCK })). */
const PINNED_SHA256 = '137ae821e5b7c5ba9d59f4a25df7fc5375152b56ff1f1e89505e48a4ba554dc6';

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

});

describe('generateMarket: where values come from, and the pinned catalog', () => {
  it('takes every drawn value from $defs/GeneratedMarket (json-schema-faker), never from code', () => {
    const generated = loadMarketSchema().$defs['GeneratedMarket'] as { properties: Record<string, unknown> };
    const ajv = new Ajv2020({ multipleOfPrecision: 9 });
    const check = (field: string) => ajv.compile(generated.properties[field] as object);
    const [stem, title, status, price] = ['market_id', 'title', 'status', 'yes_price'].map(check) as ReturnType<typeof check>[];
    for (const m of generateMarkets(3000, { seed: 11, clock: CLOCK })) {
      expect(stem?.(m.market_id.replace(/-\d+$/, '')), m.market_id).toBe(true);
      expect(title?.(m.title), m.title).toBe(true);
      expect(status?.(m.status)).toBe(true);
      expect(price?.(m.yes_price), String(m.yes_price)).toBe(true);
    }
  });

  it('spreads values: small catalogs draw from small pools, large ones from the whole pool', () => {
    const small = generateMarkets(2000, { seed: 3, clock: CLOCK });
    expect(new Set(small.map((m) => m.yes_price)).size).toBeGreaterThan(60);
    expect(new Set(small.map((m) => m.resolution_date)).size).toBeGreaterThan(500);
    expect(new Set(small.map((m) => m.title)).size).toBeGreaterThan(60);
    const large = generateMarkets(100_000, { seed: 3, clock: CLOCK });
    expect(new Set(large.map((m) => m.yes_price)).size).toBeGreaterThanOrEqual(95);
    expect(new Set(large.map((m) => m.resolution_date)).size).toBe(MAX_HORIZON_DAYS);
    // The title pattern has 1,680 combinations; a full pool of 2,048 draws holds about 1,200.
    expect(new Set(large.map((m) => m.title)).size).toBeGreaterThan(1000);
  });

  it('depends on (seed, index, clock) only, not on which markets were generated before in the process', async () => {
    const order = Array.from({ length: 400 }, (_, i) => (i * 7919) % 400);
    const forward = generateMarkets(400, { seed: 77, clock: CLOCK });
    vi.resetModules();
    const fresh = await import('./generate-markets.js');
    const shuffled = new Array<unknown>(400);
    for (const k of order) shuffled[k] = fresh.generateMarket(k, { seed: 77, clock: CLOCK });
    expect(JSON.stringify(shuffled)).toBe(JSON.stringify(forward));
    expect(fresh.generateMarket(123_456_789, { seed: 77, clock: CLOCK })).toEqual(generateMarket(123_456_789, { seed: 77, clock: CLOCK }));
  });

  it('gives the same catalog on every machine: seed 1, clock 2026-01-01 is pinned', () => {
    const markets = generateMarkets(1000, { seed: 1, clock: CLOCK });
    expect(markets.slice(0, 2)).toEqual(PINNED_FIRST_TWO);
    expect(createHash('sha256').update(JSON.stringify(markets)).digest('hex')).toBe(PINNED_SHA256);
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
    ['ABC-', undefined],
    ['ABC-1x', undefined],
    ['ABC-9007199254740992', 9007199254740991],
    ['ABC-12345678901234567', undefined],
    ['42', undefined],
  ])('%s → %s', (id, index) => {
    expect(indexFromGeneratedId(id)).toBe(index);
  });
});
