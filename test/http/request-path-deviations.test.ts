import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMemoryCatalog } from '../../src/catalog/market-catalog.js';
import { MAX_HOLD_MS } from '../../src/floor/limits.js';
import { answerRequest } from '../../src/runtime/answer-request.js';
import { createStubRuntime, type RuntimeOptions } from '../../src/runtime/stub-runtime.js';
import { createApp, type Market } from '../../src/index.js';

// Deviations of the whole list and of one market as a client reads them over HTTP (in process,
// createApp + supertest, or the core's answerRequest where timing matters): the first page alone, the
// retirement headers, a paging loop's Link joined with them, the rate limit's pacing, a slow item's
// delay, and the journal's labels of a Prefer deviation.

const marketsOf = (n: number): Market[] => Array.from({ length: n }, (_, i) => ({ market_id: `m-${i}`, title: `Market ${i}`, status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' }));
const stub = (count: number, options: Partial<RuntimeOptions> = {}) => {
  const runtime = createStubRuntime({ catalog: createMemoryCatalog(marketsOf(count), 'inline', `${count} markets`), ...options });
  return { runtime, app: createApp({ runtime }) };
};
const ids = (body: unknown) => (body as Market[]).map((m) => m.market_id);

describe('list-partial-no-signal: the first page alone, announced only by its size', () => {
  it('answers the first 5 markets of 8 with X-Per-Page: 5, no Link and no total, whatever the query', async () => {
    const { app } = stub(8, { deviations: [{ name: 'list-partial-no-signal' }] });
    const res = await request(app).get('/markets?limit=2').expect(200);
    expect(ids(res.body)).toEqual(['m-0', 'm-1', 'm-2', 'm-3', 'm-4']);
    expect(res.headers['x-per-page']).toBe('5');
    expect(res.headers['link']).toBeUndefined();
    expect(res.headers['x-total-count']).toBeUndefined();
  });

  it('a catalog smaller than the page is answered whole', async () => {
    const { app } = stub(3, { deviations: [{ name: 'list-partial-no-signal' }] });
    expect(ids((await request(app).get('/markets').expect(200)).body)).toEqual(['m-0', 'm-1', 'm-2']);
  });

  it('still the first page beside list deviations earlier in the catalogue that change no page', async () => {
    const { app } = stub(8, { deviations: [{ name: 'list-paging-loop' }, { name: 'list-partial-no-signal' }] });
    const res = await request(app).get('/markets').expect(200);
    expect(ids(res.body)).toHaveLength(5);
    expect(res.headers['link']).toBe('</markets>; rel="next"');
  });
});

describe('retirement headers (RFC 9745 Deprecation, RFC 8594 Sunset, Link)', () => {
  it('deprecation-headers on the list; with the paging loop both Links are kept, joined', async () => {
    const { app } = stub(3, { deviations: [{ name: 'deprecation-headers' }] });
    const alone = await request(app).get('/markets').expect(200);
    expect(alone.headers['deprecation']).toBe('@1767225600');
    expect(alone.headers['sunset']).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
    const successor = alone.headers['link'] as string;
    expect(successor).toContain('rel="successor-version"');
    const { app: looped } = stub(3, { deviations: [{ name: 'list-paging-loop' }, { name: 'deprecation-headers' }] });
    expect((await request(looped).get('/markets?limit=2').expect(200)).headers['link']).toBe(`</markets?limit=2>; rel="next", ${successor}`);
  });

  it('item-deprecated on its market only; another item deviation sends none', async () => {
    const { app } = stub(3, { deviations: [{ name: 'item-deprecated', marketIds: ['m-1'] }, { name: 'item-charset', marketIds: ['m-2'] }] });
    const deprecated = await request(app).get('/markets/m-1').expect(200);
    expect(deprecated.headers).toMatchObject({ deprecation: '@1767225600', sunset: 'Tue, 01 Jan 2030 00:00:00 GMT' });
    const charset = await request(app).get('/markets/m-2').expect(200);
    expect(charset.headers['content-type']).toBe('application/json; charset=iso-8859-1');
    expect([charset.headers['deprecation'], charset.headers['sunset'], charset.headers['link']]).toEqual([undefined, undefined, undefined]);
  });
});

describe('rate-limited-ratelimit: every answer announces what is left, then 429', () => {
  it('answers 10 requests a second with RateLimit fields counting down, the 11th with 429', () => {
    // The core itself (no socket per request): eleven answers well inside one second.
    const { runtime } = stub(3, { deviations: [{ name: 'rate-limited-ratelimit' }] });
    const answers = Array.from({ length: 11 }, (_, i) => answerRequest(runtime, { method: 'GET', target: i % 2 ? '/markets/m-0' : '/markets', headers: {} })?.reply);
    expect(answers.map((r) => r?.status)).toEqual([...Array.from({ length: 10 }, () => 200), 429]);
    expect(answers.map((r) => /r=(\d+)/.exec(r?.headers['ratelimit'] ?? '')?.[1])).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0', '0']);
    expect(answers[0]?.headers['ratelimit-policy']).toBe('"default";q=10;w=1');
  });
});

describe('item-slow: the deviation\'s delay adds to the behaviour\'s, within the hold', () => {
  // The core's answer carries the delay; the adapter waits it (not waited here).
  const delayOf = (runtime: ReturnType<typeof stub>['runtime'], prefer?: string) =>
    answerRequest(runtime, { method: 'GET', target: '/markets/m-0', headers: prefer === undefined ? {} : { prefer } })?.delayMs;

  it('2500 ms alone, plus a Prefer delay, capped at MAX_HOLD_MS; another market has none', () => {
    const { runtime } = stub(3, { deviations: [{ name: 'item-slow', marketIds: ['m-0'] }] });
    expect(delayOf(runtime)).toBe(2500);
    expect(delayOf(runtime, 'delay=100')).toBe(2600);
    expect(delayOf(runtime, `delay=${MAX_HOLD_MS - 1000}`)).toBe(MAX_HOLD_MS);
    expect(answerRequest(runtime, { method: 'GET', target: '/markets/m-1', headers: { prefer: 'delay=100' } })?.delayMs).toBe(100);
  });
});

describe('the journal names a Prefer deviation of one market on the list', () => {
  it('alone when no list deviation is in force', async () => {
    const { app, runtime } = stub(3);
    await request(app).get('/markets').set('Prefer', 'deviation=string-price').expect(200);
    expect(runtime.journal.list().map((e) => e.behaviour)).toEqual([['deviation=string-price (Prefer)']]);
  });
});
