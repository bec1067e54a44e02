import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMemoryCatalog, toCatalogEntry, type MarketCatalog } from '../../src/catalog/market-catalog.js';
import { findDeviation } from '../../src/deviation/deviation-catalogue.js';
import type { ListDeviation } from '../../src/deviation/deviation-definition.js';
import { deviatedItemReply, deviatedListReply } from '../../src/runtime/deviated-reply.js';
import { methodNotAllowed } from '../../src/runtime/error-reply.js';
import { decodeCursor, encodeCursor, renderList } from '../../src/runtime/market-list.js';
import { jsonReply, type Reply } from '../../src/runtime/reply.js';
import { resolveProfile } from '../../src/runtime/response-profile.js';
import { createStubRuntime, type RuntimeOptions } from '../../src/runtime/stub-runtime.js';
import { createApp, type Market } from '../../src/index.js';

// More of the request path: the admin escape and the journal's view of a request, rules by market,
// Prefer deviations of one market, streamed lists, cursors and the deviated replies' error bodies.

const markets: Market[] = [0, 1, 2].map((i) => ({ market_id: `m-${i}`, title: `Market ${i}`, status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' }));
const stub = (options: Partial<RuntimeOptions> = {}) => {
  const runtime = createStubRuntime({ catalog: createMemoryCatalog(markets, 'inline', 'three markets'), ...options });
  return { runtime, app: createApp({ runtime }) };
};
const text = (reply: Reply) => Buffer.concat([Buffer.from(reply.body), ...[...(reply.chunks ?? [])].map((c) => Buffer.from(c))]).toString('latin1');
const binary = (req: request.Test) => req.buffer(true).parse((res, done) => {
  const parts: Buffer[] = [];
  res.on('data', (c: Buffer) => parts.push(c));
  res.on('end', () => done(null, Buffer.concat(parts)));
});

describe('handle: what it leaves to the admin API, and what the journal sees', () => {
  it('/__stub and below are the admin API (never journaled); /__stubx is an ordinary unknown path', async () => {
    const { app, runtime } = stub();
    await request(app).get('/__stub/deviations').expect(200);
    await request(app).get('/__stubx').expect(404);
    await request(app).get('/markets?limit=2&x=1').expect(200);
    expect(runtime.journal.list().map((e) => [e.method, e.path, e.query])).toEqual([['GET', '/__stubx', {}], ['GET', '/markets', { limit: '2', x: '1' }]]);
  });

  it('HEAD is served on the market routes; a rule for one market reaches only that market', async () => {
    const { app } = stub({ rules: [{ match: { marketId: 'm-1' }, behaviour: { status: 503 } }] });
    await request(app).head('/markets').expect(200);
    await request(app).get('/markets/m-1').expect(503);
    await request(app).get('/markets/m-2').expect(200);
    await request(app).get('/markets').expect(200);
  });

  it('rules match by route and by method, on the list and on items alike', async () => {
    const listOnly = stub({ rules: [{ match: { route: 'list' }, behaviour: { status: 503 } }] }).app;
    await request(listOnly).get('/markets').expect(503);
    await request(listOnly).get('/markets/m-1').expect(200);
    const itemsOnly = stub({ rules: [{ match: { route: 'item' }, behaviour: { status: 503 } }] }).app;
    await request(itemsOnly).get('/markets').expect(200);
    await request(itemsOnly).get('/markets/m-1').expect(503);
    const headOnly = stub({ rules: [{ match: { method: 'HEAD' }, behaviour: { status: 503 } }] }).app;
    await request(headOnly).head('/markets').expect(503);
    await request(headOnly).head('/markets/m-1').expect(503);
    await request(headOnly).get('/markets').expect(200);
    await request(headOnly).get('/markets/m-1').expect(200);
    const itemHead = stub({ rules: [{ match: { route: 'item', method: 'HEAD', marketId: 'm-2' }, behaviour: { status: 503 } }] }).app;
    await request(itemHead).head('/markets/m-2').expect(503);
    await request(itemHead).head('/markets/m-1').expect(200);
    await request(itemHead).get('/markets/m-2').expect(200);
  });

  it('an injected failure names every behaviour applied', async () => {
    const { app } = stub();
    const res = await request(app).get('/markets').set('Prefer', 'delay=1, code=500').expect(500);
    expect(res.body.message).toBe('Injected failure: status 500 (market-stub behaviour delay=1 (Prefer), status=500 (Prefer)).');
  });

  it('Prefer: deviation= of one market deviates every market of that answer, list and item', async () => {
    const { app } = stub();
    expect((await request(app).get('/markets/m-1').set('Prefer', 'deviation=string-price').expect(200)).body).toMatchObject({ yes_price: '0.5000' });
    expect((await request(app).get('/markets').set('Prefer', 'deviation=string-price').expect(200)).body[2]).toMatchObject({ yes_price: '0.5000' });
  });

  it('a Prefer list deviation joins those in force in catalogue order (the envelope change before the BOM)', async () => {
    const { app } = stub({ deviations: [{ name: 'list-bom' }] });
    const res = await binary(request(app).get('/markets').set('Prefer', 'deviation=list-envelope-change'));
    expect((res.body as Buffer).subarray(0, 26).toString('latin1')).toBe('\u00ef\u00bb\u00bf{"payload":{"markets":[');
  });
});

describe('render: streamed lists and cursors', () => {
  const chunked = (): MarketCatalog => {
    const entries = markets.map(toCatalogEntry);
    return {
      source: 'generated', size: entries.length, description: 'streamed',
      entryAt: (i) => entries[i], entry: (id) => entries.find((e) => e.market.market_id === id),
      listBody: () => { throw new RangeError('too large'); },
      listChunks: () => [Buffer.from('['), Buffer.from(entries.map((e) => e.summaryJson).join(',')), Buffer.from(']')],
    };
  };

  it('a catalog too large to hold is sent in chunks, bare or inside the envelope', () => {
    const bare = renderList(chunked(), new URLSearchParams(), resolveProfile());
    expect(bare.body).toHaveLength(0);
    expect(JSON.parse(text(bare))).toHaveLength(3);
    const wrapped = renderList(chunked(), new URLSearchParams(), resolveProfile({ envelope: 'markets' }));
    const sent = text(wrapped);
    expect(Object.keys(JSON.parse(sent) as object)).toEqual(['markets']);
    expect(sent.startsWith('{"markets":[')).toBe(true);
    expect(wrapped.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('cursors of several digits decode; anything around the offset is no cursor', () => {
    expect(decodeCursor(encodeCursor(12))).toBe(12);
    for (const other of ['xo:5', 'o:5x', 'o:']) expect(decodeCursor(Buffer.from(other).toString('base64url')), other).toBeUndefined();
  });

  it('offsets of several digits page; an offset with a tail is refused', () => {
    const profile = resolveProfile({ paging: 'offset', pageSize: 1 });
    const many = createMemoryCatalog(Array.from({ length: 14 }, (_, i) => ({ ...markets[0] as Market, market_id: `n-${i}` })), 'inline', 'fourteen');
    expect(JSON.parse(text(renderList(many, new URLSearchParams('offset=12'), profile)))).toEqual([expect.objectContaining({ market_id: 'n-12' })]);
    expect(renderList(many, new URLSearchParams('offset=1x'), profile).status).toBe(400);
  });
});

describe('deviated replies and refusals: codes and details', () => {
  const profile = resolveProfile();
  const entry = toCatalogEntry(markets[1] as Market);

  it('an item deviation status from 400 is an internal_error naming every deviation; none, or a lower status, is the body', () => {
    const failed = deviatedItemReply({ ...entry, deviated: { status: 400, labels: ['deviation=a', 'deviation=b'] } }, profile);
    expect(JSON.parse(text(failed))).toEqual({ status: 400, error: 'internal_error', message: 'The market could not be read (market-stub deviation=a, deviation=b).', market_id: 'm-1' });
    const plain = deviatedItemReply(entry, profile);
    expect([plain.status, plain.headers['content-type'], text(plain)]).toEqual([200, 'application/json; charset=utf-8', JSON.stringify(markets[1])]);
  });

  it('a list deviation status is an internal_error; only the paging loop adds a Link header', () => {
    const failed = deviatedListReply(jsonReply(Buffer.from('[]')), [findDeviation('list-500') as ListDeviation], profile, '/markets');
    expect(JSON.parse(text(failed))).toMatchObject({ error: 'internal_error' });
    const typed = deviatedListReply(jsonReply(Buffer.from('[]')), [findDeviation('list-wrong-content-type') as ListDeviation], profile, '/markets');
    expect(typed.headers['link']).toBeUndefined();
    expect(typed.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('405 names its code and the path', () => {
    expect(JSON.parse(text(methodNotAllowed('default', 'PUT', '/markets', ['GET'])))).toEqual({ status: 405, error: 'method_not_allowed', message: 'PUT is not allowed on /markets; use GET.', path: '/markets' });
  });
});
