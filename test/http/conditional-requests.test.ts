// Answers a poller can cache (RFC 9110 §8.8, §13; RFC 9111): a strong ETag on the list and each
// market that changes exactly when the bytes do, Cache-Control, and If-None-Match /
// If-Modified-Since answered 304 without a body (src/runtime/conditional-reply.ts), as a client
// sees them through the Fetch handler and node:http (supertest). Same bytes on every adapter:
// test/runtime/same-bytes-adapters.test.ts.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp, type Market } from '../../src/index.js';
import { createFetchHandler } from '../../src/fetch.js';
import { createMemoryCatalog } from '../../src/catalog/market-catalog.js';
import { createStubRuntime } from '../../src/runtime/stub-runtime.js';
import { bytesDigest } from '../../src/floor/text-hash.js';

const base = { seed: 5, count: 6, clock: '2026-01-01' } as const;
const get = async (stub: ReturnType<typeof createFetchHandler>, target: string, headers: Record<string, string> = {}, method = 'GET') => {
  const res = await stub.fetch(new Request(`http://stub.test${target}`, { method, headers }));
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const TAG = /^"[0-9a-f]{16}"$/;

describe('validators on the market routes', () => {
  it('a strong ETag and Cache-Control: no-cache on the list and each market, the same on every read', async () => {
    const stub = createFetchHandler(base);
    const id = (await stub.catalog())[0]?.market_id ?? '';
    for (const target of ['/markets', `/markets/${id}`, '/markets?status=active']) {
      const first = await get(stub, target);
      const again = await get(stub, target);
      expect(first.status).toBe(200);
      expect(first.headers.get('etag'), target).toMatch(TAG);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(again.text).toBe(first.text);
    }
  });

  it('differs exactly where the bytes differ: markets, pages, envelopes, profiles; the same bytes under two profiles share a tag', async () => {
    const plain = createFetchHandler(base);
    const paged = createFetchHandler({ ...base, profile: { paging: 'offset', pageSize: 2 } });
    const wrapped = createFetchHandler({ ...base, profile: { envelope: 'markets' } });
    const ids = (await plain.catalog()).map((m) => m.market_id);
    const answers = [
      ...(await Promise.all(ids.map((id) => get(plain, `/markets/${id}`)))),
      await get(plain, '/markets'), await get(wrapped, '/markets'),
      await get(paged, '/markets'), await get(paged, '/markets?offset=2'), await get(paged, '/markets?offset=2&limit=3'),
    ];
    const byTag = new Map<string, string>();
    for (const a of answers) {
      const tag = a.headers.get('etag') ?? '';
      expect(byTag.get(tag) ?? a.text).toBe(a.text);
      byTag.set(tag, a.text);
    }
    expect(byTag.size).toBe(new Set(answers.map((a) => a.text)).size);
    // The item bytes do not depend on the list's profile, and neither does their tag.
    expect((await get(paged, `/markets/${ids[0] ?? ''}`)).headers.get('etag')).toBe(answers[0]?.headers.get('etag'));
  });

  it('the tag is the digest of the bytes sent', async () => {
    const stub = createFetchHandler(base);
    const res = await stub.fetch(new Request('http://stub.test/markets'));
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get('etag')).toBe(`"${bytesDigest(bytes)}"`);
  });

  it('changes when a market changes (an edit, a tick) and only for what changed', async () => {
    const stub = createFetchHandler(base);
    const [a, b] = (await stub.catalog()).map((m) => m.market_id);
    const before = await Promise.all(['/markets', `/markets/${a ?? ''}`, `/markets/${b ?? ''}`].map((t) => get(stub, t)));
    await stub.patchMarket(a ?? '', { title: 'A new title' });
    const after = await Promise.all(['/markets', `/markets/${a ?? ''}`, `/markets/${b ?? ''}`].map((t) => get(stub, t)));
    expect(after.map((x) => x.headers.get('etag') === before[after.indexOf(x)]?.headers.get('etag'))).toEqual([false, false, true]);
    // A revalidation with the old tag gets the new body.
    const revalidated = await get(stub, `/markets/${a ?? ''}`, { 'if-none-match': before[1]?.headers.get('etag') ?? '' });
    expect(revalidated.status).toBe(200);
    expect(JSON.parse(revalidated.text)).toMatchObject({ title: 'A new title' });
    await stub.tick(3);
    const ticked = await get(stub, '/markets');
    expect(ticked.text === after[0]?.text).toBe(ticked.headers.get('etag') === after[0]?.headers.get('etag'));
  });
});

