import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMemoryCatalog, type CatalogEntry } from '../../src/catalog/market-catalog.js';
import type { DeviatedReply } from '../../src/deviation/render-deviated-market.js';
import { findDeviation } from '../../src/deviation/deviation-catalogue.js';
import type { ListDeviation } from '../../src/deviation/deviation-definition.js';
import { deviatedItemReply, deviatedListReply } from '../../src/runtime/deviated-reply.js';
import { errorReply, marketNotFound, methodNotAllowed, routeNotFound } from '../../src/runtime/error-reply.js';
import { decodeCursor, encodeCursor, renderList } from '../../src/runtime/market-list.js';
import { jsonReply, type Reply } from '../../src/runtime/reply.js';
import { resolveProfile, type ResponseProfile } from '../../src/runtime/response-profile.js';
import { createStubRuntime, type RuntimeOptions } from '../../src/runtime/stub-runtime.js';
import { matchMarketRoute } from '../../src/runtime/answer-request.js';
import { createApp, type Market } from '../../src/index.js';

// The request path stage by stage, as a client of the stub sees it: route (which paths are market
// routes), decide (behaviours and Prefer), render (list paging and envelopes, deviations) and the
// error bodies of each profile.

const statuses = ['active', 'closed', 'active', 'resolved', 'active'] as const;
const markets: Market[] = statuses.map((status, i) => ({
  market_id: `m-${i}`, title: `Market ${i}`, status, yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01',
}));
const catalog = () => createMemoryCatalog(markets, 'inline', 'five markets');
const body = (reply: Reply) => JSON.parse(Buffer.from(reply.body).toString('utf8')) as unknown;
const list = (query: string, profile: Partial<ResponseProfile> = {}) => renderList(catalog(), new URLSearchParams(query), resolveProfile(profile));
const ids = (value: unknown) => (value as { market_id: string }[]).map((m) => m.market_id);
const app = (options: Partial<RuntimeOptions> = {}) => {
  const runtime = createStubRuntime({ catalog: catalog(), ...options });
  return { runtime, app: createApp({ runtime }) };
};

