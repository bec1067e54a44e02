// The comparisons a watch makes, on rounds written by hand: the findings no stub deviation provokes
// yet (a cache in front of one endpoint, validators over time, a market leaving the list), and
// the races that must not be findings.
import { describe, expect, it } from 'vitest';
import { ListedMarkets } from '../checks/index.js';
import type { AnswerFacts } from '../crawl/index.js';
import { fmix32 } from '../../floor/seed-mix.js';
import { WATCH_RULES } from '../../floor/watch-finding-codes.js';
import { countTransitions, emptyStillCounts, frozenRunNeeded, stayBound, stillBin } from './still-odds.js';
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
  it('items-lag-list: the single market shows what the list showed a round earlier, three rounds in a row', () => {
    const t = new WatchTracker();
    expect(codes(t, round(1, [['a', 0.4]], [['a', 0.4]]))).toEqual([]);
    expect(codes(t, round(2, [['a', 0.42]], [['a', 0.4]]))).toEqual([]);
    expect(codes(t, round(3, [['a', 0.44]], [['a', 0.42]]))).toEqual([]);
    const found = t.compare(round(4, [['a', 0.46]], [['a', 0.44]]));
    expect(found.map((f) => f.code)).toEqual(['items-lag-list']);
    expect(found[0]?.examples[0]).toMatchObject({ marketId: 'a', found: 'the single market shows what the list showed 1 round earlier', seen: [{ round: 3, value: 'list yes 0.44' }, { round: 4, value: 'list yes 0.46, single market yes 0.44' }] });
    expect(codes(t, round(5, [['a', 0.48]], [['a', 0.46]])), 'once an episode').toEqual([]);
  });

  it('list-lags-items: the list shows what the single market showed two rounds earlier, not one (read before this list)', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4]], [['a', 0.44]]));
    t.compare(round(2, [['a', 0.42]], [['a', 0.46]]));
    expect(codes(t, round(3, [['a', 0.44]], [['a', 0.48]]))).toEqual([]);
    expect(codes(t, round(4, [['a', 0.46]], [['a', 0.5]]))).toEqual([]);
    expect(codes(t, round(5, [['a', 0.48]], [['a', 0.52]]))).toEqual(['list-lags-items']);
  });

  it('a list that shows what the single market showed one round earlier may be a price that moved between the two requests: no lag', () => {
    const t = new WatchTracker();
    const found = [0, 1, 2, 3, 4, 5].flatMap((r) => codes(t, round(r + 1, [['a', 0.4 + r / 100]], [['a', 0.41 + r / 100]])));
    expect(found).toEqual([]);
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
  it('carries what prices-frozen learnt and each market\'s run; a count of the wrong shape is refused by its pointer', () => {
    const t = new WatchTracker();
    for (let r = 1; r <= 4; r++) t.compare(round(r, [['a', r % 2 === 0 ? 0.4 : 0.41], ['b', 0.5]]));
    const text = saveWatchState(t, 'http://x', 4);
    const loaded = loadWatchState(text, 'http://x', '--state');
    if ('ignored' in loaded) throw new Error(loaded.ignored);
    expect(loaded.tracker.deployment.stillCounts).toEqual(t.deployment.stillCounts);
    expect(loaded.tracker.markets.get('b')).toMatchObject({ still: 3 });
    expect(loaded.tracker.markets.get('a')).toMatchObject({ still: 0, moved: true });
    const broken = JSON.parse(text) as { track: { stillCounts: unknown[] } };
    broken.track.stillCounts[7] = -1;
    expect(() => loadWatchState(JSON.stringify(broken), 'http://x', '--state')).toThrow('/track/stillCounts/7 is not a whole number');
  });

  it('carries every comparison across a save and a load', () => {
    const t = new WatchTracker();
    t.compare(round(1, [['a', 0.4]], [['a', 0.4]], { etag: '"v1"', bodyHash: 1 }));
    t.compare(round(2, [['a', 0.4]], [['a', 404]], { etag: '"v1"', bodyHash: 1 }));
    const loaded = loadWatchState(saveWatchState(t, 'http://x', 2), 'http://x', '--state');
    if ('ignored' in loaded) throw new Error(loaded.ignored);
    expect(loaded.round).toBe(2);
    expect(loaded.tracker.markets.get('a')?.still).toBe(1);
    expect(loaded.tracker.compare(round(3, [['a', 0.4]], [['a', 0.4]], { etag: '"v1"', bodyHash: 9 })).map((f) => f.code).sort()).toEqual(['etag-kept', 'item-flapped']);
  });
});

