import { afterEach, describe, expect, it } from 'vitest';
import { MAX_HOLD_MS } from '../../src/floor/limits.js';
import { rawExchange } from '../support/raw-http.js';
import { buildCatalog, createApp, startMarketStub, type MarketCatalog, type MarketStub } from '../../src/index.js';
import { createRequestJournal } from '../../src/journal/request-journal.js';
import { createBehaviourEngine } from '../../src/behaviour/behaviour.js';
import { createGeneratedCatalog } from '../../src/catalog/generated-catalog.js';
import { createMarketStore } from '../../src/catalog/market-store.js';
import { findDeviation } from '../../src/deviation/deviation-catalogue.js';
import type { MarketDeviation } from '../../src/deviation/deviation-definition.js';
import { resolveServeConfig } from '../../src/config.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function stub(options: Parameters<typeof startMarketStub>[0] = {}) {
  const s = await startMarketStub({ count: 5, clock: '2026-01-01', ...options });
  open.push(s);
  return s;
}


describe('rules are immutable; reset() restores them exactly', () => {
  it('a times: 2 rule applies twice, then twice again after reset (start-up and runtime rules)', async () => {
    const s = await stub({ rules: [{ id: 'boot', match: { route: 'item' }, behaviour: { status: 503 }, times: 2 }] });
    const id = (await s.catalog())[0]?.market_id ?? '';
    const statuses = async (n: number, path: string) => { const out: number[] = []; for (let i = 0; i < n; i++) out.push((await fetch(`${s.url}${path}`)).status); return out; };
    expect(await statuses(3, `/markets/${id}`)).toEqual([503, 503, 200]);
    await s.reset();
    expect((await s.catalog()).length).toBe(5);
    expect(await statuses(1, `/markets/${id}`)).toEqual([503]);
    expect((await fetch(`${s.url}/__stub/behaviours`).then((r) => r.json()) as { rules: { id: string; times: number }[] }).rules).toEqual([expect.objectContaining({ id: 'boot', times: 1 })]);
    await s.reset();
    expect(await statuses(3, `/markets/${id}`)).toEqual([503, 503, 200]);
  });

  it('the rule objects given are never changed, and rules() reads back the applications left', () => {
    const input = { match: { route: 'list' as const }, behaviour: { status: 500 }, times: 3 };
    const engine = createBehaviourEngine({ seed: 1, rules: [input] });
    engine.decide({ route: 'list', method: 'GET' });
    expect(input.times).toBe(3);
    expect(engine.rules()[0]?.times).toBe(2);
    engine.rules()[0]!.times = 99;
    expect(engine.rules()[0]?.times).toBe(2);
    engine.reset();
    expect(engine.rules()[0]?.times).toBe(3);
  });
});

