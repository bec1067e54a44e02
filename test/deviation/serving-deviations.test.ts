// Serving deviations through every surface: the library option, the handle's setDeviations, the
// admin API, Prefer, and the removed domain faults; seeded selection (same markets on every run,
// independent of request order and edits); list and item as one record; errors worded per surface.
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, startMarketStub, type MarketStub, type MarketStubOptions } from '../../src/index.js';
import { MarketStubError } from '../../src/floor/market-stub-error.js';
import { integerMarketId } from '../../src/deviation/market-deviations.js';
import { fnv1a } from '../../src/floor/text-hash.js';

const CLOCK = '2030-01-01';
const json = { 'content-type': 'application/json' };
const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function stub(options: MarketStubOptions = {}): Promise<MarketStub> {
  const s = await startMarketStub({ seed: 9, count: 20, clock: CLOCK, ...options });
  open.push(s);
  return s;
}

type Summary = Record<string, unknown> & { market_id: string };
const list = async (s: MarketStub, headers: Record<string, string> = {}): Promise<Summary[]> => (await (await fetch(`${s.url}/markets`, { headers })).json()) as Summary[];
const item = async (s: MarketStub, id: string | number, headers: Record<string, string> = {}) => fetch(`${s.url}/markets/${encodeURIComponent(String(id))}`, { headers });
const suspended = async (s: MarketStub) => (await list(s)).filter((m) => m['status'] === 'suspended').map((m) => m.market_id);

describe('a deviation for a seeded share of markets', () => {
  it('picks the same markets on every run, about the share asked for, and another set for another seed', async () => {
    const run = async (seed: number) => suspended(await stub({ seed, count: 300, deviations: [{ name: 'non-active-status', rate: 0.25 }] }));
    const [a, b, other] = [await run(4), await run(4), await run(5)];
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(45);
    expect(a.length).toBeLessThan(105);
    expect(other).not.toEqual(a);
  });

  it('picks independently of request order, of edits to other markets and of other deviations', async () => {
    const s = await stub({ count: 200, deviations: [{ name: 'non-active-status', rate: 0.3 }] });
    const before = await suspended(s);
    const ids = (await s.catalog()).map((m) => m.market_id);
    // Ask for items in reverse first, patch a market that is not chosen, add another deviation.
    for (const id of [...ids].reverse().slice(0, 30)) await item(s, id);
    const untouched = ids.find((id) => !before.includes(id)) as string;
    await s.patchMarket(untouched, { title: 'Patched?' });
    await s.setDeviations([{ name: 'non-active-status', rate: 0.3 }, { name: 'float-noise', rate: 0.3 }]);
    expect(await suspended(s)).toEqual(before);
    const noisy = (await list(s)).filter((m) => String(m['yes_price']).length > 10).map((m) => m.market_id);
    expect(noisy.length).toBeGreaterThan(20);
    expect(noisy).not.toEqual(before);
  });

  it('serves list and item as one record: the list item is the item without resolution_date', async () => {
    const s = await stub({ count: 40, deviations: [{ name: 'string-price', rate: 0.5 }, { name: 'null-price', rate: 0.2 }, { name: 'non-active-status', rate: 0.5 }] });
    let deviating = 0;
    for (const summary of await list(s)) {
      const { resolution_date: _date, ...projected } = (await (await item(s, summary.market_id)).json()) as Record<string, unknown>;
      expect(projected).toEqual(summary);
      if (typeof summary['yes_price'] !== 'number' || summary['status'] !== 'active') deviating++;
    }
    expect(deviating).toBeGreaterThan(10);
  });

  it('a list deviation takes no rate; rate 0 serves nothing and 1 every market', async () => {
    await expect(stub({ deviations: [{ name: 'list-500', rate: 0.5 }] })).rejects.toMatchObject({ code: 'OPTION_INVALID', option: 'deviations[0]', message: expect.stringContaining('list-500 changes the whole list') });
    expect(await suspended(await stub({ deviations: [{ name: 'non-active-status', rate: 0 }] }))).toEqual([]);
    expect(await suspended(await stub({ deviations: [{ name: 'non-active-status', rate: 1 }] }))).toHaveLength(20);
  });
});

