// createApp mounted under a prefix in a user's own Express app (`userApp.use('/stub', …)`), the
// way the Express adapter is meant to be used: every route of the stub answers below the prefix,
// the OpenAPI document names it, the admin API works there, and the user's own routes stay theirs.
import express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, type MarketCatalog } from '../../src/index.js';

let catalog: MarketCatalog;
beforeAll(async () => {
  catalog = await buildCatalog({ seed: 11, count: 6, clock: '2026-04-01' });
});

function userApp(options: Partial<Parameters<typeof createApp>[0]> = {}) {
  const app = express();
  app.get('/own', (_req, res) => {
    res.json({ mine: true });
  });
  app.use('/stub', createApp({ catalog, clock: '2026-04-01', ...options }));
  app.use((_req, res) => {
    res.status(404).json({ owner: 'user app' });
  });
  return app;
}

describe('createApp under a prefix in a user\'s Express app', () => {
  it('serves the list, a market, health and the OpenAPI document below the prefix, with the stub clock\'s Date', async () => {
    const app = userApp();
    const list = await request(app).get('/stub/markets').expect(200);
    expect(list.headers['date']).toMatch(/^Wed, 01 Apr 2026 /);
    const id = (list.body as { market_id: string }[])[0]?.market_id ?? '';
    expect((await request(app).get(`/stub/markets/${encodeURIComponent(id)}`).expect(200)).body).toMatchObject({ market_id: id });
    expect((await request(app).get('/stub/healthz').expect(200)).body).toEqual({ status: 'ok' });
    const doc = (await request(app).get('/stub/openapi.json').set('Host', 'api.local:3000').expect(200)).body as { servers: { url: string }[] };
    expect(doc.servers[0]?.url).toBe('http://api.local:3000/stub');
  });

  it('answers its own 404 and 405 below the prefix, and leaves every other path to the user\'s app', async () => {
    const app = userApp();
    const missing = await request(app).get('/stub/nope').expect(404);
    expect(missing.body).toMatchObject({ error: 'route_not_found', path: '/nope' });
    expect((await request(app).post('/stub/markets').expect(405)).headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect((await request(app).get('/own').expect(200)).body).toEqual({ mine: true });
    expect((await request(app).get('/markets').expect(404)).body).toEqual({ owner: 'user app' });
  });

  it('serves the admin API below the prefix (token included) and journals the paths as the stub sees them', async () => {
    const app = userApp({ adminToken: 'mount-tok' });
    await request(app).get('/stub/__stub').expect(401);
    const auth = { authorization: 'Bearer mount-tok' };
    const market = { market_id: 'M-1', title: 'Will M?', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' };
    await request(app).put('/stub/__stub/markets/M-1').set(auth).send(market).expect(201);
    expect((await request(app).get('/stub/markets/M-1').expect(200)).body).toEqual(market);
    const journal = (await request(app).get('/stub/__stub/requests').set(auth).expect(200)).body as { requests: { path: string; status: number }[] };
    expect(journal.requests.map((r) => [r.path, r.status])).toEqual([['/markets/M-1', 200]]);
  });
});