describe('If-None-Match and If-Modified-Since (RFC 9110 §13.2.2)', () => {
  it('a matching If-None-Match is 304 with no body and the 200\'s validators; weak comparison, lists and * match', async () => {
    const stub = createFetchHandler(base);
    const id = (await stub.catalog())[0]?.market_id ?? '';
    for (const target of ['/markets', `/markets/${id}`]) {
      const full = await get(stub, target);
      const tag = full.headers.get('etag') ?? '';
      for (const inm of [tag, `W/${tag}`, `"nope", ${tag}`, `"a",${tag} , "b"`, '*']) {
        const res = await get(stub, target, { 'if-none-match': inm });
        expect([res.status, res.text], `${target} If-None-Match: ${inm}`).toEqual([304, '']);
        expect(res.headers.get('etag')).toBe(tag);
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.headers.get('content-type')).toBeNull();
        expect(res.headers.get('date')).toBe(full.headers.get('date'));
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
      }
      for (const inm of ['"0000000000000000"', tag.slice(0, -2) + '"', 'W/"x"']) expect((await get(stub, target, { 'if-none-match': inm })).status, inm).toBe(200);
    }
  });

  it('If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2); If-Modified-Since alone is compared with Last-Modified', async () => {
    const stub = createFetchHandler(base);
    const tag = (await get(stub, '/markets')).headers.get('etag') ?? '';
    const future = 'Fri, 01 Jan 2100 00:00:00 GMT';
    const past = 'Thu, 01 Jan 1970 00:00:00 GMT';
    expect((await get(stub, '/markets', { 'if-none-match': '"other"', 'if-modified-since': future })).status).toBe(200);
    expect((await get(stub, '/markets', { 'if-none-match': tag, 'if-modified-since': past })).status).toBe(304);
    expect((await get(stub, '/markets', { 'if-modified-since': future })).status).toBe(304);
    expect((await get(stub, '/markets', { 'if-modified-since': past })).status).toBe(200);
    expect((await get(stub, '/markets', { 'if-modified-since': 'not a date' })).status).toBe(200);
  });

  it('a request Cache-Control: no-cache still gets its 304 (the origin validates: RFC 9111 §5.2.1.4)', async () => {
    const stub = createFetchHandler(base);
    const tag = (await get(stub, '/markets')).headers.get('etag') ?? '';
    expect((await get(stub, '/markets', { 'if-none-match': tag, 'cache-control': 'no-cache' })).status).toBe(304);
  });

  it('HEAD carries the same validators and answers 304 the same way', async () => {
    const stub = createFetchHandler(base);
    const got = await get(stub, '/markets');
    const head = await get(stub, '/markets', {}, 'HEAD');
    expect([head.status, head.headers.get('etag'), head.headers.get('cache-control')]).toEqual([200, got.headers.get('etag'), 'no-cache']);
    expect((await get(stub, '/markets', { 'if-none-match': got.headers.get('etag') ?? '' }, 'HEAD')).status).toBe(304);
  });

  it('an unconditional request gets today\'s bytes and status whatever the validators', async () => {
    const stub = createFetchHandler(base);
    const res = await get(stub, '/markets');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toHaveLength(6);
  });
});