describe('setDeviations on the handle', () => {
  it('replaces every deviation in force; [] clears them; reset() restores the start-up ones', async () => {
    const s = await stub({ deviations: [{ name: 'non-active-status' }] });
    const ids = (await s.catalog()).map((m) => m.market_id);
    expect(await suspended(s)).toHaveLength(20);
    await s.setDeviations([{ name: 'listed-but-404', marketIds: [ids[3] as string] }, { name: 'list-bom' }]);
    expect(await suspended(s)).toEqual([]);
    expect((await item(s, ids[3] as string)).status).toBe(404);
    expect((await item(s, ids[4] as string)).status).toBe(200);
    const raw = Buffer.from(await (await fetch(`${s.url}/markets`)).arrayBuffer());
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    await s.setDeviations([]);
    expect((await item(s, ids[3] as string)).status).toBe(200);
    await s.reset();
    expect(await suspended(s)).toHaveLength(20);
  });

  it('rejects bad settings with a MarketStubError naming the field, and changes nothing', async () => {
    const s = await stub({ deviations: [{ name: 'item-bom' }] });
    const cases: [unknown, Partial<MarketStubError>][] = [
      [[{ name: 'strng-price' }], { code: 'OPTION_INVALID', option: 'deviations[0].name', message: expect.stringContaining('did you mean string-price?') as unknown as string }],
      [[{ name: 'string-price', rate: 1.5 }], { code: 'OPTION_INVALID', option: 'deviations[0].rate' }],
      [[{ name: 'string-price', rate: 0.5, marketIds: ['x'] }], { code: 'OPTION_INVALID', option: 'deviations[0]' }],
      [[{ name: 'string-price', marketIds: [] }], { code: 'OPTION_INVALID', option: 'deviations[0].marketIds' }],
      [[{ name: 'string-price', extra: 1 }], { code: 'OPTION_INVALID', option: 'deviations[0].extra' }],
      [[{ name: 'list-500', marketIds: ['x'] }], { code: 'OPTION_INVALID', option: 'deviations[0]' }],
      [[{ name: 'string-price', marketIds: ['no-such-market'] }], { code: 'MARKET_NOT_FOUND', marketId: 'no-such-market' }],
      [Array.from({ length: 201 }, () => ({ name: 'item-bom' })), { code: 'LIMIT_EXCEEDED', option: 'deviations' }],
      ['string-price', { code: 'OPTION_INVALID', option: 'deviations' }],
    ];
    for (const [settings, expected] of cases) {
      const error = await s.setDeviations(settings as never).then(() => undefined, (e: unknown) => e);
      expect(error, JSON.stringify(settings).slice(0, 60)).toBeInstanceOf(MarketStubError);
      expect(error).toMatchObject({ where: 'stub.setDeviations', ...expected });
    }
    const body = Buffer.from(await (await item(s, (await s.catalog())[0]?.market_id as string)).arrayBuffer());
    expect(body[0]).toBe(0xef);
  });
});

describe('the library option', () => {
  it('checks names and market ids before anything is bound', async () => {
    await expect(startMarketStub({ deviations: [{ name: 'nope' }] })).rejects.toMatchObject({ code: 'OPTION_INVALID', where: 'startMarketStub', option: 'deviations[0].name' });
    await expect(startMarketStub({ count: 3, deviations: [{ name: 'item-bom', marketIds: ['absent'] }] })).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND', where: 'startMarketStub', marketId: 'absent' });
    await expect(startMarketStub({ deviations: 'string-price' as never })).rejects.toMatchObject({ code: 'OPTION_INVALID', option: 'deviations' });
  });

  it('works in createApp too (supertest, no port)', async () => {
    const catalog = await buildCatalog({ seed: 1, count: 4, clock: CLOCK });
    const app = createApp({ catalog, deviations: [{ name: 'list-500' }] });
    const res = await request(app).get('/markets').expect(500);
    expect(res.body).toMatchObject({ status: 500, error: 'internal_error', message: expect.stringContaining('list-500') });
    expect(() => createApp({ catalog, deviations: [{ name: 'nope' }] })).toThrow(/createApp: deviations\[0\]\.name: expected a deviation name/);
  });
});

