import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, getMarketValidator, type Market, type MarketCatalog } from '../../src/index.js';

let catalog: MarketCatalog;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  catalog = await buildCatalog({ seed: 7, count: 250, clock: '2026-01-01' });
  app = createApp({ catalog });
});

describe('GET /markets', () => {
  it('answers 200 with a bare array of valid summaries in catalog order', async () => {
    const res = await request(app).get('/markets').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(250);
    const v = getMarketValidator();
    (res.body as unknown[]).forEach((item, i) => {
      expect(v.summary(item, `/${i}`)).toEqual([]);
      expect(item).not.toHaveProperty('resolution_date');
      expect((item as Market).market_id).toBe(catalog.entryAt(i)?.market.market_id);
    });
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const get = await request(app).get('/markets');
    const head = await request(app).head('/markets').expect(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.text ?? '').toBe('');
  });

  it('sends the stub\'s own ETag (a digest of the bytes, not Express\'s) and no X-Powered-By', async () => {
    const res = await request(app).get('/markets');
    expect(res.headers['etag']).toMatch(/^"[0-9a-f]{16}"$/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('GET /markets/{market_id}', () => {
  it('answers every listed id with a valid Market whose shared fields equal the list item', async () => {
    const list = (await request(app).get('/markets')).body as Market[];
    const v = getMarketValidator();
    for (const item of list) {
      const res = await request(app).get(`/markets/${encodeURIComponent(item.market_id)}`).expect(200);
      expect(v.market(res.body)).toEqual([]);
      const { resolution_date, ...shared } = res.body as Market;
      expect(shared).toEqual(item);
      expect(resolution_date > '2026-01-01').toBe(true);
    }
  });

  it('answers an unknown id with 404 JSON naming the id', async () => {
    const res = await request(app).get('/markets/NOPE-1').expect(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toMatchObject({ status: 404, error: 'market_not_found', market_id: 'NOPE-1' });
    expect(res.body.message).toContain('"NOPE-1"');
  });

  it('answers malformed percent-encoding with 400 JSON', async () => {
    const res = await request(app).get('/markets/%E0%A4%A').expect(400);
    expect(res.body).toMatchObject({ status: 400, error: 'bad_request' });
  });
});

describe('ids are matched exactly after URL decoding', () => {
  it.each([
    ['dir-a', 'dir-a'],
    ['dir%20b%2Fwith%20space', 'dir b/with space'],
  ])('%s finds %s', async (path, id) => {
    const fx = await buildCatalog({ fixtures: new URL('../data/fixture-dir', import.meta.url).pathname, seed: 1, count: 0, clock: '2026-01-01' });
    const res = await request(createApp({ catalog: fx })).get(`/markets/${path}`).expect(200);
    expect(res.body.market_id).toBe(id);
  });

  it('is case-sensitive and does not trim', async () => {
    const id = catalog.entryAt(0)?.market.market_id ?? '';
    await request(app).get(`/markets/${id.toLowerCase()}`).expect(404);
    await request(app).get(`/markets/${id}%20`).expect(404);
  });
});

describe('other routes and methods', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('%s /markets and /markets/{id} → 405 with Allow', async (method) => {
    for (const path of ['/markets', `/markets/${catalog.entryAt(0)?.market.market_id ?? ''}`]) {
      const res = await request(app)[method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete'](path).expect(405);
      expect(res.headers['allow']).toBe('GET, HEAD, OPTIONS');
      expect(res.body).toMatchObject({ status: 405, error: 'method_not_allowed' });
    }
  });

  it.each(['/nope', '/markets/a/b', '/', '/marketsx'])('%s → 404 JSON', async (path) => {
    const res = await request(app).get(path).expect(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toMatchObject({ status: 404, error: 'route_not_found' });
  });

  it('GET /healthz → 200', async () => {
    const res = await request(app).get('/healthz').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});
