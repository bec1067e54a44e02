import { createRequire } from 'node:module';
import { validate as validateOpenApi } from '@readme/openapi-parser';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, startMarketStub, type MarketStub, type ResponseProfile } from '../../src/index.js';
import { redoclyProblems, spectralProblems } from '../support/openapi-lint.js';

// What the tools users point at /openapi.json need from it: the linters' recommended rules, a
// server to call, and examples that are real markets of the catalog served.
const PROFILES: Partial<ResponseProfile>[] = [{}, { envelope: 'markets', paging: 'cursor', errors: 'problem', filterStatus: true }, { envelope: 'data', paging: 'offset', errors: 'error-object' }];
const catalogP = buildCatalog({ seed: 6, count: 23, clock: '2026-01-01' });
const stubs: MarketStub[] = [];
afterAll(async () => Promise.all(stubs.map((s) => s.close())));

type Doc = {
  servers: { url: string }[];
  paths: Record<string, { get: { parameters: { name: string; example?: unknown }[]; responses: Record<string, { content?: Record<string, { example?: unknown }> }> } }>;
};
const exampleOf = (doc: Doc, path: string) => doc.paths[path]?.get.responses['200']?.content?.['application/json']?.example;

describe('GET /openapi.json for the ecosystem\'s tools', () => {
  it.each(PROFILES)('Redocly recommended and Spectral spectral:oas find nothing (%j)', async (profile) => {
    const doc = (await request(createApp({ catalog: await catalogP, profile })).get('/openapi.json').expect(200)).body as unknown;
    const problems = [...(await redoclyProblems(doc)), ...(await spectralProblems(doc))];
    expect(problems.map((p) => `${p.linter} ${p.rule} (${p.severity}) ${p.where}: ${p.message}`)).toEqual([]);
  }, 60_000);

  it('validates under @readme/openapi-parser (swagger-parser\'s rules) from the built package too: info.license names MIT by its SPDX identifier', async () => {
    // The build serves package.json to the bundles as a few fields; the licence must be one of them.
    const built = createRequire(import.meta.url)('../../dist/index.cjs') as { startMarketStub: typeof startMarketStub };
    const stub = await built.startMarketStub({ seed: 6, count: 3, clock: '2026-01-01' });
    stubs.push(stub);
    const doc = (await (await fetch(`${stub.url}/openapi.json`)).json()) as { info: { license: unknown } };
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    const result = await validateOpenApi(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors.map((e) => e.message)).toEqual([]);
  }, 30_000);

  it('names the stub that serves it, and examples it answers for exactly: a market_id, that market, the first page', async () => {
    const stub = await startMarketStub({ seed: 6, count: 23, clock: '2026-01-01', profile: { envelope: 'markets', paging: 'offset' } });
    stubs.push(stub);
    const doc = (await (await fetch(`${stub.url}/openapi.json`)).json()) as Doc;
    expect(doc.servers).toEqual([expect.objectContaining({ url: stub.url })]);
    const id = doc.paths['/markets/{market_id}']?.get.parameters.find((p) => p.name === 'market_id')?.example;
    expect(typeof id).toBe('string');
    const market = await fetch(`${doc.servers[0]?.url}/markets/${encodeURIComponent(String(id))}`);
    expect(market.status).toBe(200);
    expect(exampleOf(doc, '/markets/{market_id}')).toEqual(await market.json());
    expect(exampleOf(doc, '/markets')).toEqual(await (await fetch(`${stub.url}/markets?limit=3`)).json());
  });

  it('follows the catalog served: after an admin replace, the examples are the new markets', async () => {
    const stub = await startMarketStub({ seed: 6, count: 5, clock: '2026-01-01' });
    stubs.push(stub);
    const market = { market_id: 'REPLACED-1', title: 'Will it be replaced?', status: 'active', yes_price: 0.25, no_price: 0.75, resolution_date: '2027-01-01' };
    await stub.setMarkets([market]);
    const doc = (await (await fetch(`${stub.url}/openapi.json`)).json()) as Doc;
    expect(exampleOf(doc, '/markets/{market_id}')).toEqual(market);
    expect(exampleOf(doc, '/markets')).toEqual([{ market_id: 'REPLACED-1', title: market.title, status: 'active', yes_price: 0.25, no_price: 0.75 }]);
  });

  it('takes the server from Host only when it is a well-formed host and port; anything else leaves "/"', async () => {
    const app = createApp({ catalog: await catalogP });
    const serverFor = async (host: string) => ((await request(app).get('/openapi.json').set('Host', host).expect(200)).body as Doc).servers[0]?.url;
    expect(await serverFor('Stub.Example.test:8080')).toBe('http://stub.example.test:8080');
    expect(await serverFor('[::1]:4010')).toBe('http://[::1]:4010');
    for (const hostile of ['evil.test/"><script>', 'user@evil.test', 'a b', `${'a'.repeat(300)}.test`, 'evil.test:99999999', '-dash.test']) {
      expect(await serverFor(hostile), hostile).toBe('/');
    }
  });

  it('is byte-identical for the same seed, clock and Host', async () => {
    const bodies = await Promise.all([1, 2].map(async () => {
      const catalog = await buildCatalog({ seed: 9, count: 40, clock: '2026-01-01' });
      return (await request(createApp({ catalog, profile: { paging: 'cursor' } })).get('/openapi.json').set('Host', '127.0.0.1:4010')).text;
    }));
    expect(bodies[0]).toBe(bodies[1]);
  });

  it('an empty catalog: a document without examples that still lints clean', async () => {
    const doc = (await request(createApp({ catalog: await buildCatalog({ seed: 1, count: 0, clock: '2026-01-01' }) })).get('/openapi.json').expect(200)).body as Doc;
    expect(exampleOf(doc, '/markets/{market_id}')).toBeUndefined();
    expect((await redoclyProblems(doc)).filter((p) => p.severity === 'error')).toEqual([]);
  }, 60_000);
});
