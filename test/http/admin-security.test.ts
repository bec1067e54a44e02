import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, startMarketStub, type MarketStub } from '../../src/index.js';
import { foreignOrigin, hostAllowed } from '../../src/runtime/admin/admin-access.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function app(options: Record<string, unknown> = {}) {
  return createApp({ catalog: await buildCatalog({ seed: 3, count: 3, clock: '2026-01-01' }), ...options });
}

describe('DNS rebinding: the admin API checks Host', () => {
  it.each([
    ['127.0.0.1:4010', true], ['[::1]:4010', true], ['10.1.2.3', true], ['localhost:4010', true], ['app.localhost', true],
    ['evil.example', false], ['evil.example:4010', false], ['localhost.evil.example', false], ['market-stub:4010', false], ['[::1', false],
  ])('Host %s allowed by default: %s', (host, allowed) => {
    expect(hostAllowed(host, [])).toBe(allowed);
  });

  it('names, .domains and * in allowedHosts', () => {
    expect(hostAllowed('market-stub:4010', ['market-stub'])).toBe(true);
    expect(hostAllowed('stub.ci.internal', ['.ci.internal'])).toBe(true);
    expect(hostAllowed('ci.internal', ['.ci.internal'])).toBe(true);
    expect(hostAllowed('xci.internal', ['.ci.internal'])).toBe(false);
    expect(hostAllowed('anything.example', ['*'])).toBe(true);
  });

  it('Host: evil.example gets 403 on every admin route (journal, catalog, reset) while the market routes still answer', async () => {
    const a = await app();
    await request(a).get('/markets').set('authorization', 'Bearer secret-token').expect(200);
    for (const [method, path] of [['get', '/__stub/requests'], ['put', '/__stub/markets'], ['delete', '/__stub/requests'], ['post', '/__stub/reset'], ['get', '/__stub']] as const) {
      const res = await request(a)[method](path).set('host', 'evil.example').set('content-type', 'application/json').send(method === 'put' ? '[]' : '');
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'forbidden', option: 'host', found: '"evil.example"' });
      expect(res.text).not.toContain('secret-token');
    }
    await request(a).get('/markets').set('host', 'evil.example').expect(200);
    expect((await request(a).get('/markets')).body).toHaveLength(3);
  });

  it('a stub started with allowedHosts accepts that name; one bound to a host name accepts its own name', async () => {
    const a = await app({ allowedHosts: ['market-stub'] });
    await request(a).get('/__stub/requests').set('host', 'market-stub:4010').expect(200);
    const stub = await startMarketStub({ host: 'localhost', count: 1 });
    open.push(stub);
    expect((await fetch(`http://localhost:${stub.port}/__stub/requests`)).status).toBe(200);
  });
});

describe('cross-site requests', () => {
  it.each([
    ['text/plain', '{}'], ['application/x-www-form-urlencoded', 'a=1'], ['multipart/form-data; boundary=x', '--x--'], [undefined, ''],
  ])('a simple POST (%s) to /__stub/reset and /__stub/tick is refused with 415 and changes nothing', async (type, body) => {
    const a = await app();
    await request(a).post('/__stub/tick').set('content-type', 'application/json').send({ n: 2 }).expect(200);
    for (const path of ['/__stub/reset', '/__stub/tick']) {
      let req = request(a).post(path).set('origin', 'http://evil.example');
      req = type === undefined ? req : req.set('content-type', type);
      const res = await req.send(body);
      expect([403, 415]).toContain(res.status);
      const plain = await (type === undefined ? request(a).post(path) : request(a).post(path).set('content-type', type)).send(body);
      expect(plain.status).toBe(415);
      expect(plain.body).toMatchObject({ error: 'option_invalid', option: 'content-type', expected: 'application/json or application/merge-patch+json' });
    }
    // The tick count shows neither reset nor tick ran.
    expect((await request(a).post('/__stub/tick').set('content-type', 'application/json').send({ n: 1 }).expect(200)).body).toEqual({ tick: 3 });
  });

  it('a foreign Origin is refused even with application/json; the stub\'s own origin is not', async () => {
    const stub = await startMarketStub({ count: 2 });
    open.push(stub);
    const foreign = await fetch(`${stub.url}/__stub/reset`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: 'forbidden', option: 'origin' });
    const own = await fetch(`${stub.url}/__stub/reset`, { method: 'POST', headers: { 'content-type': 'application/json', origin: stub.url } });
    expect(own.status).toBe(204);
    expect(foreignOrigin('null', '127.0.0.1:1')).toBe(true);
  });

  it('never answers a CORS preflight on the admin API (403, no Access-Control-* headers); the market routes still do', async () => {
    const a = await app();
    const res = await request(a).options('/__stub/markets').set('origin', 'http://evil.example').set('access-control-request-method', 'PUT').expect(403);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control'))).toEqual([]);
    expect(res.body).toMatchObject({ error: 'forbidden', option: 'method' });
    const market = await request(a).options('/markets').set('origin', 'http://x.example').set('access-control-request-method', 'GET').expect(204);
    expect(market.headers['access-control-allow-origin']).toBe('*');
    expect((await request(a).get('/__stub/requests')).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('journal secrets', () => {
  it('redacts Authorization, Proxy-Authorization and Cookie values by default, keeping scheme and cookie names', async () => {
    const stub = await startMarketStub({ count: 2 });
    open.push(stub);
    await fetch(`${stub.url}/markets`, { headers: { authorization: 'Bearer abc.def.ghi', cookie: 'session=s3cr3t; theme=dark', 'proxy-authorization': 'Basic dXNlcjpwYXNz', 'x-trace': 'keep-me' } });
    const [entry] = await stub.requests();
    expect(entry?.headers).toMatchObject({ authorization: 'Bearer [redacted]', cookie: 'session=[redacted]; theme=[redacted]', 'proxy-authorization': 'Basic [redacted]', 'x-trace': 'keep-me' });
    const text = await (await fetch(`${stub.url}/__stub/requests`)).text();
    for (const secret of ['abc.def.ghi', 's3cr3t', 'dark', 'dXNlcjpwYXNz']) expect(text).not.toContain(secret);
  });

  it('journalHeaders: "full" keeps them', async () => {
    const stub = await startMarketStub({ count: 2, journalHeaders: 'full' });
    open.push(stub);
    await fetch(`${stub.url}/markets`, { headers: { authorization: 'Bearer abc' } });
    expect((await stub.requests())[0]?.headers['authorization']).toBe('Bearer abc');
  });
});

describe('binding beyond loopback', () => {
  it('with the admin API on and no token, warns once naming the risk and the fix; not with a token or on loopback', async () => {
    const lines: string[] = [];
    const errorLog = (line: string) => lines.push(line);
    open.push(await startMarketStub({ host: '0.0.0.0', count: 1, errorLog }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^market-stub: warning: the admin API \(\/__stub\) is on without a token/);
    expect(lines[0]).toContain('--admin-token or MARKET_STUB_ADMIN_TOKEN');
    expect(lines[0]).toContain('--admin off');
    open.push(await startMarketStub({ host: '0.0.0.0', count: 1, errorLog, adminToken: 't' }));
    open.push(await startMarketStub({ host: '0.0.0.0', count: 1, errorLog, admin: false }));
    open.push(await startMarketStub({ count: 1, errorLog }));
    expect(lines).toHaveLength(1);
  });
});
