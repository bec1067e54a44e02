// The standard list envelopes, each from a deployment built for the test (docs/contract-check.md,
// "List envelopes"): GraphQL, HAL, JSON:API, Siren and OData lists are found, named and paged;
// GraphQL's `errors` is never judged as the market list; partial failures (errors beside data,
// null items) are findings of their own in every report format; record and proxy read the same
// envelopes as check.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformingMarkets, json, summaryOf, withServer, type RawMarket } from './deviant-server.js';
import { findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';
import { startRecordingProxy } from '../../src/proxy/recording-proxy.js';

const LIST = 'GET /markets';
const FORMATS = ['text', 'json', 'markdown', 'html', 'junit', 'sarif'] as const;
const markets = conformingMarkets(4);
const summaries = markets.map(summaryOf);

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-envelopes-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Two pages of two markets each: `page(items, next, origin)` wraps them, `next` the second page's path or undefined on the last. */
function paged(page: (items: RawMarket[], next: string | undefined, origin: string) => unknown) {
  return (url: URL, req: IncomingMessage) => {
    const second = url.searchParams.get('page') === '2';
    return json(page(summaries.slice(second ? 2 : 0, second ? 4 : 2), second ? undefined : '/markets?page=2', `http://${req.headers.host ?? ''}`));
  };
}

/** A JSON:API resource (JSON:API 1.1 §7.2): the market in `attributes`. */
const resource = (m: RawMarket) => ({ type: 'markets', id: String(m['market_id']), attributes: m, links: { self: `/markets/${String(m['market_id'])}` } });
/** A Siren sub-entity (Siren, "Entities"): the market in `properties`. */
const entity = (m: RawMarket) => ({ class: ['market'], rel: ['item'], properties: m, links: [{ rel: ['self'], href: `/markets/${String(m['market_id'])}` }] });

const ENVELOPES = [
  { name: 'GraphQL', envelope: 'graphql', key: 'data.markets', list: paged((items) => ({ data: { markets: items } })), pages: 1, listed: 2 },
  { name: 'HAL', envelope: 'hal', key: '_embedded.markets', list: paged((items, next) => ({ _embedded: { markets: items }, _links: { self: { href: '/markets' }, ...(next ? { next: { href: next } } : {}) }, total: 4 })), pages: 2, listed: 4 },
  { name: 'JSON:API', envelope: 'json-api', key: 'data', list: paged((items, next) => ({ jsonapi: { version: '1.1' }, data: items.map(resource), links: { self: '/markets', next: next ?? null }, meta: { total: 4 } })), pages: 2, listed: 4 },
  { name: 'Siren', envelope: 'siren', key: 'entities', list: paged((items, next) => ({ class: ['markets', 'collection'], properties: { count: 4 }, entities: items.map(entity), links: [{ rel: ['self'], href: '/markets' }, ...(next ? [{ rel: ['next'], href: next }] : [])] })), pages: 2, listed: 4 },
  { name: 'OData', envelope: 'odata', key: 'value', list: paged((items, next, origin) => ({ '@odata.context': `${origin}/$metadata#Markets`, '@odata.count': 4, value: items, ...(next ? { '@odata.nextLink': `${origin}${next}` } : {}) })), pages: 2, listed: 4 },
] as const;

describe('standard list envelopes are recognised, named and paged', () => {
  it.each(ENVELOPES)('$name: the market array under "$key", exit 0, the envelope named in the report', async ({ envelope, key, list, pages, listed, name }) => {
    await withServer(markets, { list }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(problemKeys(run.report), name).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.report.list).toMatchObject({ shape: 'envelope', envelope, envelopeKey: key, pages, complete: true });
      expect(run.report.summary.marketsListed).toBe(listed);
      const shape = findingOf(run.report, 'list-shape');
      expect(shape.found).toContain(`the array under ${JSON.stringify(key)} (${name}`);
      const text = await runCliInProcess(['check', '--base-url', server.url, '--all', '--format', 'text']);
      expect(text.stdout).toContain(`envelope "${key}" (${name})`);
    });
  });

  it('JSON:API: attributes are read as the market, and a finding in them points into attributes', async () => {
    const list = () => json({ data: summaries.map((m, i) => resource(i === 1 ? { ...m, yes_price: '0.5' } : m)) });
    await withServer(markets, { list }, async (server) => {
      const run = await runCheckJson(server.url);
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual([`error type ${LIST} /data/*/attributes/yes_price`]);
      expect(findingOf(run.report, 'type').examples[0]).toMatchObject({ marketId: 'DEV-2', pointer: '/data/1/attributes/yes_price' });
      expect(findingOf(run.report, 'list-shape').found).toBe('an envelope: the array under "data" (JSON:API; each resource\'s attributes read as the market)');
    });
  });

  it('a GraphQL list with errors beside data and a null item: partial-failure findings in every format, never errors judged as the list', async () => {
    const errors = [{ message: 'Price feed unavailable for DEV-3', path: ['markets', 2], extensions: { code: 'UPSTREAM' } }];
    const list = () => json({ data: { markets: [summaries[0], summaries[1], null, summaries[3]] }, errors });
    await withServer(markets, { list }, async (server) => {
      const run = await runCheckJson(server.url);
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual([`error partial-failure ${LIST} /data/markets/*`, `warning partial-failure ${LIST} /errors`]);
      const nulls = run.report.findings.find((f) => f.code === 'partial-failure' && f.severity === 'error');
      expect(nulls?.examples[0]).toMatchObject({ pointer: '/data/markets/2', found: 'null in place of a market: a partial failure (the deployment could not produce this item)' });
      const beside = run.report.findings.find((f) => f.code === 'partial-failure' && f.severity === 'warning');
      expect(beside?.found).toBe('1 error ("Price feed unavailable for DEV-3") beside the market list under "data.markets" (GraphQL): the list may lack the markets that failed');
      expect(run.report.summary.marketsListed).toBe(3);
      expect(run.report.findings.some((f) => f.code === 'list-shape' && f.severity === 'error')).toBe(false);
      for (const format of FORMATS) {
        const out = await runCliInProcess(['check', '--base-url', server.url, '--format', format]);
        expect(out.code, format).toBe(1);
        expect(out.stdout, format).toContain('partial-failure');
        expect(out.stdout, format).toContain('Price feed unavailable for DEV-3');
      }
    });
  });

  it('a GraphQL answer with data null: a list-shape error naming GraphQL and its errors (the errors array is not the list)', async () => {
    const list = () => json({ data: null, errors: [{ message: 'Not authorised to list markets' }, { message: 'second' }] });
    await withServer(markets, { list }, async (server) => {
      const run = await runCheckJson(server.url);
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual([`error list-shape ${LIST} `]);
      expect(findingOf(run.report, 'list-shape').found).toBe('a GraphQL answer without a market list: data is null; 2 errors ("Not authorised to list markets"; "second")');
    });
  });

  it('errors beside a plain envelope are a partial failure too', async () => {
    const list = () => json({ markets: summaries, errors: [{ detail: 'shard 2 timed out' }] });
    await withServer(markets, { list }, async (server) => {
      const run = await runCheckJson(server.url);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([`warning partial-failure ${LIST} /errors`]);
      expect(findingOf(run.report, 'partial-failure').found).toBe('1 error ("shard 2 timed out") beside the market list under "markets": the list may lack the markets that failed');
      expect((await runCheckJson(server.url, ['--strict'])).code).toBe(1);
    });
  });
});

