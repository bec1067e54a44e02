import { describe, expect, it } from 'vitest';
import { deviationsOf, marketMatches, priceBins, unbalanced } from '../../console/catalog-model.js';
import { clockChange, clockView } from '../../console/clock-model.js';
import type { DeviationState, JournalEntry, JournalPage, MarketRow } from '../../console/console-types.js';
import { entryMatches, MAX_HELD_ENTRIES, missedBy, newEntries, nextRead } from '../../console/journal-feed.js';

// The console's logic that needs no browser: which entries to read next, the journal filter, the
// deviations each market row shows, and the price chart's bins.
const entry = (seq: number, extra: Partial<JournalEntry> = {}): JournalEntry => ({ seq, time: '2026-01-01T00:00:00.000Z', stubTime: '2026-01-01T00:00:00Z', method: 'GET', path: '/markets', query: {}, headers: {}, status: 200, durationMs: 1, behaviour: [], ...extra });
const page = (...seqs: number[]): JournalPage => ({ total: seqs.at(-1) ?? 0, size: seqs.length, capacity: 1000, requests: seqs.map((s) => entry(s)) });
const market = (id: string, yes: unknown, no: unknown = typeof yes === 'number' ? 1 - yes : 0.5): MarketRow => ({ market_id: id, title: `Will ${id} rise?`, status: 'active', yes_price: yes, no_price: no, resolution_date: '2026-06-30' });

describe('the live journal feed', () => {
  it('reads nothing when the newest entry is the one seen, the new ones otherwise (at most what it holds)', () => {
    expect(nextRead({ lastSeq: 7 }, page(7))).toEqual({ kind: 'none' });
    expect(nextRead({ lastSeq: 7 }, page(9))).toEqual({ kind: 'read', limit: 2 });
    expect(nextRead({ lastSeq: 0 }, page(5000))).toEqual({ kind: 'read', limit: MAX_HELD_ENTRIES });
    expect(nextRead({ lastSeq: 0 }, page())).toEqual({ kind: 'none' });
  });

  it('starts again when the journal was emptied (the newest seq went back)', () => {
    expect(nextRead({ lastSeq: 40 }, page(3))).toEqual({ kind: 'reset', limit: 3 });
  });

  it('keeps only entries past the cursor, and sees a gap left by entries that arrived after the probe', () => {
    expect(newEntries({ lastSeq: 8 }, page(7, 8, 9, 10))).toEqual({ entries: [entry(9), entry(10)], cursor: { lastSeq: 10 } });
    expect(newEntries({ lastSeq: 8 }, page())).toEqual({ entries: [], cursor: { lastSeq: 8 } });
    // Probe said 10 (limit 2 from 8), but 11 arrived: the read of 2 got 10 and 11, missing 9.
    expect(missedBy({ lastSeq: 8 }, page(10, 11), 2)).toBe(3);
    expect(missedBy({ lastSeq: 8 }, page(9, 10), 2)).toBeUndefined();
    // Fewer than asked: the journal has no more (older ones were dropped).
    expect(missedBy({ lastSeq: 8 }, page(12), 2)).toBeUndefined();
  });

  it('filters by text, method and status class; "none" is a reset connection, "faulted" any behaviour', () => {
    const reset = entry(1, { status: null, behaviour: ['fault=reset (rule r1)'], path: '/markets/ABC' });
    const missing = entry(2, { status: 404, method: 'HEAD', query: { cursor: 'xyz' } });
    const all = { text: '', method: '', status: 'all' } as const;
    expect(entryMatches(reset, { ...all, status: 'none' })).toBe(true);
    expect(entryMatches(missing, { ...all, status: 'none' })).toBe(false);
    expect(entryMatches(reset, { ...all, status: 'faulted' })).toBe(true);
    expect(entryMatches(missing, { ...all, status: '4xx' })).toBe(true);
    expect(entryMatches(missing, { ...all, status: '5xx' })).toBe(false);
    expect(entryMatches(missing, { ...all, method: 'GET' })).toBe(false);
    expect(entryMatches(missing, { ...all, text: 'XYZ' })).toBe(true);
    expect(entryMatches(reset, { ...all, text: ' rule r1 ' })).toBe(true);
    expect(entryMatches(reset, { ...all, text: 'abd' })).toBe(false);
  });
});