describe('Last-Modified from stub time (docs/caching.md)', () => {
  const START = 'Thu, 01 Jan 2026 00:00:00 GMT';
  const lastModified = async (stub: ReturnType<typeof createFetchHandler>, target: string) => (await get(stub, target)).headers.get('last-modified');

  it('is the clock\'s start on a catalog nothing changed, on the list and each market; If-Modified-Since at or after it is 304, before it 200', async () => {
    const stub = createFetchHandler(base);
    const id = (await stub.catalog())[0]?.market_id ?? '';
    for (const target of ['/markets', `/markets/${id}`]) {
      expect(await lastModified(stub, target), target).toBe(START);
      expect((await get(stub, target, { 'if-modified-since': START })).status, target).toBe(304);
      expect((await get(stub, target, { 'if-modified-since': 'Wed, 31 Dec 2025 23:59:59 GMT' })).status, target).toBe(200);
    }
    const notModified = await get(stub, '/markets', { 'if-modified-since': START });
    expect([notModified.text, notModified.headers.get('last-modified')]).toEqual(['', START]);
  });

  it('moves to the start of the clock\'s step as prices walk, and to the instant of an edit; never later than Date', async () => {
    const stub = createFetchHandler(base);
    await stub.setClock({ advance: 'PT1H30S' });
    // Prices step every minute (PT1M): the body last changed at the step's start, 01:00:00.
    const stepped = await get(stub, '/markets');
    expect(stepped.headers.get('last-modified')).toBe('Thu, 01 Jan 2026 01:00:00 GMT');
    expect((await get(stub, '/markets', { 'if-modified-since': 'Thu, 01 Jan 2026 01:00:00 GMT' })).status).toBe(304);
    expect((await get(stub, '/markets', { 'if-modified-since': START })).status).toBe(200);
    const id = (await stub.catalog())[0]?.market_id ?? '';
    await stub.patchMarket(id, { title: 'Edited at 01:00:30' });
    const edited = await get(stub, `/markets/${id}`);
    expect(edited.headers.get('last-modified')).toBe('Thu, 01 Jan 2026 01:00:30 GMT');
    expect(edited.headers.get('date')).toBe('Thu, 01 Jan 2026 01:00:30 GMT');
    expect((await get(stub, `/markets/${id}`, { 'if-modified-since': 'Thu, 01 Jan 2026 01:00:00 GMT' })).status).toBe(200);
    expect((await get(stub, `/markets/${id}`, { 'if-modified-since': 'Thu, 01 Jan 2026 01:00:30 GMT' })).status).toBe(304);
  });

  it('two bodies within one second: If-Modified-Since of that second is answered in full, never a 304 hiding the edit; If-None-Match still tells them apart', async () => {
    const stub = createFetchHandler(base);
    const id = (await stub.catalog())[0]?.market_id ?? '';
    const before = await get(stub, `/markets/${id}`);
    // The clock is frozen: the edit happens at the very instant the first body was served at.
    await stub.patchMarket(id, { title: 'Edited at the same instant' });
    const after = await get(stub, `/markets/${id}`);
    expect(after.headers.get('last-modified')).toBe(before.headers.get('last-modified'));
    expect((await get(stub, `/markets/${id}`, { 'if-modified-since': START })).status).toBe(200);
    expect((await get(stub, `/markets/${id}`, { 'if-none-match': before.headers.get('etag') ?? '' })).status).toBe(200);
    expect((await get(stub, `/markets/${id}`, { 'if-none-match': after.headers.get('etag') ?? '' })).status).toBe(304);
  });

  it('after reset sets the clock back, an If-Modified-Since from before it is answered in full', async () => {
    const stub = createFetchHandler(base);
    await stub.setClock({ advance: 'P1D' });
    const late = await lastModified(stub, '/markets');
    expect(late).toBe('Fri, 02 Jan 2026 00:00:00 GMT');
    await stub.reset();
    expect(await lastModified(stub, '/markets')).toBe(START);
    expect((await get(stub, '/markets', { 'if-modified-since': late ?? '' })).status).toBe(200);
  });

  it('the same Last-Modified and 304 over node:http (Express) as through the Fetch handler', async () => {
    const markets = [market('m-1'), market('m-2')];
    const app = createApp({ runtime: createStubRuntime({ catalog: createMemoryCatalog(markets, 'inline', 'two'), clock: '2026-01-01' }) });
    const viaFetch = await lastModified(createFetchHandler({ markets, clock: '2026-01-01' }), '/markets');
    const viaNode = await request(app).get('/markets');
    expect([viaNode.headers['last-modified'], viaFetch]).toEqual([START, START]);
    const notModified = await request(app).get('/markets').set('if-modified-since', START);
    expect([notModified.status, notModified.text]).toEqual([304, '']);
  });
});

describe('what carries no validator', () => {
  it('errors, injected statuses, faults, 404s and 429s: Cache-Control: no-store and no ETag, and If-None-Match: * does not make them 304', async () => {
    const stub = createFetchHandler(base);
    const limited = createFetchHandler({ ...base, deviations: [{ name: 'rate-limited' }] });
    const cases: [ReturnType<typeof createFetchHandler>, string, Record<string, string>][] = [
      [stub, '/markets/no-such-market', {}],
      [stub, '/markets', { prefer: 'code=500' }],
      [stub, '/markets', { prefer: 'code=429' }],
      [stub, '/markets', { prefer: 'fault=truncate' }],
      [stub, '/markets', { prefer: 'fault=malformed' }],
      [stub, '/markets', { prefer: 'delay=-1' }],
    ];
    for (const [handler, target, headers] of cases) {
      const res = await handler.fetch(new Request(`http://stub.test${target}`, { headers: { ...headers, 'if-none-match': '*' } }));
      await res.arrayBuffer().catch(() => undefined);
      expect([res.status >= 400 || res.status === 200, res.headers.get('etag'), res.headers.get('cache-control')], `${target} ${JSON.stringify(headers)}`).toEqual([true, null, 'no-store']);
    }
    let answer: Response | undefined;
    for (let i = 0; i < 30; i++) answer = await limited.fetch(new Request('http://stub.test/markets'));
    expect([answer?.status, answer?.headers.get('etag'), answer?.headers.get('cache-control')]).toEqual([429, null, 'no-store']);
  });

  it('a Prefer code=304 override is a 304 with no validator (a behaviour, not a cache)', async () => {
    const res = await get(createFetchHandler(base), '/markets', { prefer: 'code=304' });
    expect([res.status, res.headers.get('etag'), res.headers.get('cache-control')]).toEqual([304, null, 'no-store']);
  });

  it('the admin API answers Cache-Control: no-store', async () => {
    const runtime = createStubRuntime({ catalog: createMemoryCatalog([market('m-1')], 'inline', 'one') });
    const app = createApp({ runtime });
    for (const path of ['/__stub', '/__stub/markets', '/__stub/journal']) expect((await request(app).get(path)).headers['cache-control'], path).toBe('no-store');
  });
});

