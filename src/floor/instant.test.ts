import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_INSTANT_MS } from './limits.js';
import { addDuration, formatInstant, parseDuration, parseInstant } from './instant.js';

describe('instants (RFC 3339 §5.6, or a bare full-date)', () => {
  it.each([
    ['2026-01-01', '2026-01-01T00:00:00Z'],
    ['2026-01-01T12:30:05Z', '2026-01-01T12:30:05Z'],
    ['2026-01-01t12:30:05z', '2026-01-01T12:30:05Z'],
    ['2026-01-01T07:30:00.250-05:00', '2026-01-01T12:30:00.250Z'],
    ['2026-01-02T00:30:00+01:00', '2026-01-01T23:30:00Z'],
    ['2026-01-01T00:00:00.123456789Z', '2026-01-01T00:00:00.123Z'],
    ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(formatInstant(parseInstant(text) ?? Number.NaN)).toBe(iso);
  });

  it.each([
    '', '2026-13-01', '2026-02-30', '26-01-01', '2026-01-01T24:00:00Z', '2026-01-01T12:60:00Z', '2026-01-01T23:59:60Z',
    '2026-01-01T12:00:00', '2026-01-01 12:00:00Z', '2026-01-01T12:00Z', '1969-12-31T23:59:59Z', '1970-01-01T00:30:00+01:00',
    '10000-01-01', ' 2026-01-01', '2026-01-01T12:00:00+1:00', 'tomorrow', '1767225600000',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });

  it('reads back every instant it writes, 1970–9999', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_INSTANT_MS }), (ms) => {
      expect(parseInstant(formatInstant(ms))).toBe(ms);
    }), { numRuns: 2000 });
  });
});

describe('ISO 8601 durations', () => {
  it.each([
    ['PT6H', 0, 6 * 3_600_000],
    ['P1D', 0, 86_400_000],
    ['P2W', 0, 14 * 86_400_000],
    ['P1Y2M', 14, 0],
    ['PT0.5S', 0, 500],
    ['PT1,25S', 0, 1250],
    ['P1DT1H1M1S', 0, 90_061_000],
    ['PT0S', 0, 0],
  ])('reads %s', (text, months, ms) => {
    expect(parseDuration(text)).toEqual({ months, ms });
  });

  it.each(['', 'P', 'PT', 'P1DT', '-P1D', '+P1D', 'P-1D', 'xP1D', 'P1Dx', 'P1.5D', 'PT1.5H', '1D', 'P1H', 'PT1D', 'P1234567890D', 'p1d', 'P1D ', 'PT6H6H'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('adds calendar months in UTC, ending on the last day of a shorter month, then the exact part', () => {
    const at = (text: string) => parseInstant(text) ?? Number.NaN;
    const plus = (text: string, duration: string) => formatInstant(addDuration(at(text), parseDuration(duration) ?? { months: 0, ms: Number.NaN }));
    expect(plus('2026-01-31T10:00:00Z', 'P1M')).toBe('2026-02-28T10:00:00Z');
    expect(plus('2028-01-31T10:00:00Z', 'P1M')).toBe('2028-02-29T10:00:00Z');
    expect(plus('2026-03-15T00:00:00Z', 'P1Y')).toBe('2027-03-15T00:00:00Z');
    expect(plus('2026-12-31T23:00:00Z', 'P1MT2H')).toBe('2027-02-01T01:00:00Z');
    expect(plus('2026-01-01T00:00:00Z', 'PT6H')).toBe('2026-01-01T06:00:00Z');
    expect(addDuration(at('9999-06-01'), parseDuration('P1Y') ?? { months: 0, ms: 0 })).toBe(Number.POSITIVE_INFINITY);
  });
});