describe('route: which paths are market routes', () => {
  it('the list with or without a trailing slash, one item segment percent-decoded, nothing else', () => {
    expect(matchMarketRoute('/markets')).toEqual({ kind: 'list' });
    expect(matchMarketRoute('/markets/')).toEqual({ kind: 'list' });
    expect(matchMarketRoute('/markets/m-1')).toEqual({ kind: 'item', marketId: 'm-1' });
    expect(matchMarketRoute('/markets/a%20b%2Fc')).toEqual({ kind: 'item', marketId: 'a b/c' });
    expect(matchMarketRoute('/markets/%E0%A4%A')).toEqual({ kind: 'bad' });
    for (const other of ['/', '/market', '/marketsx', '/markets/a/b', '/markets/a/', '/api/markets', '/Markets']) expect(matchMarketRoute(other), other).toBeUndefined();
  });

  it('over HTTP: a bad percent-encoding is 400, another method 405 with Allow, /healthz answers', async () => {
    const { app: stub } = app();
    const bad = await request(stub).get('/markets/%E0%A4%A').expect(400);
    expect(bad.body).toEqual({ status: 400, error: 'bad_request', message: 'The market_id in /markets/%E0%A4%A is not valid percent-encoding (RFC 3986 §2.1).', path: '/markets/%E0%A4%A' });
    const post = await request(stub).post('/markets').expect(405);
    expect(post.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(post.body.message).toBe('POST is not allowed on /markets; use GET or HEAD or OPTIONS.');
    expect((await request(app({ cors: false }).app).delete('/markets/m-1').expect(405)).headers['allow']).toBe('GET, HEAD');
    const health = await request(stub).get('/healthz').expect(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers['access-control-allow-origin']).toBe('*');
    await request(stub).head('/healthz').expect(200);
    await request(stub).post('/healthz').expect(404);
  });

  it('CORS: a preflight answers 204 on any path; without CORS there is no preflight and no CORS header', async () => {
    const { app: stub } = app();
    const preflight = await request(stub).options('/anything').set('Origin', 'http://localhost:3000').set('Access-Control-Request-Method', 'GET').expect(204);
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, OPTIONS', 'access-control-allow-headers': 'Prefer, Authorization, Content-Type, If-None-Match, If-Modified-Since', 'access-control-max-age': '600' });
    const asked = await request(stub).options('/markets').set('Access-Control-Request-Method', 'GET').set('Access-Control-Request-Headers', 'X-Trace').expect(204);
    expect(asked.headers['access-control-allow-headers']).toBe('X-Trace');
    // A 204 carries no Content-Length (RFC 9110 §8.6).
    expect([preflight.headers['content-length'], asked.headers['content-length']]).toEqual([undefined, undefined]);
    const listed = await request(stub).get('/markets').expect(200);
    expect(listed.headers['access-control-expose-headers']).toBe('*');
    const notFound = await request(stub).get('/nope').expect(404);
    expect(notFound.headers['access-control-allow-origin']).toBe('*');
    const closed = app({ cors: false }).app;
    expect((await request(closed).get('/markets').expect(200)).headers['access-control-allow-origin']).toBeUndefined();
    expect((await request(closed).get('/nope').expect(404)).headers['access-control-allow-origin']).toBeUndefined();
    expect((await request(closed).options('/markets').set('Access-Control-Request-Method', 'GET')).status).not.toBe(204);
  });

  it('a preflight is an OPTIONS asking for a method: a bare OPTIONS is 405, a GET that names a method is a GET', async () => {
    const { app: stub } = app();
    expect((await request(stub).options('/markets').expect(405)).headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(ids((await request(stub).get('/markets').set('Access-Control-Request-Method', 'GET').expect(200)).body)).toHaveLength(5);
  });
});

describe('decide: behaviours and Prefer on the market routes', () => {
  it('an injected 429 carries Retry-After (1 s unless set) and a rate-limit message; 503 only when asked', async () => {
    const { app: stub } = app();
    const limited = await request(stub).get('/markets').set('Prefer', 'code=429').expect(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body).toEqual({ status: 429, error: 'rate_limited', message: 'Too many requests; retry after 1 s.' });
    const later = await request(stub).get('/markets').set('Prefer', 'code=429, retry-after=7').expect(429);
    expect([later.headers['retry-after'], later.body.message]).toEqual(['7', 'Too many requests; retry after 7 s.']);
    const unavailable = await request(stub).get('/markets/m-1').set('Prefer', 'code=503').expect(503);
    expect(unavailable.headers['retry-after']).toBeUndefined();
    expect(unavailable.body).toEqual({ status: 503, error: 'injected_fault', message: 'Injected failure: status 503 (market-stub behaviour status=503 (Prefer)).' });
    expect((await request(stub).get('/markets').set('Prefer', 'code=503, retry-after=3').expect(503)).headers['retry-after']).toBe('3');
    expect((await request(stub).get('/markets').set('Prefer', 'code=500, retry-after=3').expect(500)).headers['retry-after']).toBeUndefined();
  });

  it('a 2xx or 3xx override keeps the body with that status; an error reply stays an error', async () => {
    const { app: stub } = app();
    const created = await request(stub).get('/markets/m-1').set('Prefer', 'code=201').expect(201);
    expect(created.body.market_id).toBe('m-1');
    await request(stub).get('/markets/none').set('Prefer', 'code=201').expect(404);
    await request(stub).get('/markets').set('Prefer', 'code=399').expect(399);
    await request(stub).get('/markets').set('Prefer', 'code=400').expect(400);
  });

  it('a bad Prefer is 400 naming the supported preferences; an unknown deviation too', async () => {
    const { app: stub } = app();
    const bad = await request(stub).get('/markets').set('Prefer', 'code=abc').expect(400);
    expect(bad.body.error).toBe('bad_request');
    expect(bad.body.message).toMatch(/^Prefer\.status: expected an integer from 200 to 599, found .*\. Supported Prefer preferences: code, delay, jitter, retry-after, error-rate, fault, dribble, deviation\.$/);
    expect((await request(stub).get('/markets').set('Prefer', 'deviation=nope').expect(400)).body.message).toMatch(/Supported Prefer preferences/);
  });

  it('journals the labels of behaviours and deviations, and none for a plain request', async () => {
    const { app: stub, runtime } = app({ deviations: [{ name: 'list-bom' }, { name: 'item-bom', marketIds: ['m-1'] }] });
    await request(stub).get('/markets').set('Prefer', 'delay=1');
    await request(stub).get('/markets/m-1');
    await request(stub).get('/markets/m-2');
    await request(stub).get('/markets').set('Prefer', 'deviation=string-price');
    expect(runtime.journal.list().map((e) => e.behaviour)).toEqual([
      ['delay=1 (Prefer)', 'deviation=list-bom'], ['deviation=item-bom'], [], ['deviation=list-bom', 'deviation=string-price (Prefer)'],
    ]);
  });
});

describe('render: the list under each profile', () => {
  it('no paging: the whole list, bare or in an envelope, optionally filtered by status', () => {
    expect(ids(body(list('')))).toEqual(['m-0', 'm-1', 'm-2', 'm-3', 'm-4']);
    expect(body(list('limit=1', { envelope: 'markets' }))).toEqual({ markets: markets.map(({ resolution_date: _, ...s }) => s) });
    expect(ids(body(list('status=active')))).toHaveLength(5);
    expect(ids(body(list('status=active', { filterStatus: true })))).toEqual(['m-0', 'm-2', 'm-4']);
    expect((body(list('status=closed', { filterStatus: true, envelope: 'data' })) as { data: unknown }).data).toHaveLength(1);
    expect(list('', { envelope: 'data' }).headers['link']).toBeUndefined();
  });

  it('offset paging: limit, offset, total, next and a Link header up to the last page', () => {
    const first = list('limit=2', { paging: 'offset', envelope: 'markets' });
    expect(body(first)).toMatchObject({ limit: 2, offset: 0, total: 5, next: '/markets?limit=2&offset=2' });
    expect(first.headers).toMatchObject({ link: '</markets?limit=2&offset=2>; rel="next"', 'x-total-count': '5' });
    const last = list('limit=2&offset=4', { paging: 'offset', envelope: 'markets' });
    expect(body(last)).toMatchObject({ offset: 4, next: null });
    expect(last.headers['link']).toBeUndefined();
    expect(ids((body(list('limit=2&offset=3', { paging: 'offset', envelope: 'markets' })) as { markets: unknown }).markets)).toEqual(['m-3', 'm-4']);
    // The default page size and the largest limit (clamped, not refused).
    expect(body(list('', { paging: 'offset', pageSize: 3, envelope: 'markets' }))).toMatchObject({ limit: 3, next: '/markets?limit=3&offset=3' });
    expect(body(list('limit=50', { paging: 'offset', maxPageSize: 4, pageSize: 2, envelope: 'markets' }))).toMatchObject({ limit: 4 });
    const filtered = list('status=active&limit=2', { paging: 'offset', filterStatus: true });
    expect(ids(body(filtered))).toEqual(['m-0', 'm-2']);
    expect(filtered.headers['link']).toBe('</markets?status=active&limit=2&offset=2>; rel="next"');
  });

  it('cursor paging: next_cursor and Link until the end; a cursor from elsewhere is 400', () => {
    const first = list('limit=3', { paging: 'cursor', envelope: 'markets' });
    const cursor = encodeCursor(3);
    expect(body(first)).toMatchObject({ limit: 3, next_cursor: cursor });
    expect(first.headers['link']).toBe(`</markets?limit=3&cursor=${cursor}>; rel="next"`);
    expect(first.headers['x-total-count']).toBeUndefined();
    const rest = list(`limit=3&cursor=${cursor}`, { paging: 'cursor', envelope: 'markets' });
    expect(body(rest)).toMatchObject({ next_cursor: null });
    expect(ids((body(rest) as { markets: unknown }).markets)).toEqual(['m-3', 'm-4']);
    expect(ids(body(list('cursor=', { paging: 'cursor' })))).toHaveLength(5);
    expect(decodeCursor(cursor)).toBe(3);
    expect(decodeCursor('bm9wZQ')).toBeUndefined();
    const bad = list('cursor=bm9wZQ', { paging: 'cursor' });
    expect([bad.status, (body(bad) as { message: string }).message]).toEqual([400, 'Query parameter cursor must be a cursor from a previous next_cursor or Link header; got "bm9wZQ".']);
  });

  it('refuses a limit below 1 or not an integer, and an offset that is not one', () => {
    for (const limit of ['0', '-1', '1.5', 'ten', '1234567890']) {
      const reply = list(`limit=${limit}`, { paging: 'offset', maxPageSize: 50, pageSize: 10 });
      expect(reply.status, limit).toBe(400);
      expect(body(reply)).toEqual({ status: 400, error: 'bad_request', message: `Query parameter limit must be an integer from 1 to 50; got ${JSON.stringify(limit)}.`, parameter: 'limit' });
    }
    expect(list('limit=1', { paging: 'offset' }).status).toBe(200);
    const offset = list('offset=-1', { paging: 'offset' });
    expect((body(offset) as { message: string }).message).toBe('Query parameter offset must be an integer ≥ 0; got "-1".');
  });
});

describe('error bodies in each profile shape', () => {
  it('default, RFC 9457 problem and error-object', () => {
    expect(body(marketNotFound('default', 'x'))).toEqual({ status: 404, error: 'market_not_found', message: 'No market with market_id "x".', market_id: 'x' });
    const problem = marketNotFound('problem', 'x');
    expect(problem.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(body(problem)).toEqual({ type: 'https://market-stub.local/problems/market-not-found', title: 'Not Found', status: 404, detail: 'No market with market_id "x".', market_id: 'x' });
    const object = routeNotFound('error-object', 'GET', '/x');
    expect(object.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(body(object)).toEqual({ error: { code: 'route_not_found', message: 'No route for GET /x. This stub serves GET /markets and GET /markets/{market_id}.', path: '/x' } });
    // A status without a title of its own takes Node's phrase, else "Error".
    expect(body(errorReply('problem', 418, 'bad_request', 'm'))).toMatchObject({ title: "I'm a Teapot" });
    expect(body(errorReply('problem', 599, 'bad_request', 'm'))).toMatchObject({ title: 'Error' });
    const notAllowed = methodNotAllowed('default', 'PUT', '/markets', ['GET', 'HEAD']);
    expect([notAllowed.status, notAllowed.headers['allow']]).toEqual([405, 'GET, HEAD']);
  });
});

describe('render: deviated replies', () => {
  const profile = resolveProfile({ errors: 'problem' });
  const entryOf = (deviated?: DeviatedReply): CatalogEntry => ({ market: markets[1] as Market, body: Buffer.from('{"market_id":"m-1"}'), summaryJson: '{}', ...(deviated ? { deviated } : {}) });

  it('an item: an error status in the profile shape, else its body with the deviation media type', () => {
    const failed = deviatedItemReply(entryOf({ status: 500, labels: ['deviation=item-500'] }), profile);
    expect(failed.status).toBe(500);
    expect(body(failed)).toMatchObject({ status: 500, detail: 'The market could not be read (market-stub deviation=item-500).', market_id: 'm-1' });
    const typed = deviatedItemReply(entryOf({ contentType: 'text/plain', labels: [] }), profile);
    expect([typed.status, typed.headers['content-type'], Buffer.from(typed.body).toString()]).toEqual([200, 'text/plain', '{"market_id":"m-1"}']);
    expect(deviatedItemReply(entryOf({ status: 399, labels: [] }), profile).status).toBe(200);
    expect(deviatedItemReply(entryOf({ labels: [] }), profile).headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('the list: status, media type, loop link and byte edits in catalogue order', () => {
    const deviation = (name: string) => findDeviation(name) as ListDeviation;
    const rendered = () => jsonReply(Buffer.from('[1]'));
    const failed = deviatedListReply(rendered(), [deviation('list-500')], profile, '/markets');
    expect([failed.status, (body(failed) as { detail: string }).detail]).toEqual([500, 'The market list could not be read (market-stub deviation=list-500).']);
    const looped = deviatedListReply(rendered(), [deviation('list-charset'), deviation('list-paging-loop')], profile, '/markets?limit=2');
    expect(looped.headers).toMatchObject({ 'content-type': 'application/json; charset=iso-8859-1', link: '</markets?limit=2>; rel="next"' });
    expect(Buffer.from(looped.body).toString()).toBe('[1]');
    const edited = deviatedListReply(rendered(), [deviation('list-envelope-change'), deviation('list-bom')], profile, '/markets');
    expect(Buffer.from(edited.body).toString('latin1')).toBe('\u00ef\u00bb\u00bf{"payload":{"markets":[1]}}');
    const streamed = deviatedListReply({ ...rendered(), chunks: [Buffer.from('[1'), Buffer.from(']')] }, [deviation('list-bom')], profile, '/markets');
    expect(Buffer.concat([...(streamed.chunks ?? [])]).toString('latin1')).toBe('\u00ef\u00bb\u00bf[1]');
  });

  it('a Prefer deviation of the list joins those in force once, in catalogue order', async () => {
    const { app: stub } = app({ deviations: [{ name: 'list-bom' }] });
    const res = await request(stub).get('/markets').set('Prefer', 'deviation=list-charset').buffer(true).parse((r, done) => {
      const parts: Buffer[] = [];
      r.on('data', (c: Buffer) => parts.push(c));
      r.on('end', () => done(null, Buffer.concat(parts)));
    });
    expect(res.headers['content-type']).toBe('application/json; charset=iso-8859-1');
    expect([...(res.body as Buffer).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const again = await request(stub).get('/markets').set('Prefer', 'deviation=list-bom').buffer(true).parse((r, done) => {
      const parts: Buffer[] = [];
      r.on('data', (c: Buffer) => parts.push(c));
      r.on('end', () => done(null, Buffer.concat(parts)));
    });
    // Asked for and already in force: the BOM once, not twice.
    expect([...(again.body as Buffer).subarray(0, 6)].slice(3)).not.toEqual([0xef, 0xbb, 0xbf]);
  });
});
