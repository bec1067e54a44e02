// market-stub/fetch: the stub as `(Request) => Promise<Response>`, driven here with web-standard
// Requests as Bun.serve, Deno.serve or a Worker hands them over, and through the MarketStubClient
// contract (its fetch calls reach the handler through msw/node, no server listening).
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createFetchHandler, MarketStubError } from '../../src/fetch.js';
import { CONTRACT_STUB, describeMarketStubClient } from '../support/market-stub-client-contract.js';

const ORIGIN = 'http://127.0.0.1:8787';

describeMarketStubClient('createFetchHandler (market-stub/fetch)', async () => {
  const handler = createFetchHandler({ ...CONTRACT_STUB });
  const server = setupServer(http.all('http://fetch-handler.market-stub.test/*', ({ request }) => handler.fetch(request)));
  server.listen({ onUnhandledRequest: 'bypass' });
  return { client: { ...handler, url: 'http://fetch-handler.market-stub.test' }, close: async () => server.close() };
});

const call = (handler: { fetch(r: Request): Promise<Response> }, path: string, init: RequestInit = {}) => handler.fetch(new Request(`${ORIGIN}${path}`, init));

describe('createFetchHandler answers every route the node:http server answers', () => {
  it('serves the list, a market, health, the OpenAPI document, 404, 405 and a preflight, each with the clock Date', async () => {
    const handler = createFetchHandler({ seed: 3, count: 5, clock: '2026-02-03' });
    const list = await call(handler, '/markets');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(list.headers.get('date')).toMatch(/^Tue, 03 Feb 2026 \d\d:\d\d:\d\d GMT$/);
    const ids = ((await list.json()) as { market_id: string }[]).map((m) => m.market_id);
    expect(ids).toHaveLength(5);
    const item = await call(handler, `/markets/${encodeURIComponent(ids[0] ?? '')}`);
    expect([item.status, ((await item.json()) as { market_id: string }).market_id]).toEqual([200, ids[0]]);
    expect(await (await call(handler, '/healthz')).json()).toEqual({ status: 'ok' });
    const openapi = await call(handler, '/openapi.json');
    expect(((await openapi.json()) as { servers: { url: string }[] }).servers[0]?.url).toBe(ORIGIN);
    const missing = await call(handler, '/nope');
    expect([missing.status, ((await missing.json()) as { error: string }).error]).toEqual([404, 'route_not_found']);
    const post = await call(handler, '/markets', { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
    const preflight = await call(handler, '/markets', { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    expect(await handler.requestCount()).toBe(7);
  });

  it('serves the admin API with its token and Host rules, and the journal it keeps', async () => {
    const handler = createFetchHandler({ seed: 3, count: 5, adminToken: 'tok-1' });
    expect((await call(handler, '/__stub')).status).toBe(401);
    const auth = { authorization: 'Bearer tok-1' };
    const index = await call(handler, '/__stub', { headers: auth });
    expect(((await index.json()) as { name: string }).name).toBe('market-stub admin API');
    const market = { market_id: 'F-1', title: 'Will F?', status: 'active', yes_price: 0.25, no_price: 0.75, resolution_date: '2027-01-01' };
    const put = await call(handler, '/__stub/markets/F-1', { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(market) });
    expect(put.status).toBe(201);
    const patch = await call(handler, '/__stub/markets/F-1', { method: 'PATCH', headers: { ...auth, 'content-type': 'application/merge-patch+json' }, body: '{"title":"Will F, now?"}' });
    expect(((await patch.json()) as { title: string }).title).toBe('Will F, now?');
    expect(((await (await call(handler, '/markets/F-1')).json()) as { title: string }).title).toBe('Will F, now?');
    const journal = (await (await call(handler, '/__stub/requests', { headers: auth })).json()) as { requests: { path: string }[] };
    expect(journal.requests.map((r) => r.path)).toEqual(['/markets/F-1']);
    const foreign = await handler.fetch(new Request('http://rebound.example/__stub', { headers: auth }));
    expect(foreign.status).toBe(403);
    const big = await call(handler, '/__stub/markets', { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: `[${'1,'.repeat(200_000)}1]` });
    expect([big.status, ((await big.json()) as { error: string }).error]).toEqual([413, 'limit_exceeded']);
    expect((await call(handler, '/__stub/ui', { headers: auth })).status).toBe(404);
  });

  it('answers under basePath, 404 outside it, and names the mount in the OpenAPI server URL', async () => {
    const handler = createFetchHandler({ count: 2, basePath: '/api/stub' });
    expect((await call(handler, '/api/stub/markets')).status).toBe(200);
    expect((await call(handler, '/markets')).status).toBe(404);
    const doc = (await (await call(handler, '/api/stub/openapi.json')).json()) as { servers: { url: string }[] };
    expect(doc.servers[0]?.url).toBe(`${ORIGIN}/api/stub`);
    expect(handler.url).toBe('/api/stub');
  });

  it('delays with setTimeout, and a reset fault is a network error (Response.error())', async () => {
    const handler = createFetchHandler({ count: 2, rules: [{ match: { route: 'list' }, behaviour: { delayMs: 120 } }] });
    const started = performance.now();
    expect((await call(handler, '/markets')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    await handler.setBehaviour({ fault: 'reset' });
    const reset = await call(handler, '/healthz');
    expect(reset.status).toBe(200);
    const cut = await call(handler, '/markets');
    expect(cut.type).toBe('error');
    expect((await handler.requests()).at(-1)?.status).toBeNull();
  });

  it('answers a market alike each time, whatever a client did to an earlier answer, and with new bytes and length once it is edited', async () => {
    const handler = createFetchHandler({ seed: 3, count: 3, clock: '2026-02-03' });
    const id = (await handler.catalog())[0]?.market_id ?? '';
    const path = `/markets/${encodeURIComponent(id)}`;
    const first = await call(handler, path);
    const firstBytes = new Uint8Array(await first.arrayBuffer());
    first.headers.set('x-added', '1');
    first.headers.delete('content-type');
    first.headers.set('content-length', '1');
    const second = await call(handler, path);
    expect([second.headers.get('x-added'), second.headers.get('content-type'), second.headers.get('content-length')]).toEqual([null, 'application/json; charset=utf-8', String(firstBytes.length)]);
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(firstBytes);
    await handler.patchMarket(id, { title: 'A title much longer than the one the generator gave this market' });
    const edited = await call(handler, path);
    const editedBytes = new Uint8Array(await edited.arrayBuffer());
    expect(((JSON.parse(new TextDecoder().decode(editedBytes))) as { title: string }).title).toBe('A title much longer than the one the generator gave this market');
    expect(edited.headers.get('content-length')).toBe(String(editedBytes.length));
    const head = await call(handler, path, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, String(editedBytes.length), 0]);
  });

  it('reads path and query from any request URL as the URL standard does: empty query, fragment, https, a port, percent-encoding', async () => {
    const handler = createFetchHandler({ seed: 3, count: 3 });
    const urls = ['http://h.test/markets?', 'http://h.test/markets?limit=2#top?x=1', 'https://h.test:8443/markets/%41%2Fb', 'http://h.test/healthz#frag', 'http://h.test:80/markets?a=%20&a=2'];
    for (const url of urls) await handler.fetch(new Request(url));
    const seen = (await handler.requests()).map((r) => [r.path, r.query]);
    expect(seen).toEqual([['/markets', {}], ['/markets', { limit: '2' }], ['/markets/%41%2Fb', {}], ['/healthz', {}], ['/markets', { a: [' ', '2'] }]]);
    const doc = (await (await handler.fetch(new Request('https://h.test:8443/openapi.json'))).json()) as { servers: { url: string }[] };
    expect(doc.servers[0]?.url).toBe('https://h.test:8443');
    expect((await handler.requests()).at(-1)?.headers['host']).toBe('h.test:8443');
  });

  it('refuses a bad option by name before anything is built', () => {
    expect(() => createFetchHandler({ basePath: 'api/' })).toThrow(MarketStubError);
    expect(() => createFetchHandler({ basePath: 'api/' })).toThrow(/createFetchHandler: basePath: expected a path such as "\/api\/stub"/);
    expect(() => createFetchHandler({ port: 1 } as never)).toThrow(/createFetchHandler: port: expected a known option/);
  });
});
