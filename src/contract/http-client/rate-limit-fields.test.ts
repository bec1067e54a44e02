import { describe, expect, it } from 'vitest';
import { readRateLimit } from './rate-limit-fields.js';

const NOW = Date.UTC(2026, 10, 27, 8, 0, 0);

describe('readRateLimit', () => {
  it('reads the IETF RateLimit and RateLimit-Policy structured fields (draft-ietf-httpapi-ratelimit-headers)', () => {
    expect(readRateLimit({ ratelimit: '"default";r=0;t=5', 'ratelimit-policy': '"burst";q=100;w=60, "default";q=10;w=1' }, NOW)).toEqual({
      remaining: 0, resetMs: 5000, quota: 100, windowMs: 60_000, evidence: ['RateLimit: "default";r=0;t=5', 'RateLimit-Policy: "burst";q=100;w=60, "default";q=10;w=1'],
    });
  });

  it('reads the earlier drafts: a RateLimit dictionary, and RateLimit-Limit/-Remaining/-Reset', () => {
    expect(readRateLimit({ ratelimit: 'limit=10, remaining=2, reset=7' }, NOW)).toMatchObject({ remaining: 2, resetMs: 7000, quota: 10 });
    expect(readRateLimit({ 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '3' }, NOW)).toMatchObject({ remaining: 0, resetMs: 3000, quota: 10, evidence: ['RateLimit-Limit: 10, RateLimit-Remaining: 0, RateLimit-Reset: 3'] });
  });

  it('reads X-RateLimit-Reset as seconds from now, or past 10^9 as a Unix time', () => {
    expect(readRateLimit({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '4' }, NOW)).toMatchObject({ remaining: 0, resetMs: 4000 });
    expect(readRateLimit({ 'x-ratelimit-reset': String(NOW / 1000 + 30) }, NOW)).toMatchObject({ resetMs: 30_000 });
    expect(readRateLimit({ 'x-ratelimit-reset': String(NOW / 1000 - 30) }, NOW)).toMatchObject({ resetMs: 0 });
  });

  it('reads Retry-After in both forms; the longer of it and a reset wins', () => {
    expect(readRateLimit({ 'retry-after': '2' }, NOW)).toEqual({ resetMs: 2000, evidence: ['Retry-After: 2'] });
    expect(readRateLimit({ 'retry-after': new Date(NOW + 9000).toUTCString() }, NOW)).toMatchObject({ resetMs: 9000 });
    expect(readRateLimit({ 'retry-after': '2', 'x-ratelimit-reset': '6' }, NOW)).toMatchObject({ resetMs: 6000 });
  });

  it('ignores malformed, negative, fractional and oversized fields (a pace hint, never an error)', () => {
    const malformed: Record<string, string>[] = [
      { ratelimit: '"default";r=-1;t=abc' }, { ratelimit: 'r=0;t=5(' }, { 'ratelimit-policy': '"default";q=0;w=1' }, { 'ratelimit-policy': '"default";q=1.5;w=1' },
      { 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '1e3' }, { 'retry-after': 'soon' }, { 'retry-after': `${'9'.repeat(2000)}` }, { ratelimit: `"a";r=0;t=${'1'.repeat(2000)}` },
    ];
    for (const headers of malformed) {
      const reading = readRateLimit(headers, NOW);
      expect(reading.remaining, JSON.stringify(headers)).toBeUndefined();
      expect(reading.quota, JSON.stringify(headers)).toBeUndefined();
      expect(reading.resetMs, JSON.stringify(headers)).toBeUndefined();
    }
  });
});
