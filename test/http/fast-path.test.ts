import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { buildCatalog, createApp, type MarketCatalog } from '../../src/index.js';
import { createRequestHandler, listen, type RunningServer } from '../../src/http/server.js';
import { createStubRuntime } from '../../src/runtime/stub-runtime.js';
import { createFetchHandler } from '../../src/fetch.js';
import type { ResponseProfile } from '../../src/runtime/response-profile.js';

// The server answers the two market routes through runtime.handle before Express; createApp
// answers everything through Express (whose first middleware is the same runtime.handle).
// For every profile, both must give the same status, headers that matter, and bytes.
let catalog: MarketCatalog;
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
beforeAll(async () => {
  catalog = await buildCatalog({ seed: 3, count: 40, clock: '2026-01-01' });
});

const PROFILES: Partial<ResponseProfile>[] = [
  {},
  { envelope: 'markets', paging: 'cursor', pageSize: 7, filterStatus: true },
  { envelope: 'data', paging: 'offset', pageSize: 5, errors: 'problem' },
  { paging: 'cursor', pageSize: 10, errors: 'error-object' },
];

describe.each(PROFILES)('fast path and Express app agree for profile %j', (profile) => {
  it('on status, content-type, allow, link, CORS and body for every case', async () => {
    const serverRuntime = createStubRuntime({ catalog, profile });
    const server = await listen(createRequestHandler(serverRuntime), { port: 0, host: '127.0.0.1' });
    servers.push(server);
    const app = createApp({ catalog, profile });
    const id = (i: number) => catalog.entryAt(i)?.market.market_id ?? '';
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/markets', {}],
      ['GET', '/markets/', {}],
      ['GET', '/markets?limit=3&offset=6', {}],
      ['GET', '/markets?limit=3&cursor=bad!', {}],
      ['GET', '/markets?status=active&limit=2', {}],
      ['GET', `/markets/${id(5)}`, {}],
      ['HEAD', `/markets/${id(6)}`, {}],
      ['GET', '/markets/unknown%20id', {}],
      ['GET', '/markets/%E0%A4%A', {}],
      ['POST', '/markets', {}],
      ['DELETE', `/markets/${id(1)}`, {}],
      ['GET', `/markets/${id(2)}`, { prefer: 'code=503, retry-after=4' }],
      ['GET', '/markets', { prefer: 'code=429' }],
      ['GET', '/markets', { prefer: 'code=abc' }],
      ['OPTIONS', '/markets', { origin: 'http://app.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'prefer' }],
      ['GET', '/nope', {}],
      ['GET', '/healthz', {}],
    ];
    for (const [method, path, headers] of cases) {
      const viaServer = await fetch(`${server.url}${path}`, { method, headers });
      let call = request(app)[method.toLowerCase() as 'get'](path);
      for (const [k, v] of Object.entries(headers)) call = call.set(k, v);
      const viaApp = await call;
      const label = `${method} ${path} ${JSON.stringify(headers)}`;
      expect(viaServer.status, label).toBe(viaApp.status);
      for (const h of ['content-type', 'allow', 'link', 'retry-after', 'x-total-count', 'access-control-allow-origin', 'access-control-allow-methods']) {
        expect(viaServer.headers.get(h) ?? undefined, `${label} ${h}`).toBe(viaApp.headers[h]);
      }
      expect(await viaServer.text(), label).toBe(method === 'HEAD' ? '' : viaApp.text ?? '');
    }
  });
});

describe('a CORS preflight on every adapter', () => {
  it('is a 204 with no Content-Length and no body, over node:http, Express and the Fetch handler alike (RFC 9110 §8.6)', async () => {
    const server = await listen(createRequestHandler(createStubRuntime({ catalog })), { port: 0, host: '127.0.0.1' });
    servers.push(server);
    const headers = { origin: 'http://app.test', 'access-control-request-method': 'GET' };
    const viaServer = await fetch(`${server.url}/markets`, { method: 'OPTIONS', headers });
    const viaApp = await request(createApp({ catalog })).options('/markets').set(headers);
    const viaFetch = await createFetchHandler({ count: 2, clock: '2026-01-01' }).fetch(new Request('http://stub.test/markets', { method: 'OPTIONS', headers }));
    const seen = [
      [viaServer.status, viaServer.headers.get('content-length'), viaServer.headers.get('access-control-allow-origin')],
      [viaApp.status, viaApp.headers['content-length'] ?? null, viaApp.headers['access-control-allow-origin']],
      [viaFetch.status, viaFetch.headers.get('content-length'), viaFetch.headers.get('access-control-allow-origin')],
    ];
    for (const [status, contentLength, allowOrigin] of seen) {
      expect(status).toBe(204);
      expect(contentLength).toBeNull();
      expect(allowOrigin).toBe('*');
    }
    expect(await viaServer.text()).toBe('');
  });
});
