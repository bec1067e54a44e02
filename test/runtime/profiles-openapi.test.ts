import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validate as validateOpenApi } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildCatalog, createApp, startMarketStub, type ResponseProfile } from '../../src/index.js';

const catalogP = buildCatalog({ seed: 6, count: 23, clock: '2026-01-01' });
const appFor = async (profile: Partial<ResponseProfile>, extra: object = {}) => createApp({ catalog: await catalogP, profile, ...extra });

/** Follows Link rel="next" (and envelope next fields) from /markets until the end; returns ids in order. */
async function crawl(app: Awaited<ReturnType<typeof appFor>>, first: string, key?: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | undefined = first;
  for (let pages = 0; next && pages < 50; pages++) {
    const res: request.Response = await request(app).get(next).expect(200);
    const items = (key ? res.body[key] : res.body) as { market_id: string }[];
    ids.push(...items.map((m) => m.market_id));
    next = /<([^>]+)>; rel="next"/.exec(String(res.headers['link'] ?? ''))?.[1];
  }
  return ids;
}

describe('response profiles', () => {
  it('default: a bare array, no paging, queries ignored', async () => {
    const a = await appFor({});
    const res = await request(a).get('/markets?limit=2&status=closed').expect(200);
    expect(res.body).toHaveLength(23);
    expect(res.headers['link']).toBeUndefined();
  });

  it('envelope key: {"markets": [...]} and {"data": [...]}', async () => {
    expect((await request(await appFor({ envelope: 'markets' })).get('/markets')).body.markets).toHaveLength(23);
    expect((await request(await appFor({ envelope: 'data' })).get('/markets')).body.data).toHaveLength(23);
  });

  it('offset paging: limit/offset, total, next link; pages cover the catalog exactly once', async () => {
    const a = await appFor({ envelope: 'markets', paging: 'offset', pageSize: 5 });
    const page = await request(a).get('/markets?limit=5&offset=20').expect(200);
    expect(page.body).toMatchObject({ limit: 5, offset: 20, total: 23, next: null });
    expect(page.body.markets).toHaveLength(3);
    const first = await request(a).get('/markets').expect(200);
    expect(first.body.next).toBe('/markets?limit=5&offset=5');
    expect(first.headers['x-total-count']).toBe('23');
    const all = (await request(await appFor({})).get('/markets')).body.map((m: { market_id: string }) => m.market_id);
    expect(await crawl(a, '/markets', 'markets')).toEqual(all);
  });

  it('cursor paging: opaque next_cursor in the envelope, Link for a bare array; max page size clamps', async () => {
    const env = await appFor({ envelope: 'markets', paging: 'cursor', pageSize: 10, maxPageSize: 15 });
    const first = await request(env).get('/markets').expect(200);
    expect(first.body.markets).toHaveLength(10);
    expect(typeof first.body.next_cursor).toBe('string');
    const second = await request(env).get(`/markets?cursor=${first.body.next_cursor as string}&limit=500`).expect(200);
    expect(second.body.markets).toHaveLength(13);
    expect(second.body.next_cursor).toBeNull();
    const bare = await appFor({ paging: 'cursor', pageSize: 4 });
    const all = (await request(await appFor({})).get('/markets')).body.map((m: { market_id: string }) => m.market_id);
    expect(await crawl(bare, '/markets')).toEqual(all);
    await request(bare).get('/markets?cursor=not-a-cursor').expect(400);
    await request(bare).get('/markets?limit=0').expect(400);
  });

  it('status filter when enabled', async () => {
    const a = await appFor({ filterStatus: true });
    expect((await request(a).get('/markets?status=active')).body).toHaveLength(23);
    expect((await request(a).get('/markets?status=closed')).body).toEqual([]);
  });

  it.each([
    ['default', 'application/json; charset=utf-8', { status: 404, error: 'market_not_found', market_id: 'zz' }],
    ['problem', 'application/problem+json; charset=utf-8', { type: 'https://market-stub.local/problems/market-not-found', title: 'Not Found', status: 404, market_id: 'zz' }],
    ['error-object', 'application/json; charset=utf-8', { error: { code: 'market_not_found', market_id: 'zz' } }],
  ] as const)('error shape %s', async (errors, contentType, body) => {
    const res = await request(await appFor({ errors })).get('/markets/zz').expect(404);
    expect(res.headers['content-type']).toBe(contentType);
    expect(res.body).toMatchObject(body);
    expect((await request(await appFor({ errors })).get('/nope').expect(404)).headers['content-type']).toBe(contentType);
  });
});

