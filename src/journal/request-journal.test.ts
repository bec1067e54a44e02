import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRequestJournal, type RawJournalEntry } from './request-journal.js';

// Under load the journal keeps nothing of a request on the V8 heap (numbers in typed arrays, text
// copied into reused byte buffers). What it gives back must be exactly what it was given.

const text = fc.string({ unit: 'binary', maxLength: 40 });
const headerValue = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.constant(undefined));
const entryFields = {
  timeMs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  stubTimeMs: fc.integer({ min: 0, max: 253_402_300_799_999 }),
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE'),
  path: text.map((p) => `/${p}`),
  query: fc.constantFrom('', 'a=1', 'a=1&a=2&b=%20x', 'limit=5&cursor=b%3A10'),
  headers: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).filter((n) => !['authorization', 'proxy-authorization', 'cookie'].includes(n)), headerValue, { maxKeys: 6 }),
  status: fc.oneof(fc.constant(null), fc.integer({ min: 100, max: 599 })),
  durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
  behaviour: fc.array(fc.constantFrom('delay=200', 'fault=reset (rule r1)', 'status=503'), { maxLength: 2 }),
};
const entry: fc.Arbitrary<RawJournalEntry> = fc.record(entryFields);

describe('request journal storage', () => {
  it('gives back every field exactly as recorded, in order, after the ring has wrapped', () => {
    fc.assert(fc.property(fc.array(entry, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 15 }), (entries, capacity) => {
      const journal = createRequestJournal({ capacity, headers: 'full' });
      for (const e of entries) journal.record(e);
      const kept = entries.slice(-capacity);
      const listed = journal.list();
      expect(listed).toHaveLength(kept.length);
      listed.forEach((got, i) => {
        const want = kept[i] as RawJournalEntry;
        expect(got.seq).toBe(entries.length - kept.length + i + 1);
        expect(got.time).toBe(new Date(want.timeMs).toISOString());
        expect(Date.parse(got.stubTime)).toBe(want.stubTimeMs);
        expect([got.method, got.path, got.status, got.durationMs, got.behaviour]).toEqual([want.method, want.path, want.status, want.durationMs, want.behaviour]);
        expect(Object.entries(got.headers)).toEqual(Object.entries(want.headers));
        expect(new URLSearchParams(want.query).getAll('a')).toEqual(([] as string[]).concat(got.query['a'] ?? []));
      });
      expect(journal.total()).toBe(entries.length);
    }), { numRuns: 200 });
  });

  it('filters by method, status, path and prefix on the stored text', () => {
    const journal = createRequestJournal(10);
    const base = { timeMs: 0, stubTimeMs: 0, query: '', headers: { host: 'x' }, durationMs: 1, behaviour: [] };
    journal.record({ ...base, method: 'GET', path: '/markets/a', status: 200 });
    journal.record({ ...base, method: 'GET', path: '/markets', status: 200 });
    journal.record({ ...base, method: 'HEAD', path: '/markets/b', status: 404 });
    journal.record({ ...base, method: 'GET', path: '/healthz', status: null });
    expect(journal.list({ pathPrefix: '/markets/' }).map((e) => e.path)).toEqual(['/markets/a', '/markets/b']);
    expect(journal.count({ method: 'get' })).toBe(3);
    expect(journal.list({ status: 404 }).map((e) => e.method)).toEqual(['HEAD']);
    expect(journal.list({ path: '/healthz' })[0]?.status).toBeNull();
    journal.clear();
    expect([journal.size(), journal.total(), journal.bytes(), journal.list()]).toEqual([0, 0, 0, []]);
  });

  it('returns fresh values: changing what list() gave does not change the journal', () => {
    const journal = createRequestJournal(5);
    journal.record({ timeMs: 0, stubTimeMs: 0, method: 'GET', path: '/markets', query: '', headers: { host: 'x', accept: ['a', 'b'] }, status: 200, durationMs: 1, behaviour: [] });
    const first = journal.list()[0];
    if (first) {
      first.headers['host'] = 'changed';
      first.behaviour.push('x');
    }
    expect(journal.list()[0]?.headers).toEqual({ host: 'x', accept: ['a', 'b'] });
    expect(journal.list()[0]?.behaviour).toEqual([]);
  });

  it('keeps texts longer than 65,535 code units (lengths take two code units) and a slot rewritten with a shorter entry', () => {
    const journal = createRequestJournal(1);
    const path = `/markets/${'\u{1F600}x'.repeat(30_000)}`;
    const query = `q=${'é'.repeat(70_000)}`;
    journal.record({ timeMs: 0, stubTimeMs: 0, method: 'GET', path, query: '', headers: { host: 'x', 'x-many': ['a', '', 'c'], 'x-none': undefined }, status: 200, durationMs: 1, behaviour: [] });
    expect(journal.list()[0]).toMatchObject({ path, headers: { host: 'x', 'x-many': ['a', '', 'c'], 'x-none': undefined } });
    expect(journal.count({ path })).toBe(1);
    journal.record({ timeMs: 0, stubTimeMs: 0, method: 'GET', path: '/markets', query, headers: {}, status: 200, durationMs: 1, behaviour: [] });
    expect(journal.list()[0]).toMatchObject({ path: '/markets', query: { q: 'é'.repeat(70_000) }, headers: {} });
    expect(journal.count({ pathPrefix: '/markets/' })).toBe(0);
  });
});