describe('over node:http, and across origins', () => {
  it('the same tags over node:http (Express) as through the Fetch handler, and a 304 with no body', async () => {
    const markets = [market('m-1'), market('m-2')];
    const app = createApp({ runtime: createStubRuntime({ catalog: createMemoryCatalog(markets, 'inline', 'two') }) });
    const stub = createFetchHandler({ markets });
    for (const target of ['/markets', '/markets/m-2']) {
      const res = await request(app).get(target).expect(200);
      expect(res.headers['etag']).toBe((await get(stub, target)).headers.get('etag'));
      const again = await request(app).get(target).set('If-None-Match', String(res.headers['etag'])).expect(304);
      expect([again.text, again.headers['content-length'], again.headers['content-type'], again.headers['etag']]).toEqual(['', undefined, undefined, res.headers['etag']]);
    }
  });

  it('a preflight allows If-None-Match and If-Modified-Since; ETag is exposed by the wildcard', async () => {
    const stub = createFetchHandler(base);
    const pre = await get(stub, '/markets', { origin: 'http://app.test', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Prefer, Authorization, Content-Type, If-None-Match, If-Modified-Since');
    const res = await get(stub, '/markets', { origin: 'http://app.test' });
    expect([res.headers.get('access-control-expose-headers'), res.headers.get('etag')]).toEqual(['*', expect.stringMatching(TAG)]);
  });
});

describe('the cache deviations', () => {
  it('item-unconditional-304: every GET of the market is a 304 with its ETag, with or without a validator', async () => {
    const stub = createFetchHandler({ ...base, deviations: [{ name: 'item-unconditional-304' }] });
    const id = (await stub.catalog())[0]?.market_id ?? '';
    const res = await get(stub, `/markets/${id}`);
    expect([res.status, res.text, res.headers.get('etag')]).toEqual([304, '', expect.stringMatching(TAG)]);
    expect((await get(stub, '/markets')).status).toBe(200);
  });

  it('stale-etag: the tag stays while the body changes, and the old tag keeps getting 304', async () => {
    const stub = createFetchHandler({ ...base, deviations: [{ name: 'stale-etag' }] });
    const id = (await stub.catalog())[0]?.market_id ?? '';
    const before = await get(stub, `/markets/${id}`);
    await stub.patchMarket(id, { title: 'Changed' });
    const after = await get(stub, `/markets/${id}`);
    expect(after.text).not.toBe(before.text);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect((await get(stub, `/markets/${id}`, { 'if-none-match': before.headers.get('etag') ?? '' })).status).toBe(304);
  });
});

describe('list-lags-items', () => {
  it('serves the list two catalog changes behind its markets (one after the first), each list target on its own', async () => {
    const stub = createFetchHandler({ ...base, profile: { paging: 'offset', pageSize: 3 }, deviations: [{ name: 'list-lags-items' }] });
    const id = (await stub.catalog())[0]?.market_id ?? '';
    const titles = async (target: string) => (JSON.parse((await get(stub, target)).text) as { title: string }[]).map((m) => m.title);
    const first = await titles('/markets');
    expect(first[0]).toBe(JSON.parse((await get(stub, `/markets/${id}`)).text).title);
    await stub.patchMarket(id, { title: 'One' });
    expect(JSON.parse((await get(stub, `/markets/${id}`)).text)).toMatchObject({ title: 'One' });
    // One change behind, on every read until the next change.
    expect((await titles('/markets'))[0]).toBe(first[0]);
    expect((await titles('/markets'))[0]).toBe(first[0]);
    await stub.patchMarket(id, { title: 'Two' });
    // Two changes behind: the list read before the first.
    expect((await titles('/markets'))[0]).toBe(first[0]);
    await stub.patchMarket(id, { title: 'Three' });
    expect((await titles('/markets'))[0]).toBe('One');
    expect((await titles('/markets'))[0]).toBe('One');
    // A target never read before the change has nothing older to show: the current list.
    expect((await titles('/markets?limit=2'))[0]).toBe('Three');
    // Its ETag is the tag of the bytes it sends, so a revalidation of the old list is a 304.
    const listed = await get(stub, '/markets');
    expect((await get(stub, '/markets', { 'if-none-match': listed.headers.get('etag') ?? '' })).status).toBe(304);
  });
});

function market(id: string): Market {
  return { market_id: id, title: `Market ${id}`, status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2027-01-01' };
}
