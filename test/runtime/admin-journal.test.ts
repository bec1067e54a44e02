import autocannon from 'autocannon';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, startMarketStub, type MarketStub } from '../../src/index.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const market = (id: string, extra: Record<string, unknown> = {}) => ({ market_id: id, title: `Will ${id} happen?`, status: 'active', yes_price: 0.3, no_price: 0.7, resolution_date: '2027-05-01', ...extra });

async function app(options: Parameters<typeof createApp>[0] extends infer O ? Partial<O & object> : never = {}) {
  const catalog = await buildCatalog({ seed: 2, count: 5, clock: '2026-01-01' });
  return createApp({ catalog, ...(options as object) });
}

describe('admin API: catalog', () => {
  it('replaces the catalog, and answers 400 with the findings (changing nothing) when invalid', async () => {
    const a = await app();
    await request(a).put('/__stub/markets').send([market('a'), market('b')]).expect(200, { count: 2 });
    expect((await request(a).get('/markets')).body.map((m: { market_id: string }) => m.market_id)).toEqual(['a', 'b']);
    const bad = await request(a).put('/__stub/markets').send([market('c', { yes_price: '0.3' }), market('c')]).expect(400);
    // One pass: the type error and the repeated market_id (of an invalid market) together.
    expect(bad.body.findings).toEqual([
      expect.objectContaining({ pointer: '/0/yes_price', expected: 'number', found: '"0.3"' }),
      expect.objectContaining({ pointer: '/1/market_id', expected: 'a market_id unique across the fixture set' }),
    ]);
    expect((await request(a).get('/markets')).body).toHaveLength(2);
    const dup = await request(a).put('/__stub/markets').send([market('c'), market('c')]).expect(400);
    expect(dup.body.findings[0]).toMatchObject({ pointer: '/1/market_id' });
  });

  it('adds, patches and removes one market; resets to the start-up data', async () => {
    const a = await app();
    const startList = (await request(a).get('/markets')).text;
    await request(a).post('/__stub/markets').send(market('new-1')).expect(201);
    await request(a).post('/__stub/markets').send(market('new-1')).expect(409);
    await request(a).get('/markets/new-1').expect(200);
    const patched = await request(a).patch('/__stub/markets/new-1').send({ yes_price: 0.9, no_price: 0.1, category: 'extra' }).expect(200);
    expect(patched.body).toMatchObject({ market_id: 'new-1', yes_price: 0.9, category: 'extra' });
    expect((await request(a).get('/markets/new-1')).body).toMatchObject({ yes_price: 0.9, category: 'extra' });
    await request(a).patch('/__stub/markets/new-1').send({ resolution_date: '2026-02-30' }).expect(400);
    await request(a).patch('/__stub/markets/nope').send({ title: 'x' }).expect(404);
    await request(a).put('/__stub/markets/new-2').send(market('other')).expect(400);
    await request(a).put('/__stub/markets/new-2').send(market('new-2')).expect(201);
    await request(a).delete('/__stub/markets/new-1').expect(204);
    await request(a).delete('/__stub/markets/new-1').expect(404);
    await request(a).get('/markets/new-1').expect(404);
    await request(a).post('/__stub/reset').set('content-type', 'application/json').expect(204);
    expect((await request(a).get('/markets')).text).toBe(startList);
  });

  it('sets a market\'s deviations and ticks prices through the API', async () => {
    const a = await app();
    const list = (await request(a).get('/markets')).body as { market_id: string; yes_price: number }[];
    const id = list[0]?.market_id ?? '';
    await request(a).put(`/__stub/markets/${id}/deviations`).send(['listed-but-404']).expect(200);
    await request(a).get(`/markets/${id}`).expect(404);
    await request(a).put(`/__stub/markets/${id}/deviations`).send(['wobbly']).expect(400);
    expect((await request(a).post('/__stub/tick').send({ n: 3 }).expect(200)).body).toEqual({ tick: 3 });
  });

  it('sets behaviours at runtime and clears them', async () => {
    const a = await app();
    await request(a).put('/__stub/behaviours/global').send({ status: 503 }).expect(200);
    await request(a).get('/markets').expect(503);
    await request(a).put('/__stub/behaviours/global').send({ status: 42 }).expect(400);
    await request(a).delete('/__stub/behaviours').expect(204);
    await request(a).get('/markets').expect(200);
    const rule = (await request(a).post('/__stub/behaviours/rules').send({ match: { route: 'list' }, behaviour: { status: 500 }, times: 1 }).expect(201)).body as { id: string };
    expect((await request(a).get('/__stub/behaviours')).body.rules).toHaveLength(1);
    await request(a).get('/markets').expect(500);
    await request(a).get('/markets').expect(200);
    await request(a).delete(`/__stub/behaviours/rules/${rule.id}`).expect(404);
  });

  it('answers malformed JSON bodies with 400', async () => {
    const a = await app();
    const res = await request(a).put('/__stub/markets').set('content-type', 'application/json').send('[{"market_id":').expect(400);
    expect(res.body.message).toContain('not valid JSON');
  });
});

