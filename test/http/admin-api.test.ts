import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, startMarketStub, type MarketStub } from '../../src/index.js';
import { MarketStubError, type MarketStubErrorCode } from '../../src/floor/market-stub-error.js';

const market = (id: string, extra: Record<string, unknown> = {}) => ({ market_id: id, title: `Will ${id} happen?`, status: 'active', yes_price: 0.3, no_price: 0.7, resolution_date: '2027-05-01', ...extra });
const json = { 'content-type': 'application/json' };

async function app(options: Record<string, unknown> = {}) {
  const catalog = await buildCatalog({ markets: [market('a'), market('b')], seed: 1, count: 0, clock: '2026-01-01' });
  return createApp({ catalog, ...options });
}

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** The admin error shape, with nothing else in it. */
function expectAdminShape(body: Record<string, unknown>, status: number, error: string) {
  expect(body).toMatchObject({ status, error, message: expect.any(String) });
  const allowed = ['status', 'error', 'message', 'option', 'expected', 'found', 'findings', 'market_id'];
  expect(Object.keys(body).filter((k) => !allowed.includes(k))).toEqual([]);
}

/** What the remote client (connectMarketStub) does with an admin error body: the same MarketStubError, rebuilt. */
function rebuild(body: Record<string, unknown>, where: string): MarketStubError {
  return new MarketStubError({
    code: String(body['error']).toUpperCase() as MarketStubErrorCode, where, message: String(body['message']),
    ...(body['option'] !== undefined ? { option: String(body['option']) } : {}),
    ...(body['expected'] !== undefined ? { expected: String(body['expected']) } : {}),
    ...(body['found'] !== undefined ? { foundText: String(body['found']) } : {}),
    ...(body['findings'] !== undefined ? { findings: body['findings'] as MarketStubError['findings'] } : {}),
    ...(body['market_id'] !== undefined ? { marketId: String(body['market_id']) } : {}),
  });
}

