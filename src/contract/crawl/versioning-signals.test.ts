import { describe, expect, it } from 'vitest';
import { describeDeprecation, describeSunset } from './versioning-signals.js';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

describe('Deprecation (RFC 9745: an RFC 9651 Date item, @ and Unix seconds)', () => {
  it.each([
    ['@1688169599', 'deprecated since 2023-06-30T23:59:59Z (1246 days ago) (RFC 9745 date)'],
    [' @1688169599 ', 'deprecated since 2023-06-30T23:59:59Z (1246 days ago) (RFC 9745 date)'],
    ['@1798761600', 'deprecated from 2027-01-01T00:00:00Z (in 35 days) (RFC 9745 date)'],
    ['@-86400', 'deprecated since 1969-12-31T00:00:00Z (20786 days ago) (RFC 9745 date)'],
    ['@99999999999999', 'deprecated at a date out of range (RFC 9745 date)'],
    ['true', 'deprecated, no date given (an early draft form of RFC 9745; the RFC sends @seconds)'],
    ['?1', 'deprecated, no date given (an early draft form of RFC 9745; the RFC sends @seconds)'],
    ['Sun, 11 Nov 2018 23:59:59 GMT', 'deprecated since 2018-11-11T23:59:59Z (2938 days ago) (an HTTP-date, an early draft form of RFC 9745; the RFC sends @seconds)'],
    ['@1688169599.5', 'not an RFC 9745 date (@ and Unix seconds), so when is unknown; the resource says it is deprecated'],
    ['2023-06-30', 'not an RFC 9745 date (@ and Unix seconds), so when is unknown; the resource says it is deprecated'],
    ['', 'not an RFC 9745 date (@ and Unix seconds), so when is unknown; the resource says it is deprecated'],
  ])('%j: %s', (value, words) => {
    expect(describeDeprecation(value, NOW)).toBe(words);
  });
});

describe('Sunset (RFC 8594: an HTTP-date)', () => {
  it('says how far away it is, that it is past, and a Sunset before the Deprecation', () => {
    expect(describeSunset('Fri, 01 Jan 2027 00:00:00 GMT', undefined, NOW)).toBe('the resource may stop answering on 2027-01-01T00:00:00Z (in 35 days)');
    expect(describeSunset('Sat, 01 Nov 2025 00:00:00 GMT', undefined, NOW)).toBe('the resource may stop answering since 2025-11-01T00:00:00Z (392 days ago): the date is past');
    expect(describeSunset('Fri, 01 Jan 2027 00:00:00 GMT', '@1830297600', NOW)).toBe('the resource may stop answering on 2027-01-01T00:00:00Z (in 35 days); earlier than its Deprecation date, which RFC 9745 does not allow');
    expect(describeSunset('next year', undefined, NOW)).toBe('not an HTTP-date (RFC 9110 §5.6.7), so when is unknown');
  });
});