describe('record and proxy read the same envelopes', () => {
  it('record writes the markets of a JSON:API list (the ids read from attributes)', async () => {
    const list = () => json({ data: summaries.map(resource) });
    await withServer(markets, { list }, async (server) => {
      const out = path.join(work, 'jsonapi-recorded');
      const run = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out, '--format', 'json']);
      expect(run.code).toBe(0);
      const written = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(written.map((m) => m['market_id'])).toEqual(['DEV-1', 'DEV-2', 'DEV-3', 'DEV-4']);
    });
  });

  it('proxy: a GraphQL list with errors is the same partial failure, and the envelope is named', async () => {
    const list = () => json({ data: { markets: summaries }, errors: [{ message: 'partial' }] });
    await withServer(markets, { list }, async (server) => {
      const proxy = await startRecordingProxy({ upstream: server.url });
      try {
        expect((await fetch(`${proxy.url}/markets`)).status).toBe(200);
        const report = proxy.report();
        expect(report.list).toMatchObject({ shape: 'envelope', envelope: 'graphql', envelopeKey: 'data.markets' });
        expect(problemKeys(report)).toEqual([`warning partial-failure ${LIST} /errors`]);
        expect(proxy.listedIds()).toEqual(['DEV-1', 'DEV-2', 'DEV-3', 'DEV-4']);
      } finally {
        await proxy.close();
      }
    });
  });
});