describe('the catalog pane', () => {
  const state: DeviationState = {
    catalogue: [{ name: 'string-price', class: 'contract', scope: 'market', describe: '' }, { name: 'item-500', class: 'contract', scope: 'market', describe: '' }, { name: 'price-sum', class: 'assumption', scope: 'market', describe: '' }, { name: 'list-500', class: 'contract', scope: 'list', describe: '' }],
    active: [{ name: 'item-500' }, { name: 'price-sum', rate: 0.25 }, { name: 'string-price', marketIds: ['A'] }, { name: 'list-500' }],
    reach: [
      { name: 'item-500', scope: 'market', chosen: 'all', markets: 3, catalog: 3, marketIds: ['A', 'B', 'C'] },
      { name: 'price-sum', scope: 'market', chosen: 'rate', rate: 0.25, markets: 1, catalog: 3, marketIds: ['C'] },
      { name: 'string-price', scope: 'market', chosen: 'marketIds', markets: 1, catalog: 3, marketIds: ['A'] },
      { name: 'list-500', scope: 'list', chosen: 'list', catalog: 3 },
    ],
  };

  it('tags each market with the deviations it serves: named for it, every market\'s, and a share only where the stub counted it; list ones on none', () => {
    expect(deviationsOf('A', state).map((t) => t.label)).toEqual(['item-500 (all)', 'string-price']);
    expect(deviationsOf('B', state).map((t) => t.kind)).toEqual(['all']);
    expect(deviationsOf('C', state).map((t) => t.label)).toEqual(['item-500 (all)', 'price-sum (25% share)']);
  });

  it('a share of a catalog too large to count is a chance on every market, and says so', () => {
    const large: DeviationState = { ...state, reach: [{ name: 'price-sum', scope: 'market', chosen: 'rate', rate: 0.1, markets: 30_000, estimated: true, catalog: 300_000 }] };
    expect(deviationsOf('A', large)).toEqual([{ name: 'price-sum', kind: 'rate', label: 'price-sum ~10%?' }]);
  });

  it('searches every word in id, title, status, date and deviation names, ignoring case', () => {
    const a = market('A', 0.4);
    expect(marketMatches(a, deviationsOf('A', state), 'string-PRICE will')).toBe(true);
    expect(marketMatches(a, deviationsOf('A', state), '2026-06 a')).toBe(true);
    expect(marketMatches(market('B', 0.4), deviationsOf('B', state), 'string-price')).toBe(false);
    expect(marketMatches(a, [], '   ')).toBe(true);
  });

  it('bins yes prices in twentieths of [0, 1] (1 in the last), counting non-numbers apart, and counts yes + no off 1', () => {
    const markets = [market('A', 0), market('B', 0.049), market('C', 0.05), market('D', 1), market('E', '0.5'), market('F', 1.5), market('G', 0.3, 0.8)];
    const { counts, outside } = priceBins(markets);
    expect(counts).toHaveLength(20);
    expect([counts[0], counts[1], counts[6], counts[19], outside]).toEqual([2, 1, 1, 1, 2]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    // E (a string price) and G (0.3 + 0.8); F's 1.5 + -0.5 sums to 1.
    expect(unbalanced(markets)).toBe(2);
  });
});

describe('the clock pane (GET /__stub/clock)', () => {
  const reading = (rate: number, lifecycle: 'off' | 'generic' | 'kalshi' = 'off') => ({ instant: '2026-01-01T06:00:00Z', rate, start: '2026-01-01T00:00:00Z', lifecycle });

  it('shows a frozen clock as read, whatever the wall time since', () => {
    expect(clockView(reading(0), 1000, 61_000)).toEqual({ instant: '2026-01-01T06:00:00Z', pace: 'frozen (rate 0)', lifecycle: undefined });
  });

  it('runs a running clock on by the real time since it was read, times the rate', () => {
    expect(clockView(reading(60), 1000, 3500).instant).toBe('2026-01-01T06:02:30Z');
    expect(clockView(reading(1), 0, 1500).instant).toBe('2026-01-01T06:00:01Z');
    expect(clockView({ ...reading(0), instant: '2026-01-01T06:00:00.750Z' }, 0, 0).instant).toBe('2026-01-01T06:00:00Z');
    expect(clockView(reading(3600), 0, 0)).toMatchObject({ instant: '2026-01-01T06:00:00Z', pace: 'rate 3600: 1 h of stub time a second' });
    expect(clockView(reading(1), 0, 0).pace).toBe('real time (rate 1)');
    expect(clockView(reading(90), 0, 0).pace).toBe('rate 90: 1.5 min of stub time a second');
    expect(clockView(reading(0.5), 0, 0).pace).toBe('rate 0.5: 0.5 s of stub time a second');
  });

  it('never shows the clock going back (a wall clock set back) nor past 9999-12-31', () => {
    expect(clockView(reading(60), 5000, 1000).instant).toBe('2026-01-01T06:00:00Z');
    expect(clockView({ ...reading(31_536_000), instant: '9999-12-31T00:00:00Z' }, 0, 10_000).instant).toBe('9999-12-31T23:59:59Z');
  });

  it('says the lifecycle only when one is on', () => {
    expect(clockView(reading(0, 'kalshi'), 0, 0).lifecycle).toBe('lifecycle kalshi: markets open, close and resolve on this clock');
    expect(clockView(reading(0, 'generic'), 0, 0).lifecycle).toContain('lifecycle generic');
    expect(clockView(reading(0, 'off'), 0, 0).lifecycle).toBeUndefined();
  });

  it('asks POST /__stub/clock for an advance or a rate, and leaves the rules of each to the stub', () => {
    expect(clockChange(' PT6H ', '')).toEqual({ advance: 'PT6H' });
    expect(clockChange('', '60')).toEqual({ rate: 60 });
    expect(clockChange('P1D', '0')).toEqual({ advance: 'P1D', rate: 0 });
    // The stub refuses these, naming the field (docs/admin-api.md): the page shows its words.
    expect(clockChange('-PT1H', '')).toEqual({ advance: '-PT1H' });
    expect(clockChange('', '-1')).toEqual({ rate: -1 });
  });

  it('refuses an empty change and a rate that is no number, naming the field', () => {
    expect(() => clockChange(' ', '')).toThrow(/give a duration to advance by/);
    expect(() => clockChange('', 'fast')).toThrow(/^rate: expected .*found "fast"/);
    expect(() => clockChange('', 'Infinity')).toThrow(/^rate: /);
  });
});
