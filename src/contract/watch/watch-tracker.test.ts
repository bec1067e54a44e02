// The comparisons a watch makes, on rounds written by hand: the findings no stub deviation provokes
// yet (a cache in front of one endpoint, validators over time, a market leaving the list), and
// the races that must not be findings.
import { describe, expect, it } from 'vitest';
import { ListedMarkets } from '../checks/index.js';
import type { AnswerFacts } from '../crawl/index.js';
import { loadWatchState, saveWatchState } from './watch-state.js';
import { WatchTracker, type RoundObservations } from './watch-tracker.js';

const T0 = Date.parse('2026-11-28T00:00:00Z');

function facts(round: number, extra: Partial<AnswerFacts> = {}): AnswerFacts {
  const at = T0 + round * 60_000;
  return { status: 200, etag: undefined, lastModified: undefined, date: new Date(at).toUTCString(), sentAt: at, receivedAt: at + 5, ms: 5, bodyHash: round, ...extra };
}

/** A round: listed markets `[id, yes]` (status active), single answers `[id, yes | 404]`. */
function round(r: number, listed: Array<[string, number]>, items: Array<[string, number | 404]> = [], list: Partial<AnswerFacts> = {}, complete = true): RoundObservations {
  const markets = new ListedMarkets();
  for (const [id, yes] of listed) markets.set(id, { market_id: id, title: id, status: 'active', yes_price: yes, no_price: Math.round((1 - yes) * 100) / 100 });
  const answers = new Map(items.map(([id, yes]) => [id, yes === 404
    ? { facts: facts(r, { status: 404 }), market: undefined }
    : { facts: facts(r), market: { market_id: id, title: id, status: 'active' as const, yes_price: yes, no_price: Math.round((1 - yes) * 100) / 100, resolution_date: '2027-01-01' } }]));
  return { round: r, at: T0 + r * 60_000, list: facts(r, list), listed: markets, complete, items: answers };
}

const codes = (tracker: WatchTracker, r: RoundObservations) => tracker.compare(r).map((f) => f.code);

describe('a cache in front of one endpoint', () => {
  it('items-lag-list: the single market shows what the list showed a round earlier, two rounds in a row', () => {
    const t = new WatchTracker();
    expect(codes(t, round(1, [['a', 0.4]], [['a', 0.4]]))).toEqual([]);
    expect(codes(t, round(2, [['a', 0.42]], [['a', 0.4]]))).toEqual([]);
    const found = t.compare(round(3, [['a', 0.44]], [['a', 0.42]]));
    expect(found.map((f) => f.code)).toEqual(['items-lag-list']);
    expect(found[0]?.examples[0]).toMatchObject({ marketId: 'a', found: 'the single market shows what the list showed 1 round earlier', seen: [{ round: 2, value: 'list yes 0.42' }, { round: 3, value: 'list yes 0.44, single market yes 0.42' }] });
    expect(codes(t, round(4, [['a', 0.46]], [['a', 0.44]])), 'once an episode').toEqual([]);
  });

  it('list-lags-items: the list shows what the single market showed a round earlier', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4]], [['a', 0.42]]));
    t.compare(round(2, [['a', 0.42]], [['a', 0.44]]));
    expect(codes(t, round(3, [['a', 0.44]], [['a', 0.46]]))).toEqual(['list-lags-items']);
  });

  it('a price that moved between the list and the single request of one round is no lag', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4]], [['a', 0.4]]));
    expect(codes(t, round(2, [['a', 0.42]], [['a', 0.44]]))).toEqual([]);
    expect(codes(t, round(3, [['a', 0.44]], [['a', 0.44]]))).toEqual([]);
  });
});

describe('validators and Date over time', () => {
  it('etag-kept: the same ETag on another body; a new ETag on another body is fine', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4]], [], { etag: '"v1"', bodyHash: 1 }));
    expect(codes(t, round(2, [['a', 0.41]], [], { etag: '"v2"', bodyHash: 2 }))).toEqual([]);
    expect(codes(t, round(3, [['a', 0.41]], [], { etag: '"v2"', bodyHash: 2 }))).toEqual([]);
    const found = t.compare(round(4, [['a', 0.42]], [], { etag: '"v2"', bodyHash: 3 }));
    expect(found.map((f) => [f.code, f.endpoint])).toEqual([['etag-kept', 'GET /markets']]);
  });

  it('last-modified-backwards', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4]], [], { lastModified: 'Sat, 28 Nov 2026 00:01:00 GMT' }));
    expect(codes(t, round(2, [['a', 0.4]], [], { lastModified: 'Sat, 28 Nov 2026 00:00:00 GMT' }))).toEqual(['last-modified-backwards']);
  });

  it('clock-skew once, from more than 60 s outside the request; again only after it ended', () => {
    const t = new WatchTracker();
    const at = (r: number) => T0 + r * 60_000;
    expect(codes(t, round(1, [['a', 0.4]], [], { date: new Date(at(1) + 50_000).toUTCString() }))).toEqual([]);
    expect(codes(t, round(2, [['a', 0.4]], [], { date: new Date(at(2) - 120_000).toUTCString() }))).toEqual(['clock-skew']);
    expect(codes(t, round(3, [['a', 0.4]], [], { date: new Date(at(3) - 120_000).toUTCString() }))).toEqual([]);
    expect(codes(t, round(4, [['a', 0.4]]))).toEqual([]);
    expect(codes(t, round(5, [['a', 0.4]], [], { date: new Date(at(5) + 7_200_000).toUTCString() }))).toEqual(['clock-skew']);
  });
});

describe('markets that leave and come back', () => {
  it('market-flapped after an absence from a complete list; an incomplete list proves no absence', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4], ['b', 0.5]]));
    t.compare(round(2, [['a', 0.4]], [], {}, false));
    expect(codes(t, round(3, [['a', 0.4], ['b', 0.5]]))).toEqual([]);
    t.compare(round(4, [['a', 0.4]]));
    const found = t.compare(round(5, [['a', 0.4], ['b', 0.5]]));
    expect(found.map((f) => f.code)).toEqual(['market-flapped']);
    expect(found[0]?.examples[0]?.seen.map((s) => [s.round, s.value])).toEqual([[3, 'listed'], [4, 'not listed'], [5, 'listed again']]);
  });

  it('item-flapped: 404 while listed, then 200', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4]], [['a', 0.4]]));
    expect(codes(t, round(2, [['a', 0.4]], [['a', 404]]))).toEqual([]);
    expect(codes(t, round(3, [['a', 0.4]], [['a', 0.4]]))).toEqual(['item-flapped']);
  });
});

describe('the state', () => {
  it('carries every comparison across a save and a load', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4]], [['a', 0.4]], { etag: '"v1"', bodyHash: 1 }));
    t.compare(round(2, [['a', 0.4]], [['a', 404]], { etag: '"v1"', bodyHash: 1 }));
    const loaded = loadWatchState(saveWatchState(t, 'http://x', 2), 'http://x', '--state');
    if ('ignored' in loaded) throw new Error(loaded.ignored);
    expect(loaded.round).toBe(2);
    expect(loaded.tracker.compare(round(3, [['a', 0.4]], [['a', 0.4]], { etag: '"v1"', bodyHash: 9 })).map((f) => f.code).sort()).toEqual(['etag-kept', 'item-flapped']);
  });
});
