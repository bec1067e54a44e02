import { describe, expect, it } from 'vitest';
import { addDays, complementaryPrices, hasFloatNoise, isCalendarDate, priceSumDeviation, todayUtc } from './market-rules.js';

describe('hasFloatNoise', () => {
  it.each([
    [0.5700000000000001, true],
    [0.26999999999999996, true],
    [0.35000000000000003, true],
    [0.57, false],
    [0.6675, false],
    [0.66749733001068, false],
    [1, false],
    [0, false],
    [1e-7, false],
  ])('%s → %s', (value, noisy) => {
    expect(hasFloatNoise(value)).toBe(noisy);
  });
});

describe('complementaryPrices', () => {
  it('keeps both texts at 2 decimals and the cents at exactly 100 for every tick', () => {
    for (let cents = 1; cents <= 99; cents++) {
      const noisy = cents / 100 + 1e-16 * (cents % 3);
      const { yes_price, no_price } = complementaryPrices(noisy);
      expect(String(yes_price)).toMatch(/^0\.\d{1,2}$/);
      expect(String(no_price)).toMatch(/^0\.\d{1,2}$/);
      expect(Math.round(yes_price * 100) + Math.round(no_price * 100)).toBe(100);
    }
  });
  it.each([[0, 0.01], [1, 0.99], [0.5700000000000001, 0.57]])('clamps and rounds %s to %s', (raw, yes) => {
    expect(complementaryPrices(raw).yes_price).toBe(yes);
  });
});

describe('calendar dates', () => {
  it.each([
    ['2026-02-28', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['2026-01-01T00:00:00Z', false],
  ])('isCalendarDate(%s) = %s', (text, ok) => {
    expect(isCalendarDate(text)).toBe(ok);
  });
  it('adds days across month, year and leap boundaries', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', 730)).toBe('2028-01-01');
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
  });
  it('todayUtc uses UTC, not local time', () => {
    expect(todayUtc(new Date('2026-03-01T23:59:59-05:00'))).toBe('2026-03-02');
  });
});

describe('priceSumDeviation', () => {
  it.each([[0.57, 0.43, 0], [0.6, 0.33, 0.07], [0.5700000000000001, 0.43, 0], [0.2325, 0.7675, 0]])('%s + %s → %s', (yes, no, dev) => {
    expect(priceSumDeviation(yes, no)).toBeCloseTo(dev, 9);
  });
});
