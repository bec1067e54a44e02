// market-stub/fetch behind Fetch-API routes, as a framework calls them: the route module's GET with
// a web Request (what Next.js's App Router does), and a Hono app that hands its raw Request over.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { Hono } from 'hono';
import { GET, HEAD, OPTIONS, POST, stub } from './app/api/stub/[...path]/route.js';

const ORIGIN = 'http://localhost:3000';
afterEach(() => stub.reset());

describe('a route module (app/api/stub/[...path]/route.js)', () => {
  test('GET /api/stub/markets and /api/stub/markets/{id} answer the seeded catalog', async () => {
    const list = await GET(new Request(`${ORIGIN}/api/stub/markets`));
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('content-type'), 'application/json; charset=utf-8');
    const markets = await list.json();
    assert.equal(markets.length, 5);
    assert.deepEqual(markets.map((m) => m.market_id), (await stub.catalog()).map((m) => m.market_id));
    const item = await GET(new Request(`${ORIGIN}/api/stub/markets/${encodeURIComponent(markets[0].market_id)}`));
    assert.equal((await item.json()).market_id, markets[0].market_id);
  });

  test('HEAD has the headers and no body; a path outside the base path is a 404', async () => {
    const head = await HEAD(new Request(`${ORIGIN}/api/stub/markets`, { method: 'HEAD' }));
    assert.equal(head.status, 200);
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    assert.equal((await GET(new Request(`${ORIGIN}/api/other/markets`))).status, 404);
  });

  test('a CORS preflight is answered 204; POST on a market route is a 405 naming the allowed methods', async () => {
    const preflight = await OPTIONS(new Request(`${ORIGIN}/api/stub/markets`, { method: 'OPTIONS', headers: { origin: 'http://app.example', 'access-control-request-method': 'GET' } }));
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    const post = await POST(new Request(`${ORIGIN}/api/stub/markets`, { method: 'POST', body: '{}' }));
    assert.equal(post.status, 405);
    assert.match(post.headers.get('allow') ?? '', /GET/);
  });

  test('the controls reach the route: a 503 is answered and journaled', async () => {
    await stub.clearRequests();
    await stub.setBehaviour({ status: 503, retryAfter: 2 });
    const res = await GET(new Request(`${ORIGIN}/api/stub/markets`));
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '2');
    assert.equal(await stub.requestCount({ status: 503 }), 1);
  });
});

describe('a Hono app that mounts the handler', () => {
  const app = new Hono();
  app.all('/api/stub/*', (c) => stub.fetch(c.req.raw));

  test('answers the list, the health check and the OpenAPI document under its mount', async () => {
    assert.equal((await app.request('/api/stub/markets')).status, 200);
    assert.equal((await app.request('/api/stub/healthz')).status, 200);
    const openapi = await (await app.request('/api/stub/openapi.json')).json();
    assert.equal(openapi.openapi.startsWith('3.'), true);
    assert.ok(JSON.stringify(openapi.servers).includes('/api/stub'), `servers name the mount: ${JSON.stringify(openapi.servers)}`);
  });
});