describe('CORS', () => {
  it('on by default: Allow-Origin on responses, preflight answered with 204', async () => {
    const a = await appFor({});
    expect((await request(a).get('/markets')).headers['access-control-allow-origin']).toBe('*');
    const pre = await request(a).options('/markets/x').set('origin', 'http://app.test').set('access-control-request-method', 'GET').set('access-control-request-headers', 'prefer').expect(204);
    expect(pre.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(pre.headers['access-control-allow-headers']).toBe('prefer');
  });
  it('switchable off', async () => {
    const a = await appFor({}, { cors: false });
    expect((await request(a).get('/markets')).headers['access-control-allow-origin']).toBeUndefined();
    await request(a).options('/markets').set('origin', 'http://app.test').set('access-control-request-method', 'GET').expect(405);
  });
});

describe('GET /openapi.json', () => {
  const profiles: Partial<ResponseProfile>[] = [{}, { envelope: 'markets', paging: 'cursor', errors: 'problem', filterStatus: true }, { envelope: 'data', paging: 'offset', errors: 'error-object' }];

  it.each(profiles)('validates as OpenAPI 3.1 and every route\'s responses validate against it (%j)', async (profile) => {
    const a = await appFor(profile);
    const doc = (await request(a).get('/openapi.json').expect(200)).body as Record<string, unknown>;
    expect(doc['openapi']).toBe('3.1.0');
    const result = await validateOpenApi(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);

    const ajv = new Ajv2020({ strict: false });
    ajvFormats.default(ajv, ['date']);
    ajv.addSchema({ ...doc, $id: 'https://stub.test/openapi.json' });
    const validateAt = (pointer: string, body: unknown) => {
      const v = ajv.compile({ $ref: `https://stub.test/openapi.json#${pointer}` });
      expect(v(body), `${pointer}: ${JSON.stringify(v.errors)}`).toBe(true);
    };
    const esc = (p: string) => p.replaceAll('~', '~0').replaceAll('/', '~1');
    const list = await request(a).get('/markets').expect(200);
    validateAt(`/paths/${esc('/markets')}/get/responses/200/content/application~1json/schema`, list.body);
    const id = (await catalogP).entryAt(0)?.market.market_id ?? '';
    const one = await request(a).get(`/markets/${id}`).expect(200);
    validateAt(`/paths/${esc('/markets/{market_id}')}/get/responses/200/content/application~1json/schema`, one.body);
    const missing = await request(a).get('/markets/none').expect(404);
    const media = profile.errors === 'problem' ? 'application~1problem+json' : 'application~1json';
    validateAt(`/paths/${esc('/markets/{market_id}')}/get/responses/404/content/${media}/schema`, missing.body);
    const limited = await request(a).get('/markets').set('prefer', 'code=429');
    validateAt(`/paths/${esc('/markets')}/get/responses/429/content/${media}/schema`, limited.body);
  });

  it('holds the schema\'s $defs as components (no second copy in the code)', async () => {
    const doc = (await request(await appFor({})).get('/openapi.json')).body as { components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Market', 'MarketSummary', 'MarketId', 'Error']));
    // The checker's assumptions and the generator's input are $defs no route uses: no unused component.
    expect(Object.keys(doc.components.schemas)).not.toContain('MarketAssumptions');
    expect(Object.keys(doc.components.schemas)).not.toContain('GeneratedMarket');
    expect(JSON.stringify(doc)).not.toContain('#/$defs/');
  });
});

describe('hot reload (--watch)', () => {
  it('swaps in valid changes and keeps serving the old data when the new data is invalid', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-watch-'));
    const file = path.join(dir, 'markets.json');
    const m = (id: string, yes: unknown = 0.4) => ({ market_id: id, title: `Will ${id}?`, status: 'active', yes_price: yes, no_price: 0.6, resolution_date: '2027-01-01' });
    writeFileSync(file, JSON.stringify([m('a')]));
    const warnings: string[] = [];
    const stub = await startMarketStub({ fixtures: dir, watch: true, errorLog: (line) => warnings.push(line) });
    const ids = async () => ((await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[]).map((x) => x.market_id);
    const until = async (want: string[]) => {
      for (let i = 0; i < 60; i++) {
        if (JSON.stringify(await ids()) === JSON.stringify(want)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await ids()).toEqual(want);
    };
    try {
      expect(await ids()).toEqual(['a']);
      writeFileSync(file, JSON.stringify([m('a'), m('b')]));
      await until(['a', 'b']);
      writeFileSync(file, JSON.stringify([m('c', 'bad')]));
      // Wait (bounded, 3 s) for the reload to be refused, not a fixed time: under load the watcher's turn comes late.
      for (let i = 0; i < 60 && !warnings.join('\n').includes('fixtures changed but are invalid'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await ids()).toEqual(['a', 'b']);
      expect(warnings.join('\n')).toContain('fixtures changed but are invalid; still serving the previous data');
      writeFileSync(file, JSON.stringify([m('d')]));
      await until(['d']);
    } finally {
      await stub.close();
    }
  });
});