describe('request journal responses', () => {
  it('gives each response back with the headers it was recorded with, and counts each entry alone, through runs of repeated, reordered and changed headers', () => {
    // A few header sets, so that runs repeat, break and come back: the same names and values in
    // another order, one value changed, one name fewer. Each answer hands the journal a fresh object.
    const sets: Record<string, string>[] = [
      { 'content-type': 'application/json', etag: '"a"', 'cache-control': 'no-cache', 'content-length': '3' },
      { etag: '"a"', 'content-type': 'application/json', 'cache-control': 'no-cache', 'content-length': '3' },
      { 'content-type': 'application/json', etag: '"b"', 'cache-control': 'no-cache', 'content-length': '3' },
      { 'content-type': 'application/json', etag: '"a"', 'cache-control': 'no-cache' },
      { 'content-type': 'application/json', etag: '"a"', 'cache-control': 'no-cache', 'content-length': '3', 'x-extra': '' },
    ];
    const body = new Uint8Array([123, 125, 10]);
    const answer = (i: number): RawJournalEntry => ({ timeMs: i, stubTimeMs: i, method: 'GET', path: '/markets', query: '', headers: { host: 'x' }, status: 200, durationMs: 1, behaviour: [], response: { headers: { ...sets[i] }, body } });
    const alone = (i: number) => {
      const one = createRequestJournal(1);
      one.record(answer(i));
      return one.bytes();
    };
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: sets.length - 1 }), { minLength: 1, maxLength: 30 }), (picks) => {
      const journal = createRequestJournal(100);
      for (const i of picks) journal.record(answer(i));
      const responses = [...journal.exchanges()].map((x) => x.response?.headers);
      expect(responses.map((h) => Object.entries(h ?? {}).sort())).toEqual(picks.map((i) => Object.entries(sets[i] ?? {}).sort()));
      expect(journal.bytes()).toBe(picks.reduce((sum, i) => sum + alone(i), 0));
    }), { numRuns: 200 });
  });
});

describe('request journal memory', () => {
  it('dropping by bytes lets go of slots and reuses their buffers, and every entry kept reads back exactly', () => {
    const big = fc.record({ ...entryFields, headers: fc.dictionary(fc.constantFrom('a', 'b', 'x-pad'), fc.string({ unit: 'binary', minLength: 50, maxLength: 700 }), { maxKeys: 3 }) });
    fc.assert(fc.property(fc.array(big, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1024, max: 6000 }), fc.integer({ min: 1, max: 50 }), (entries, maxBytes, capacity) => {
      const journal = createRequestJournal({ capacity, maxBytes, headers: 'full' });
      for (const e of entries) journal.record(e);
      const listed = journal.list();
      expect(listed.length).toBe(journal.size());
      // The newest entry is kept even when it alone is larger than maxBytes.
      expect(journal.size() === 1 || journal.bytes() <= maxBytes).toBe(true);
      expect(journal.size()).toBeLessThan(entries.length > capacity ? capacity + 1 : entries.length + 1);
      listed.forEach((got, i) => {
        const want = entries[got.seq - 1] as RawJournalEntry;
        expect(got.seq).toBe(entries.length - listed.length + i + 1);
        expect([got.path, got.method, got.status]).toEqual([want.path, want.method, want.status]);
        expect(Object.entries(got.headers)).toEqual(Object.entries(want.headers));
      });
    }), { numRuns: 200 });
  });

  it('holds buffers for the entries it keeps, not for its capacity: 8,000 entries of 8 KB into 100,000 slots and 4 MiB', () => {
    const journal = createRequestJournal({ capacity: 100_000, maxBytes: 4 * 2 ** 20 });
    const headers = { host: 'x', 'x-padding': 'p'.repeat(7_900) };
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 8_000; i++) journal.record({ timeMs: i, stubTimeMs: 0, method: 'GET', path: `/markets/${i}`, query: '', headers, status: 200, durationMs: 1, behaviour: [] });
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(journal.size()).toBeLessThan(600);
    expect(journal.bytes()).toBeLessThanOrEqual(4 * 2 ** 20);
    // The entries held take 16 KiB each as UTF-16 (about 8 MiB); each slot once kept its buffer after its entry was dropped (125 MiB here).
    expect(grown).toBeLessThan(24 * 2 ** 20);
    expect(journal.list({ limit: 1 })[0]?.headers['x-padding']).toBe(headers['x-padding']);
  });
});