describe('prices-frozen: a run of unchanged rounds that chance no longer explains', () => {
  /** Rounds of `moving` markets whose prices move or stay by `stays(market, round)`, and one market `stale` that never moves. */
  function watchRounds(rounds: number, moving: number, stays: (m: number, r: number) => boolean): Array<{ round: number; ids: string[] }> {
    const t = new WatchTracker();
    const cents = Array.from({ length: moving }, (_, m) => 20 + (m % 60));
    const found: Array<{ round: number; ids: string[] }> = [];
    for (let r = 1; r <= rounds; r++) {
      if (r > 1) cents.forEach((c, m) => { if (!stays(m, r)) cents[m] = c + (r % 2 === 0 ? 1 : -1); });
      const listed: Array<[string, number]> = [...cents.map((c, m): [string, number] => [`m${m}`, c / 100]), ['stale', 0.5]];
      for (const f of t.compare(round(r, listed))) if (f.code === 'prices-frozen') found.push({ round: r, ids: f.examples.map((e) => e.marketId ?? '') });
    }
    return found;
  }

  it('where moving markets never stay put, K unchanged rounds (the floor) are enough', () => {
    expect(watchRounds(WATCH_RULES.frozenRounds + 3, 30, () => false)).toEqual([{ round: WATCH_RULES.frozenRounds + 1, ids: ['stale'] }]);
  });

  it('where moving markets stay put half the rounds, a chance run of K is no finding, and the stale market is found later', () => {
    // A seeded coin per market and round (MurmurHash3's fmix32), heads half the time; market m0 stays K + 2 rounds from round 3.
    const coin = (m: number, r: number) => fmix32(fmix32(m + 1) ^ r) % 2 === 0;
    const k = WATCH_RULES.frozenRounds;
    const found = watchRounds(60, 40, (m, r) => (m === 0 ? r >= 3 && r < 3 + k + 2 : coin(m, r)));
    expect(found.flatMap((f) => f.ids)).toEqual(['stale']);
    expect(found[0]?.round).toBeGreaterThan(k + 1);
  });
});

describe('the odds of staying put (still-odds.ts)', () => {
  it('the run needed never falls under K, grows with the markets and rounds watched, and is endless with nothing learnt', () => {
    const k = WATCH_RULES.frozenRounds;
    expect(frozenRunNeeded(0.01, 12, k + 1)).toBe(k);
    expect(frozenRunNeeded(0.43, 10_000, 1_000)).toBeGreaterThan(frozenRunNeeded(0.43, 10_000, 200));
    expect(frozenRunNeeded(0.43, 10_000, 200)).toBeGreaterThan(frozenRunNeeded(0.43, 12, 200));
    expect(frozenRunNeeded(1, 12, 50)).toBe(Number.POSITIVE_INFINITY);
    // The bound itself: markets × q^L ≤ α / (j (j + 1)), j = r − K.
    const [q, n, r] = [0.43, 10_000, 200];
    const l = frozenRunNeeded(q, n, r);
    const j = r - k;
    expect(n * q ** l).toBeLessThanOrEqual(WATCH_RULES.frozenAlpha / (j * (j + 1)));
    expect(n * q ** (l - 1)).toBeGreaterThan(WATCH_RULES.frozenAlpha / (j * (j + 1)));
  });

  it('a price near 0 or 1, where prices stay put more often, is judged by the bins near it', () => {
    const counts = emptyStillCounts();
    // Interior: 1,000 transitions, a third unchanged; at 1 cent from the bound: 1,000, two thirds unchanged.
    countMany(counts, 30, 1000, 1 / 3);
    countMany(counts, 1, 1000, 2 / 3);
    expect(stayBound(counts, stillBin(0.5))).toBeLessThan(0.4);
    expect(stayBound(counts, stillBin(0.01))).toBeGreaterThan(0.65);
    expect(stayBound(counts, stillBin(0.99))).toBeGreaterThan(0.65);
    expect(stayBound(emptyStillCounts(), 10)).toBe(1);
  });
});

/** `n` transitions in `bin`, a share `stay` of them unchanged, spread evenly. */
function countMany(counts: number[], bin: number, n: number, stay: number): void {
  let previous = false;
  for (let i = 0; i < n; i++) {
    const stayed = Math.floor((i + 1) * stay) > Math.floor(i * stay);
    countTransitions(counts, bin, 0, stayed, previous);
    previous = stayed;
  }
}

describe('a lag is a side behind for most markets that move, not a race', () => {
  it('one market of four whose price moved between the two requests two rounds running is no lag', () => {
    const t = new WatchTracker();
    const found: string[] = [];
    // m0 rises a cent a round; the others move back and forth.
    const yes = (m: number, r: number) => Math.round((m === 0 ? 0.2 + r * 0.01 : 0.3 + m * 0.1 + (r % 2) * 0.02) * 100) / 100;
    for (let r = 1; r <= 6; r++) {
      const listed: Array<[string, number]> = [0, 1, 2, 3].map((m) => [`m${m}`, yes(m, r)]);
      // m0's single answer is read after its price moved on: the list's next value each round.
      const items: Array<[string, number]> = [0, 1, 2, 3].map((m) => [`m${m}`, m === 0 ? yes(m, r + 1) : yes(m, r)]);
      found.push(...codes(t, round(r, listed, items)));
    }
    expect(found).toEqual([]);
  });
});
