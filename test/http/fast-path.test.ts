import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { buildCatalog, createApp, type MarketCatalog } from '../../src/index.js';
import { createRequestHandler, listen, type RunningServer } from '../../src/server.js';

// The server answers the two market routes through a lean handler and everything else through
// Express; createApp answers all of them through Express. Both must give the same bytes.
let catalog: MarketCatalog;
let server: RunningServer;

beforeAll(async () => {
  catalog = await buildCatalog({ seed: 3, count: 40, clock: '2026-01-01' });
  server = await listen(createRequestHandler({ app: createApp({ catalog }), catalog }), { port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

describe('fast path and Express app agree', () => {
  const cases = (): [string, string][] => [
    ['GET', '/markets'],
    ['GET', '/markets/'],
    ['GET', `/markets/${catalog.entryAt(5)?.market.market_id ?? ''}`],
    ['HEAD', `/markets/${catalog.entryAt(6)?.market.market_id ?? ''}`],
    ['GET', '/markets/unknown%20id'],
    ['GET', '/markets/%E0%A4%A'],
    ['POST', '/markets'],
    ['DELETE', `/markets/${catalog.entryAt(1)?.market.market_id ?? ''}`],
    ['GET', '/markets?status=active'],
    ['GET', '/nope'],
    ['GET', '/healthz'],
  ];

  it('on status, content-type, allow and body for every case', async () => {
    for (const [method, path] of cases()) {
      const viaServer = await fetch(`${server.url}${path}`, { method });
      const viaApp = await request(createApp({ catalog }))[method.toLowerCase() as 'get'](path);
      const label = `${method} ${path}`;
      expect(viaServer.status, label).toBe(viaApp.status);
      expect(viaServer.headers.get('content-type'), label).toBe(viaApp.headers['content-type']);
      expect(viaServer.headers.get('allow') ?? undefined, label).toBe(viaApp.headers['allow']);
      expect(await viaServer.text(), label).toBe(method === 'HEAD' ? '' : viaApp.text);
    }
  });
});