describe('only real HTTP answers', () => {
  it.each([['Prefer: code=101', 'code=101'], ['Prefer: code=199', 'code=199'], ['Prefer: code=600', 'code=600']])('%s is refused with 400', async (_l, prefer) => {
    const s = await stub();
    const res = await fetch(`${s.url}/markets`, { headers: { prefer } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'bad_request', message: expect.stringContaining('from 200 to 599') });
  });

  it('status 101 is refused at configuration time (library and CLI options)', async () => {
    await expect(startMarketStub({ behaviour: { status: 101 } })).rejects.toThrow(/status: expected an integer from 200 to 599, found 101/);
    expect(() => resolveServeConfig({ status: '101' }, {})).toThrow(/--status: expected an integer from 200 to 599/);
  });

  it.each([204, 304, 205])('Prefer: code=%i sends no body and no Content-Length body', async (code) => {
    const s = await stub();
    const text = await rawExchange(s.url, `GET /markets HTTP/1.1\r\nHost: 127.0.0.1\r\nPrefer: code=${code}\r\nConnection: close\r\n\r\n`);
    expect(text.startsWith(`HTTP/1.1 ${code} `)).toBe(true);
    const [head, body] = text.split('\r\n\r\n');
    expect(body).toBe('');
    expect(head).not.toMatch(/content-length: [1-9]/i);
  });

  it('Prefer: code=201 keeps the normal body with that status; an error stays an error', async () => {
    const s = await stub();
    const res = await fetch(`${s.url}/markets`, { headers: { prefer: 'code=201' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toHaveLength(5);
    expect((await fetch(`${s.url}/markets/nope`, { headers: { prefer: 'code=200' } })).status).toBe(404);
  });

  it('delays are capped after all layers combine (global delay + rule jitter + Prefer jitter)', () => {
    const engine = createBehaviourEngine({ seed: 3, global: { delayMs: MAX_HOLD_MS, jitterMs: MAX_HOLD_MS }, rules: [{ match: {}, behaviour: { jitterMs: MAX_HOLD_MS } }] });
    for (let i = 0; i < 50; i++) {
      const applied = engine.decide({ route: 'list', method: 'GET' }, { jitterMs: MAX_HOLD_MS, fault: 'slow-body', dribbleMs: MAX_HOLD_MS });
      expect(applied.delayMs + applied.dribbleMs).toBeLessThanOrEqual(MAX_HOLD_MS);
      expect(applied.labels).toContain(`delay capped at ${MAX_HOLD_MS}`);
    }
  });
});

describe('the journal is bounded in entries and bytes', () => {
  const entry = (i: number, headers: Record<string, string> = {}) => ({ timeMs: 0, stubTimeMs: 0, method: 'GET', path: `/markets/${i}`, query: '', headers, status: 200, durationMs: 1, behaviour: [] });

  it('caps each entry\'s header bytes (8 KiB) and counts what it dropped', () => {
    const j = createRequestJournal(10);
    j.record(entry(1, { a: 'x'.repeat(5000), b: 'y'.repeat(5000), c: 'z' }));
    const [e] = j.list();
    expect(Object.keys(e?.headers ?? {})).toEqual(['a', 'c']);
    expect(e?.headersDropped).toBe(1);
  });

  it('drops the oldest entries past maxBytes; memory stays within it whatever the headers', () => {
    const j = createRequestJournal({ capacity: 100_000, maxBytes: 1024 * 1024 });
    for (let i = 0; i < 20_000; i++) j.record(entry(i, { big: 'h'.repeat(8000) }));
    expect(j.bytes()).toBeLessThanOrEqual(1024 * 1024);
    expect(j.size()).toBeLessThan(130);
    expect(j.total()).toBe(20_000);
    expect(j.list({ limit: 1 })[0]?.seq).toBe(20_000);
  });

  it('a read returns at most 1,000 entries (the newest), and options past the bounds are refused', async () => {
    const j = createRequestJournal(5_000);
    for (let i = 0; i < 5_000; i++) j.record(entry(i));
    const read = j.list();
    expect(read).toHaveLength(1_000);
    expect(read[0]?.seq).toBe(4_001);
    expect(j.count()).toBe(5_000);
    const catalog = await buildCatalog({ seed: 1, count: 1, clock: '2026-01-01' });
    expect(() => createApp({ catalog, journalSize: 100_001 })).toThrow(/createApp: journalSize: expected an integer from 0 to 100000/);
    expect(() => createApp({ catalog, journalBytes: 10 })).toThrow(/createApp: journalBytes: expected an integer from 1024 to 1073741824/);
    expect(() => createApp({ catalog, journalHeaders: 'some' as 'full' })).toThrow(/createApp: journalHeaders: expected one of redacted, full/);
    await expect(startMarketStub({ shutdownGraceMs: -1 })).rejects.toThrow(/startMarketStub: shutdownGraceMs: expected an integer from 0 to 600000/);
    await expect(startMarketStub({ allowedHosts: ['bad host'] })).rejects.toThrow(/startMarketStub: allowedHosts\[0\]: expected a host name/);
  });
});

describe('catalog edits cost O(changed markets)', () => {
  /** The base catalog, counting how often it is visited by position. */
  function counted(base: MarketCatalog): { catalog: MarketCatalog; visits: () => number } {
    let visits = 0;
    return { catalog: { ...base, entryAt: (i: number) => { visits += 1; return base.entryAt(i); } }, visits: () => visits };
  }

  it('put, patch and deviations on a 10,000,000-market generated catalog touch only those markets', () => {
    const { catalog, visits } = counted(createGeneratedCatalog(10_000_000, { seed: 1, clock: '2026-01-01' }));
    const store = createMarketStore(catalog, { seed: 1 });
    const id = catalog.entry('x')?.market.market_id ?? createGeneratedCatalog(10_000_000, { seed: 1, clock: '2026-01-01' }).entryAt(9_999_999)?.market.market_id ?? '';
    store.put({ market_id: 'added-1', title: 'Will it?', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' });
    store.patch(id, { title: 'Patched' });
    store.setMarketDeviations(id, [findDeviation('non-active-status') as MarketDeviation]);
    expect(visits()).toBe(0);
    const view = store.current();
    expect(view.size).toBe(10_000_001);
    expect(JSON.parse(view.entry(id)?.body.toString() ?? '{}')).toMatchObject({ title: 'Patched', status: 'suspended' });
    expect(view.entryAt(10_000_000)?.market.market_id).toBe('added-1');
    expect(() => store.remove(id)).toThrow(/at most 250000 markets for removing a market/);
  });

  it('a step of the walk rebuilds only the markets that move; step 0 serves the start-up catalog itself', async () => {
    const base = await buildCatalog({ seed: 4, count: 200, clock: '2026-01-01' });
    const origin = Date.parse('2026-01-01T00:00:00Z');
    const store = createMarketStore(base, { seed: 4, walk: { origin, stepMs: 60_000, mode: 'generated' } });
    expect(store.at(origin + 59_999)).toBe(base);
    const later = store.at(origin + 60_000);
    expect(store.at(origin + 119_999)).toBe(later);
    const moved = Array.from({ length: 200 }, (_, i) => later.entryAt(i)).filter((e, i) => e !== base.entryAt(i));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThan(200);
    for (const e of moved) expect(e?.market.status).toBe('active');
  });
});
