import { onItem, onList, type MarketDeviation, type MarketViews } from './deviation-definition.js';

// The deviations of chosen markets that change over time: each reads the step of the stub clock
// (`ctx.tick`: whole `--price-step`s since the clock's start, so a tick or the running clock moves
// it; `followsTick`), so one crawl sees a conforming market and only a watch that compares rounds
// (`check --watch`, watchDeployment) sees the fault. What each provokes, and in how many rounds of
// a watch that ticks the stub once between rounds, is its `watch` entry.

/** What one crawl reports of a market served `resolved`: the assumption that every market is active (`$defs/MarketAssumptions`). */
const NOT_ACTIVE = [onList('warning', 'const', '/*/status'), onItem('warning', 'const', '/status')];


/** A price in integer units of 1e-4. */
function units(price: unknown): number {
  return typeof price === 'number' && Number.isFinite(price) ? Math.round(price * 10_000) : 0;
}

/** Both views with the status set. */
function withStatus(views: MarketViews, status: string): MarketViews {
  return { item: { ...views.item, status }, summary: { ...views.summary, status } };
}

/**
 * Both views 5 cents away at odd ticks (down when yes_price is above 0.5, so it stays within
 * 0.01…0.99): a tick moves a price by at most 2 cents, so the prices served change at every tick.
 */
function jolted(views: MarketViews, tick: number): MarketViews {
  if (tick % 2 === 0) return views;
  const yes = units(views.item['yes_price']);
  const step = yes > 5_000 ? -500 : 500;
  const move = (view: MarketViews['item']) => ({ ...view, yes_price: (units(view['yes_price']) + step) / 10_000, no_price: (units(view['no_price']) - step) / 10_000 });
  return { item: move(views.item), summary: move(views.summary) };
}

export const WATCHED_DEVIATIONS: readonly MarketDeviation[] = [
  {
    name: 'status-regression', class: 'assumption', scope: 'market', endpoints: ['list', 'item'],
    describe: 'the market is `resolved` at even steps of the stub clock and `active` again at odd ones (a resolution rolled back; a tick or `--price-step` of stub time is one step)',
    // At an even tick one crawl sees a resolved market: the assumption that markets are active.
    findings: NOT_ACTIVE,
    watch: { findings: ['status-regression'], rounds: 2 },
    record: 'kept',
    followsTick: true,
    views: (v, ctx) => ((ctx.tick ?? 0) % 2 === 0 ? withStatus(v, 'resolved') : v),
  },
  {
    name: 'prices-after-resolution', class: 'assumption', scope: 'market', endpoints: ['list', 'item'],
    describe: 'the market is `resolved`, and its prices still move at every step of the stub clock (5 cents at odd steps)',
    findings: NOT_ACTIVE,
    watch: { findings: ['prices-after-resolution'], rounds: 2 },
    record: 'kept',
    followsTick: true,
    views: (v, ctx) => withStatus(jolted(v, ctx.tick ?? 0), 'resolved'),
  },
  {
    name: 'item-flapping', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market answers 404 at odd steps of the stub clock and 200 at even ones, while listed throughout',
    findings: [],
    unseen: 'one crawl at an even step sees a conforming market (at an odd step, `not-found`); only a watch sees it come back',
    watch: { findings: ['item-flapped'], rounds: 3 },
    record: 'kept',
    followsTick: true,
    hidesItemAt: (ctx) => (ctx.tick ?? 0) % 2 === 1,
  },
];
