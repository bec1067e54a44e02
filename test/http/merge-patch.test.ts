import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildCatalog, createApp, getMarketValidator, type Market } from '../../src/index.js';
import { createStubRuntime } from '../../src/runtime/stub-runtime.js';
import { toSummary } from '../../src/catalog/market-catalog.js';
import { createStubControls } from '../../src/runtime/stub-controls.js';
import { MarketStubError } from '../../src/floor/market-stub-error.js';
import { mixSeed } from '../../src/floor/seed-mix.js';

const market = (id: string, extra: Record<string, unknown> = {}): Market => ({ market_id: id, title: `Will ${id} happen?`, status: 'active', yes_price: 0.3, no_price: 0.7, resolution_date: '2027-05-01', ...extra }) as Market;

/** RFC 7396 Appendix A, every example: original, patch, result. */
const APPENDIX_A: [unknown, unknown, unknown][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('patchMarket follows RFC 7396 (Appendix A examples, applied to a member of a market)', () => {
  it.each(APPENDIX_A.map((c, i) => [i + 1, ...c] as const))('example %i', async (_n, original, patch, result) => {
    const catalog = await buildCatalog({ markets: [market('m', { doc: original })], seed: 1, count: 0, clock: '2026-01-01' });
    const controls = createStubControls(createStubRuntime({ catalog }));
    const patched = controls.patchMarket('test', 'm', { doc: patch });
    if (result === null) expect(patched).not.toHaveProperty('doc');
    else expect(patched.doc).toEqual(result);
    expect({ ...patched, doc: undefined }).toEqual({ ...market('m'), doc: undefined });
  });

  it('the whole-market patch of the RFC §3 example shape: members replaced, nested merged, null removes', async () => {
    const catalog = await buildCatalog({ markets: [market('m', { author: { givenName: 'John', familyName: 'Doe' }, tags: ['example', 'sample'], content: 'This will be unchanged' })], seed: 1, count: 0, clock: '2026-01-01' });
    const a = createApp({ catalog });
    const res = await request(a).patch('/__stub/markets/m').set('content-type', 'application/merge-patch+json')
      .send(JSON.stringify({ title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] })).expect(200);
    expect(res.body).toEqual({ ...market('m'), title: 'Hello!', author: { givenName: 'John' }, tags: ['example'], content: 'This will be unchanged', phoneNumber: '+01-123-456-7890' });
  });
});

/** A seeded random JSON-ish value for patches: good values, wrong types, nulls, nesting, prototype keys. */
function randomValue(r: () => number, depth = 0): unknown {
  const k = r() % 12;
  if (k === 0) return null;
  if (k === 1) return (r() % 100) / 100;
  if (k === 2) return r() % 3 === 0 ? 'active' : `t${r() % 50}`;
  if (k === 3) return r() % 2 === 0;
  if (k === 4) return `2027-0${1 + (r() % 9)}-${10 + (r() % 25)}`;
  if (k === 5 && depth < 3) return Array.from({ length: r() % 3 }, () => randomValue(r, depth + 1));
  if (k === 6 && depth < 3) return randomPatch(r, depth + 1);
  if (k === 7) return -1 - (r() % 5);
  if (k === 8) return '';
  return (r() % 10_000) / 10_000;
}
const KEYS = ['title', 'status', 'yes_price', 'no_price', 'resolution_date', 'market_id', 'meta', 'extra', '__proto__', 'constructor', 'prototype'];
function randomPatch(r: () => number, depth = 0): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (let i = 0; i < 1 + (r() % 3); i++) {
    const key = KEYS[r() % KEYS.length] ?? 'title';
    // JSON.parse makes __proto__ an own member, as a request body does.
    Object.defineProperty(patch, key, { value: randomValue(r, depth), enumerable: true, writable: true, configurable: true });
  }
  return patch;
}

describe('property: thousands of random patches never make the stub serve a schema-invalid market', () => {
  it('5,000 seeded patches through the shared controls: every served item validates and list and item agree', async () => {
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4'];
    const catalog = await buildCatalog({ markets: ids.map((id) => market(id)), seed: 1, count: 0, clock: '2026-01-01' });
    const runtime = createStubRuntime({ catalog });
    const controls = createStubControls(runtime);
    const validator = getMarketValidator();
    let seq = 0;
    const r = () => mixSeed(2026, seq++);
    let accepted = 0;
    for (let i = 0; i < 5_000; i++) {
      const id = ids[r() % ids.length] ?? 'p0';
      const patch = JSON.parse(JSON.stringify(randomPatch(r))) as Record<string, unknown>;
      try {
        controls.patchMarket('PATCH /__stub/markets/{id}', id, patch);
        accepted += 1;
      } catch (error) {
        expect(error).toBeInstanceOf(MarketStubError);
      }
      const view = runtime.store.current();
      const list = JSON.parse(view.listBody().toString()) as unknown[];
      expect(list).toHaveLength(ids.length);
      const entry = view.entry(id);
      const item = JSON.parse(entry?.body.toString() ?? 'null') as Market;
      expect(validator.market(item)).toEqual([]);
      expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
      expect(list[ids.indexOf(id)]).toEqual(toSummary(item));
      expect(entry?.summaryJson).toBe(JSON.stringify(toSummary(item)));
    }
    // Both outcomes are exercised: the property is not vacuous.
    expect(accepted).toBeGreaterThan(200);
    expect(accepted).toBeLessThan(4_800);
  });

  it('the same over HTTP for 300 patches: GET /markets and GET /markets/{id} agree and validate', async () => {
    const catalog = await buildCatalog({ markets: [market('h')], seed: 1, count: 0, clock: '2026-01-01' });
    const a = createApp({ catalog });
    let seq = 0;
    const r = () => mixSeed(7, seq++);
    const validator = getMarketValidator();
    for (let i = 0; i < 300; i++) {
      const res = await request(a).patch('/__stub/markets/h').set('content-type', 'application/json').send(JSON.stringify(randomPatch(r)));
      expect([200, 400]).toContain(res.status);
      const item = (await request(a).get('/markets/h').expect(200)).body as Market;
      expect(validator.market(item)).toEqual([]);
      expect((await request(a).get('/markets').expect(200)).body).toEqual([toSummary(item)]);
    }
  });
});
