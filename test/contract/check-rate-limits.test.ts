// Pace, not blame: a deployment limited to a few requests a second is checked completely, whatever
// header style announces the limit, and a 429 never becomes a contract finding; where the pace
// cannot go on within the run's bounds, the run stops with exit 2 naming the bound it met.
import { describe, expect, it } from 'vitest';
import { conformingMarkets, json, summaryOf, withServer } from './deviant-server.js';
import { findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';
import { alwaysLimited, RATE_LIMIT_STYLES, rateLimited } from './rate-limited-deployments.js';
import { startMarketStub } from '../../src/index.js';

const MARKETS = 16;
const PER_SECOND = 4;

describe.concurrent('a deployment limited to a few requests a second', () => {
  it.each(RATE_LIMIT_STYLES)('announcing it with %s: check passes completely, with no contract finding', async (style) => {
    const markets = conformingMarkets(MARKETS);
    const counts = { ok: 0, limited: 0 };
    await withServer(markets, rateLimited(markets, style, PER_SECOND, counts), async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.stderr).toBe('');
      expect(problemKeys(run.report)).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.report.summary).toMatchObject({ errors: 0, warnings: 0, marketsListed: MARKETS, marketsChecked: MARKETS });
      // The list, every market and the unknown-id probe: each answered once with a 200 (or the probe's 404).
      expect(counts.ok).toBe(MARKETS + 2);
      for (const retry of run.report.findings.filter((f) => f.code === 'retry')) expect(retry.severity).toBe('info');
      // Eight requests at once against four a second: the pace came down (Retry-After alone says nothing before the first 429).
      if (style === 'retry-after') expect(findingOf(run.report, 'timing', 'GET /markets/{market_id}').message).toMatch(/\(concurrency 8, lowered to [1-4] on 429s\)$/);
    });
  });

  it('announcing a quota in RateLimit-Policy: the checker keeps to it and meets no 429 after the first window', async () => {
    const markets = conformingMarkets(MARKETS);
    const counts = { ok: 0, limited: 0 };
    await withServer(markets, rateLimited(markets, 'ietf', PER_SECOND, counts), async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--concurrency', '1']);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([]);
      expect(counts.limited).toBe(0);
    });
  });
});

describe.concurrent('an hourly budget with plenty left', () => {
  it('does not slow the run: only a window of a minute at most spaces the requests', async () => {
    const fields = { ratelimit: '"hourly";r=4990;t=1800', 'ratelimit-policy': '"hourly";q=5000;w=3600' };
    await withServer(conformingMarkets(MARKETS), { other: (url) => (url.pathname === '/markets' ? json(conformingMarkets(MARKETS).map(summaryOf), 200, fields) : undefined) }, async (server) => {
      const started = performance.now();
      const run = await runCheckJson(server.url, ['--all']);
      // Spaced to q/w, 17 requests would take 12 s.
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([]);
    });
  });
});

describe.concurrent('where the pace cannot go on within the run\'s bounds: exit 2 naming the bound', () => {
  it('a reset further away than --retry-after-max-ms (RateLimit t=3600)', async () => {
    await withServer(conformingMarkets(3), alwaysLimited({ ratelimit: '"default";r=0;t=3600', 'ratelimit-policy': '"default";q=100;w=3600' }), async (server) => {
      const started = performance.now();
      const run = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json']);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(run.code).toBe(2);
      // A checker limit is a could-not-run report in the format asked for (exit 2), never a contract finding.
      const report = JSON.parse(run.stdout) as { exitCode: number; findings: { code: string; found: string }[] };
      expect(report.exitCode).toBe(2);
      expect(report.findings.map((f) => f.code)).toEqual(['could-not-run']);
      const said = `${run.stderr}\n${report.findings[0]?.found ?? ''}`;
      expect(said).toContain('the deployment rate-limits the checker: 429 with RateLimit: "default";r=0;t=3600');
      expect(said).toContain('asks to wait 3600 s, more than the 10 s cap (--retry-after-max-ms 10000)');
      expect(said).not.toContain('retry-exhausted');
    });
  });

  it('429 after every retry at concurrency 1 (--retries)', async () => {
    await withServer(conformingMarkets(3), alwaysLimited({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0' }), async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--retries', '1', '--concurrency', '2']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/429 with X-RateLimit-Limit: 10, X-RateLimit-Remaining: 0, X-RateLimit-Reset: 0 after 1 retry at concurrency 1 \(--retries 1\)/);
      expect(run.stdout).not.toContain('[retry-exhausted]');
    });
  });
});

describe.concurrent('the stub\'s rate-limited deviations (one per header style)', () => {
  it.each([
    ['rate-limited', { 'retry-after': '1' }, {}],
    ['rate-limited-ratelimit', { ratelimit: '"default";r=0;t=1', 'ratelimit-policy': '"default";q=10;w=1' }, { ratelimit: '"default";r=9;t=1' }],
    ['rate-limited-x-ratelimit', { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' }, { 'x-ratelimit-remaining': '9' }],
  ] as const)('%s: a burst meets 429 with its fields; check --all passes completely', async (name, limitedFields, firstFields) => {
    const stub = await startMarketStub({ seed: 3, count: 24, deviations: [{ name }] });
    try {
      const burst = await Promise.all(Array.from({ length: 12 }, () => fetch(`${stub.url}/markets`)));
      const first = burst.find((r) => r.status === 200);
      const limited = burst.find((r) => r.status === 429);
      expect(burst.filter((r) => r.status === 200)).toHaveLength(10);
      for (const [field, value] of Object.entries(limitedFields)) expect(limited?.headers.get(field), field).toBe(value);
      if (name === 'rate-limited') expect(first?.headers.get('retry-after')).toBeNull();
      const firstValues = burst.filter((r) => r.status === 200).map((r) => Object.keys(firstFields).map((f) => r.headers.get(f)));
      expect(firstValues).toContainEqual(Object.values(firstFields));
      await Promise.all(burst.map((r) => r.arrayBuffer()));
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const run = await runCheckJson(stub.url, ['--all']);
      expect(problemKeys(run.report)).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.report.summary).toMatchObject({ marketsListed: 24, marketsChecked: 24 });
    } finally {
      await stub.close();
    }
  });
});