describe('the admin API', () => {
  it('GET /__stub/deviations lists the catalogue with descriptions and what is in force', async () => {
    const s = await stub({ deviations: [{ name: 'price-sum', rate: 0.5 }, { name: 'list-bom' }] });
    const body = (await (await fetch(`${s.url}/__stub/deviations`)).json()) as { catalogue: Record<string, unknown>[]; active: unknown[] };
    expect(body.catalogue.length).toBeGreaterThan(40);
    expect(body.catalogue.find((d) => d['name'] === 'string-price')).toEqual({
      name: 'string-price', class: 'contract', scope: 'market', endpoints: ['list', 'item'], describe: expect.stringContaining('4-decimal strings'),
      findings: expect.arrayContaining([{ severity: 'error', code: 'type', endpoint: 'GET /markets', pointer: '/*/yes_price' }]), record: 'dropped',
    });
    expect(body.catalogue.find((d) => d['name'] === 'listed-but-404')).toMatchObject({ aliases: ['missing'] });
    expect(body.active).toEqual([{ name: 'price-sum', rate: 0.5 }, { name: 'list-bom' }]);
  });

  it('PUT /__stub/deviations replaces them; PUT /__stub/markets/{id}/deviations sets one market\'s', async () => {
    const s = await stub();
    const [a, b] = (await s.catalog()).map((m) => m.market_id) as [string, string];
    const put = (path: string, body: unknown) => fetch(`${s.url}/__stub${path}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });
    const all = await put('/deviations', [{ name: 'item-wrong-content-type', marketIds: [a] }, { name: 'list-paging-loop' }]);
    expect(all.status).toBe(200);
    expect(await all.json()).toEqual({
      active: [{ name: 'item-wrong-content-type', marketIds: [a] }, { name: 'list-paging-loop' }],
      reach: [{ name: 'item-wrong-content-type', scope: 'market', chosen: 'marketIds', markets: 1, catalog: 20, marketIds: [a] }, { name: 'list-paging-loop', scope: 'list', chosen: 'list', catalog: 20 }],
    });
    expect((await item(s, a)).headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect((await fetch(`${s.url}/markets?x=1`)).headers.get('link')).toBe('</markets?x=1>; rel="next"');
    const one = await put(`/markets/${encodeURIComponent(b)}/deviations`, ['item-500', 'missing']);
    expect(await one.json()).toEqual({ market_id: b, deviations: ['listed-but-404', 'item-500'] });
    expect((await item(s, b)).status).toBe(404);
    await put(`/markets/${encodeURIComponent(b)}/deviations`, ['item-500']);
    expect((await item(s, b)).status).toBe(500);
    const active = ((await (await fetch(`${s.url}/__stub/deviations`)).json()) as { active: unknown[] }).active;
    expect(active).toEqual([{ name: 'item-500', marketIds: [b] }, { name: 'item-wrong-content-type', marketIds: [a] }, { name: 'list-paging-loop' }]);
  });

  it.each([
    ['/deviations', [{ name: 'strng-price' }], 400, 'option_invalid', { option: 'deviations[0].name' }],
    ['/deviations', [{ name: 'item-bom', marketIds: ['nope'] }], 404, 'market_not_found', { market_id: 'nope' }],
    ['/deviations', { name: 'item-bom' }, 400, 'option_invalid', { option: 'deviations' }],
    ['/markets/{a}/deviations', ['list-500'], 400, 'option_invalid', { option: 'deviations[0]', expected: expect.stringContaining('changes the whole list') }],
    ['/markets/{a}/deviations', ['nope'], 400, 'option_invalid', { option: 'deviations[0]' }],
    ['/markets/nope/deviations', ['item-bom'], 404, 'market_not_found', { market_id: 'nope' }],
  ])('PUT %s %j → %i %s', async (path, body, status, error, extra) => {
    const catalog = await buildCatalog({ markets: [{ market_id: 'a', title: 'Will a?', status: 'active', yes_price: 0.3, no_price: 0.7, resolution_date: '2031-01-01' }], seed: 1, count: 0, clock: CLOCK });
    const res = await request(createApp({ catalog })).put(`/__stub${path.replace('{a}', 'a')}`).set(json).send(body as object).expect(status);
    expect(res.body).toMatchObject({ status, error, message: expect.stringMatching(/^PUT \/__stub\//), ...extra });
  });
});

describe('Prefer: deviation=NAME', () => {
  it('adds the deviation to every market of this answer only, and journals it', async () => {
    const s = await stub();
    const prefer = { prefer: 'deviation=string-price' };
    const deviated = await list(s, prefer);
    expect(deviated.every((m) => typeof m['yes_price'] === 'string')).toBe(true);
    expect((await list(s)).every((m) => typeof m['yes_price'] === 'number')).toBe(true);
    const id = deviated[0]?.market_id as string;
    expect(await (await item(s, id, { prefer: 'respond-async, deviation="item-bom"' })).arrayBuffer().then((b) => new Uint8Array(b)[0])).toBe(0xef);
    expect((await item(s, id, { prefer: 'deviation=list-500' })).status).toBe(200);
    expect((await fetch(`${s.url}/markets`, { headers: { prefer: 'deviation=list-500' } })).status).toBe(500);
    const journal = await s.requests({ limit: 4 });
    expect(journal.map((e) => e.behaviour)).toEqual([[], ['deviation=item-bom'], [], ['deviation=list-500']]);
    expect((await s.requests({ limit: 10 }))[0]?.behaviour).toEqual(['deviation=string-price (Prefer)']);
  });

  it('answers 400 for a name outside the catalogue, naming the near miss', async () => {
    const s = await stub();
    const res = await fetch(`${s.url}/markets`, { headers: { prefer: 'deviation=flot-noise' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/Prefer: deviation: expected a deviation name \(did you mean float-noise\?.*Supported Prefer preferences: .*deviation\.$/);
  });

  it('serves integer-market-id under the integer, from the list the client read', async () => {
    const s = await stub();
    const listed = await list(s, { prefer: 'deviation=integer-market-id' });
    const first = listed[0]?.market_id as unknown as number;
    expect(typeof first).toBe('number');
    const res = await item(s, first, { prefer: 'deviation=integer-market-id' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { market_id: unknown }).market_id).toBe(first);
  });
});

describe('integer-market-id for a share of markets', () => {
  it('answers each chosen market under its integer, and the others as before', async () => {
    const s = await stub({ count: 50, deviations: [{ name: 'integer-market-id', rate: 0.5 }] });
    const ids = (await s.catalog()).map((m) => m.market_id);
    const listed = await list(s);
    let integers = 0;
    for (const [k, summary] of listed.entries()) {
      const id = summary.market_id as unknown;
      if (typeof id === 'number') {
        integers++;
        expect(id).toBe(integerMarketId(ids[k] as string, { seed: 9, idHash: fnv1a(ids[k] as string) }));
        expect(((await (await item(s, id)).json()) as { title: string }).title).toBe(summary['title']);
      } else {
        expect((await item(s, id as string)).status).toBe(200);
      }
    }
    expect(integers).toBeGreaterThan(10);
    expect(integers).toBeLessThan(40);
  });

  it('keeps a numeric id as its number (Polymarket\'s "559652" becomes 559652)', () => {
    expect(integerMarketId('559652', { seed: 1, idHash: 0 })).toBe(559652);
    expect(integerMarketId('0559652', { seed: 1, idHash: fnv1a('0559652') })).not.toBe(559652);
  });
});

describe('the domain faults of 0.1 are gone', () => {
  it('their admin routes answer 404 and the handle has no setMarketFaults: deviations replace them', async () => {
    const s = await stub();
    const id = (await s.catalog())[0]?.market_id as string;
    expect((await fetch(`${s.url}/__stub/faults`)).status).toBe(404);
    const put = await fetch(`${s.url}/__stub/markets/${encodeURIComponent(id)}/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '["missing"]' });
    expect(put.status).toBe(404);
    expect('setMarketFaults' in s).toBe(false);
    await expect(startMarketStub({ globalFaults: [] } as never)).rejects.toMatchObject({ code: 'OPTION_INVALID', option: 'globalFaults' });
  });
});