describe('admin API errors: one JSON shape whatever the profile', () => {
  it.each(['default', 'problem', 'error-object'] as const)('profile errors=%s: admin errors keep the admin shape, market errors the profile shape', async (errors) => {
    const a = await app({ profile: { errors } });
    const res = await request(a).put('/__stub/markets').set(json).send([market('c', { yes_price: '0.3' })]).expect(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expectAdminShape(res.body, 400, 'markets_invalid');
    expect(res.body.findings).toEqual([{ pointer: '/0/yes_price', expected: 'number', found: '"0.3"', message: expect.stringContaining('/0/yes_price') }]);
    expect(res.body.message).toMatch(/^PUT \/__stub\/markets: invalid markets \(1 problem\); nothing was changed/);
    const marketError = await request(a).get('/markets/nope').expect(404);
    if (errors === 'problem') expect(marketError.body).toHaveProperty('title');
    if (errors === 'error-object') expect(marketError.body.error).toHaveProperty('code', 'market_not_found');
  });

  it.each([
    ['PATCH', '/__stub/markets/nope', { title: 'x' }, 404, 'market_not_found', { market_id: 'nope' }],
    ['DELETE', '/__stub/markets/nope', undefined, 404, 'market_not_found', { market_id: 'nope' }],
    ['PUT', '/__stub/markets/nope/deviations', ['listed-but-404'], 404, 'market_not_found', { market_id: 'nope' }],
    ['GET', '/__stub/markets/nope', undefined, 404, 'market_not_found', { market_id: 'nope' }],
    ['DELETE', '/__stub/behaviours/rules/r9', undefined, 404, 'rule_not_found', { option: 'ruleId', found: '"r9"' }],
    ['POST', '/__stub/tick', { n: 0 }, 400, 'option_invalid', { option: 'n', expected: 'an integer from 1 to 10000', found: '0' }],
    ['PUT', '/__stub/behaviours/global', { status: 101 }, 400, 'option_invalid', { option: 'behaviour.status', found: '101' }],
    ['PUT', '/__stub/markets/a/deviations', 'nope', 400, 'option_invalid', { option: 'body', expected: 'valid JSON' }],
    ['PUT', '/__stub/markets/a/deviations', ['wobbly'], 400, 'option_invalid', { option: 'deviations[0]' }],
    ['POST', '/__stub/markets', market('a'), 409, 'option_invalid', { option: 'market_id', found: '"a"' }],
    ['PUT', '/__stub/markets/a', market('b'), 400, 'option_invalid', { option: 'market_id' }],
    ['GET', '/__stub/requests?limit=5000', undefined, 400, 'option_invalid', { option: 'filter.limit', expected: 'an integer from 0 to 1000' }],
    ['GET', '/__stub/requests?colour=red', undefined, 400, 'option_invalid', { option: 'filter.colour' }],
    ['GET', '/__stub/nope', undefined, 404, 'admin_route_not_found', { option: 'path' }],
    ['GET', '/__stub/markets/a/b/c', undefined, 404, 'admin_route_not_found', {}],
  ] as const)('%s %s → %i %s', async (method, path, body, status, error, fields) => {
    const a = await app();
    let req = request(a)[method.toLowerCase() as 'get'](path);
    if (method !== 'GET' && method !== 'DELETE') req = req.set(json);
    const res = await (body === undefined ? req : req.send(body as object)).expect(status);
    expectAdminShape(res.body, status, error);
    expect(res.body).toMatchObject(fields);
  });

  it('405 for a known path with another method, with Allow, code admin_route_not_found', async () => {
    const res = await request(await app()).get('/__stub/reset').expect(405);
    expectAdminShape(res.body, 405, 'admin_route_not_found');
    expect(res.headers['allow']).toBe('POST');
    expect((await request(await app()).post('/__stub/requests').set(json).expect(405)).headers['allow']).toBe('GET, HEAD, DELETE');
  });

  it('GET /__stub answers an index of routes and limits, not market_not_found', async () => {
    const res = await request(await app()).get('/__stub').expect(200);
    expect(res.body).toMatchObject({ name: 'market-stub admin API', version: expect.any(String), console: { method: 'GET', path: '/__stub/ui' }, limits: { bodyBytes: 262_144, jsonDepth: 64, marketsPerRequest: 10_000, journalEntriesPerRead: 1000 } });
    expect(res.body.routes).toContainEqual({ method: 'PATCH', path: '/__stub/markets/{id}', describe: expect.stringContaining('RFC 7396') });
    expect((await request(await app()).get('/__stub/').expect(200)).body.name).toBe('market-stub admin API');
  });

  it('an admin error rebuilds into the same MarketStubError the in-process handle throws (message apart from where)', async () => {
    const stub = await startMarketStub({ markets: [market('a')] });
    open.push(stub);
    const cases: [() => Promise<unknown>, string, string, unknown][] = [
      [() => stub.setMarkets([market('x', { no_price: 'high' })]), 'PUT', '/__stub/markets', [market('x', { no_price: 'high' })]],
      [() => stub.patchMarket('a', { resolution_date: '2026-02-30' }), 'PATCH', '/__stub/markets/a', { resolution_date: '2026-02-30' }],
      [() => stub.patchMarket('zz', { title: 't' }), 'PATCH', '/__stub/markets/zz', { title: 't' }],
      [() => stub.tick(0), 'POST', '/__stub/tick', { n: 0 }],
      [() => stub.removeRule('nope'), 'DELETE', '/__stub/behaviours/rules/nope', undefined],
      [() => stub.setBehaviour({ delayMs: -1 }), 'PUT', '/__stub/behaviours/global', { delayMs: -1 }],
      [() => stub.patchMarket('a', JSON.parse('{"__proto__":{"title":"ghost"}}') as Record<string, unknown>), 'PATCH', '/__stub/markets/a', '{"__proto__":{"title":"ghost"}}'],
    ];
    for (const [call, method, path, body] of cases) {
      const local = await call().then(() => undefined, (e: unknown) => e);
      expect(local).toBeInstanceOf(MarketStubError);
      const res = await fetch(`${stub.url}${path}`, { method, headers: json, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
      const remote = rebuild((await res.json()) as Record<string, unknown>, (local as MarketStubError).where);
      const l = local as MarketStubError;
      expect({ code: remote.code, option: remote.option, expected: remote.expected, found: remote.found, marketId: remote.marketId, findings: remote.findings })
        .toEqual({ code: l.code, option: l.option, expected: l.expected, found: l.found, marketId: l.marketId, findings: l.findings });
      expect(remote.message.replace(/^[A-Z]+ \/__stub[^:]*: /, '')).toBe(l.message.slice(l.where.length + 2));
    }
  });
});

describe('admin API: bounded input', () => {
  it('refuses a body over 256 KiB with 413 while reading, declared or chunked, and closes the connection', async () => {
    const stub = await startMarketStub({ count: 3 });
    open.push(stub);
    const big = JSON.stringify(Array.from({ length: 2500 }, (_, i) => market(`m-${i}`)));
    expect(big.length).toBeGreaterThan(262_144);
    const res = await fetch(`${stub.url}/__stub/markets`, { method: 'PUT', headers: json, body: big });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toMatchObject({ status: 413, error: 'limit_exceeded', option: 'body', expected: 'at most 262144 bytes' });
    const stream = new ReadableStream({ start(c) { for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode(' '.repeat(50_000))); c.close(); } });
    const chunked = await fetch(`${stub.url}/__stub/markets`, { method: 'PUT', headers: json, body: stream, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await stub.catalog()).length).toBe(3);
    expect((await fetch(`${stub.url}/healthz`)).status).toBe(200);
  });

  it.each(['/__stub/markets', '/__stub/markets/x', '/__stub/behaviours/global', '/__stub/behaviours/rules', '/__stub/tick', '/__stub/markets/x/deviations'])(
    '100,000-level nested JSON to %s answers 400 limit_exceeded (no stack overflow)', async (path) => {
      const a = await app();
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const method = path.endsWith('rules') || path.endsWith('tick') ? 'post' : 'put';
      const res = await request(a)[method](path).set(json).send(deep).expect(400);
      expect(res.body).toMatchObject({ error: 'limit_exceeded', option: 'body', expected: 'JSON nested at most 64 levels' });
    });

  it.each([
    ['null', 'null', 'application/json', 400, 'option_invalid'],
    ['text/plain', '{"match":{},"behaviour":{}}', 'text/plain', 415, 'option_invalid'],
    ['a form', 'a=1', 'application/x-www-form-urlencoded', 415, 'option_invalid'],
    ['no body', '', 'application/json', 400, 'option_invalid'],
    ['bad JSON', '{"match":', 'application/json', 400, 'option_invalid'],
    ['an unknown rule field', '{"match":{},"behaviour":{},"when":1}', 'application/json', 400, 'option_invalid'],
  ])('POST /__stub/behaviours/rules with %s answers %i, never 500', async (_label, body, type, status, error) => {
    const res = await request(await app()).post('/__stub/behaviours/rules').set('content-type', type).send(body).expect(status);
    expectAdminShape(res.body, status, error);
  });

  it('more than 10,000 markets per call are refused (handle and admin alike) before validation', async () => {
    const stub = await startMarketStub({ markets: [market('a')] });
    open.push(stub);
    const many = Array.from({ length: 10_001 }, () => ({}));
    await expect(stub.setMarkets(many)).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', option: 'markets', found: '10001' });
    const res = await fetch(`${stub.url}/__stub/markets`, { method: 'PUT', headers: json, body: JSON.stringify(many) });
    expect(await res.json()).toMatchObject({ status: 413, error: 'limit_exceeded', option: 'markets', found: '10001' });
  });
});

describe('PATCH /__stub/markets/{id}: no schema-invalid market is ever served', () => {
  it('the issue\'s {"title":null,"__proto__":{"title":"ghost"}} is refused and list and item stay as they were', async () => {
    const a = await app();
    const listBefore = (await request(a).get('/markets')).text;
    const itemBefore = (await request(a).get('/markets/a')).text;
    const res = await request(a).patch('/__stub/markets/a').set(json).send('{"title":null,"__proto__":{"title":"ghost"}}').expect(400);
    expect(res.body).toMatchObject({ error: 'option_invalid', option: 'patch/__proto__' });
    expect((await request(a).get('/markets')).text).toBe(listBefore);
    expect((await request(a).get('/markets/a')).text).toBe(itemBefore);
  });

  it.each(['constructor', 'prototype', 'hasOwnProperty', 'toString'])('a member named %s (any depth) is refused, in PUT and PATCH', async (key) => {
    const a = await app();
    await request(a).patch('/__stub/markets/a').set(json).send(`{"meta":{"${key}":1}}`).expect(400);
    await request(a).put('/__stub/markets/c').set(json).send(JSON.stringify(market('c')).replace('{', `{"${key}":{},`)).expect(400);
    await request(a).put('/__stub/markets').set(json).send(`[${JSON.stringify(market('c')).replace('{', `{"${key}":1,`)}]`).expect(400);
  });

  it('a patch that removes a required member, or changes market_id, changes nothing', async () => {
    const a = await app();
    const before = (await request(a).get('/markets/a')).text;
    expect((await request(a).patch('/__stub/markets/a').set(json).send({ title: null }).expect(400)).body.findings[0]).toMatchObject({ pointer: '/0/title' });
    expect((await request(a).patch('/__stub/markets/a').set(json).send({ market_id: 'z' }).expect(400)).body).toMatchObject({ option: 'patch.market_id' });
    expect((await request(a).get('/markets/a')).text).toBe(before);
  });

  it('merges nested objects (RFC 7396), and application/merge-patch+json is accepted', async () => {
    const a = await app();
    await request(a).put('/__stub/markets/a').set(json).send(market('a', { meta: { venue: 'x', tags: ['t'], deep: { keep: 1, drop: 2 } } })).expect(200);
    const res = await request(a).patch('/__stub/markets/a').set('content-type', 'application/merge-patch+json').send(JSON.stringify({ meta: { deep: { drop: null, add: 3 }, tags: ['u'] } })).expect(200);
    expect(res.body.meta).toEqual({ venue: 'x', tags: ['u'], deep: { keep: 1, add: 3 } });
    expect((await request(a).get('/markets/a')).body.meta).toEqual(res.body.meta);
  });
});