describe('admin API: access', () => {
  it('admin off: /__stub/* answers 404 like any unknown route', async () => {
    const a = await app({ admin: false });
    const res = await request(a).get('/__stub/requests').expect(404);
    expect(res.body).toMatchObject({ error: 'route_not_found' });
    await request(a).put('/__stub/markets').send([]).expect(404);
  });

  it('token set: 401 without it or with a wrong one, 200 with it', async () => {
    const a = await app({ adminToken: 's3cret' });
    const res = await request(a).get('/__stub/requests').expect(401);
    expect(res.headers['www-authenticate']).toContain('Bearer');
    await request(a).get('/__stub/requests').set('authorization', 'Bearer wrong!').expect(401);
    await request(a).get('/__stub/requests').set('authorization', 'Bearer s3cret').expect(200);
  });
});

describe('request journal', () => {
  it('records method, path, query, headers, status, duration and behaviour; filters, counts, clears; never admin calls', async () => {
    const s = await startMarketStub({ count: 5, clock: '2026-01-01' });
    open.push(s);
    const id = (await s.catalog())[0]?.market_id ?? '';
    await fetch(`${s.url}/markets?limit=2&tag=a&tag=b`, { headers: { 'x-client': 'dashboard' } });
    await fetch(`${s.url}/markets/${id}`, { headers: { prefer: 'code=503' } });
    await fetch(`${s.url}/nope`);
    await fetch(`${s.url}/__stub/requests`);
    const all = await s.requests();
    expect(all.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /markets 200', `GET /markets/${id} 503`, 'GET /nope 404']);
    expect(all[0]).toMatchObject({ seq: 1, query: { limit: '2', tag: ['a', 'b'] }, headers: expect.objectContaining({ 'x-client': 'dashboard' }), behaviour: [] });
    expect(all[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(new Date(all[0]?.time ?? '').toString()).not.toBe('Invalid Date');
    expect(all[1]?.behaviour).toEqual(['status=503 (Prefer)']);
    expect(await s.requests({ path: `/markets/${id}` })).toHaveLength(1);
    expect(await s.requestCount({ status: 404 })).toBe(1);
    const viaHttp = (await (await fetch(`${s.url}/__stub/requests?pathPrefix=/markets`)).json()) as { total: number; requests: unknown[] };
    expect(viaHttp.requests).toHaveLength(2);
    expect(await (await fetch(`${s.url}/__stub/requests/count?method=GET`)).json()).toEqual({ count: 3 });
    expect((await fetch(`${s.url}/__stub/requests`, { method: 'DELETE' })).status).toBe(204);
    expect(await s.requestCount()).toBe(0);
  });

  it('stays within its bound after 100,000 requests', async () => {
    const s = await startMarketStub({ count: 5, clock: '2026-01-01', journalSize: 50 });
    open.push(s);
    const url = `${s.url}/markets/${(await s.catalog())[1]?.market_id ?? ''}`;
    const result = await new Promise<{ errors: number; '2xx': number }>((resolve, reject) => {
      autocannon({ url, connections: 20, amount: 100_000 }, (error, r) => (error ? reject(error) : resolve(r)));
    });
    expect(result.errors).toBe(0);
    expect(result['2xx']).toBe(100_000);
    const journal = (await (await fetch(`${s.url}/__stub/requests?limit=0`)).json()) as { total: number; size: number };
    expect(journal.total).toBe(100_000);
    expect(journal.size).toBe(50);
    const held = await s.requests();
    expect(held).toHaveLength(50);
    expect(held[0]?.seq).toBe(99_951);
    expect(held[49]?.seq).toBe(100_000);
  }, 120_000);
});
