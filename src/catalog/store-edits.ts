import jsonMergePatch from 'json-merge-patch';
import type { Market } from '../schema/generated/market-types.js';
import { MarketStubError } from '../core/market-stub-error.js';
import { MAX_ADDED_MARKETS, MAX_EDITABLE, MAX_MARKET_DEPTH, MAX_TICK_WORK } from '../core/limits.js';
import { mixSeed } from '../core/seed-mix.js';
import { fnv1a } from '../core/text-hash.js';
import { validateMarkets } from './data-catalog.js';
import { createMemoryCatalog } from './market-catalog.js';
import { checkJsonInput } from './json-input.js';
import { deviationsOf, forget, idAt, rawMarket, refresh, startOver, storeSize, type StoreState } from './store-state.js';

// The store's edits: each validates and serialises only the markets it changes, then swaps in a new view.

/** Replaces every market (validated like fixtures). @throws MarketStubError MARKETS_INVALID */
export function replaceMarkets(s: StoreState, items: readonly unknown[], where: string): void {
  items.forEach((item, i) => checkJsonInput(item, where, `markets/${i}`, MAX_MARKET_DEPTH, 'a market'));
  const markets = validateMarkets(items, where);
  startOver(s, createMemoryCatalog(markets, s.start.source, `${s.start.source}: ${markets.length} markets (replaced at run time)`));
  refresh(s);
}

/** Adds or replaces one market (validated). @throws MarketStubError MARKETS_INVALID, LIMIT_EXCEEDED */
export function putMarket(s: StoreState, item: unknown, where: string): 'created' | 'replaced' {
  checkJsonInput(item, where, 'market', MAX_MARKET_DEPTH, 'a market');
  const [market] = validateMarkets([item], where, 'market');
  if (!market) throw new Error('unreachable: validateMarkets returned no market');
  const id = market.market_id;
  const exists = rawMarket(s, id) !== undefined;
  if (!exists) {
    if (s.added.length >= MAX_ADDED_MARKETS) {
      throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'markets', expected: `at most ${MAX_ADDED_MARKETS} markets added at run time (replace the catalog or restart with fixtures for more)`, found: s.added.length + 1 });
    }
    if (s.base.entry(id) === undefined || s.removed.has(id)) {
      s.added.push(id);
      s.order?.push(id);
    }
    s.removed.delete(id);
  }
  s.changed.set(id, market);
  forget(s, id);
  refresh(s);
  return exists ? 'replaced' : 'created';
}

/** Applies an RFC 7396 merge patch to one market and validates the result. @throws MarketStubError MARKETS_INVALID, OPTION_INVALID */
export function patchMarket(s: StoreState, marketId: string, patch: Record<string, unknown>, where: string): Market | undefined {
  const old = rawMarket(s, marketId);
  if (!old) return undefined;
  checkJsonInput(patch, where, 'patch', MAX_MARKET_DEPTH, 'a market');
  if ('market_id' in patch && patch['market_id'] !== marketId) {
    throw new MarketStubError({ code: 'OPTION_INVALID', where, option: 'patch.market_id', expected: `absent or ${JSON.stringify(marketId)} (market_id cannot change)`, found: patch['market_id'] });
  }
  // json-merge-patch applies RFC 7396 §2 in place: give it a copy, never the served record.
  const merged: unknown = jsonMergePatch.apply(structuredClone(old), patch);
  const [market] = validateMarkets([merged], where, 'patched market');
  if (!market) throw new Error('unreachable: validateMarkets returned no market');
  s.changed.set(marketId, market);
  forget(s, marketId);
  refresh(s);
  return market;
}

/** Removes one market. @throws MarketStubError LIMIT_EXCEEDED above MAX_EDITABLE markets. */
export function removeMarket(s: StoreState, marketId: string, where: string): boolean {
  if (rawMarket(s, marketId) === undefined) return false;
  const ids = materialiseOrder(s, where);
  ids.splice(ids.indexOf(marketId), 1);
  s.removed.add(marketId);
  s.changed.delete(marketId);
  if (s.targeted.has(marketId)) s.targeted = new Map([...s.targeted].filter(([id]) => id !== marketId));
  forget(s, marketId);
  refresh(s);
  return true;
}

function materialiseOrder(s: StoreState, where: string): string[] {
  if (s.order) return s.order;
  requireEditable(storeSize(s), where, 'removing a market');
  const ids: string[] = [];
  for (let i = 0; i < s.base.size + s.added.length; i++) {
    const id = idAt(s, i);
    if (id !== undefined) ids.push(id);
  }
  s.order = ids;
  return ids;
}

/** Moves prices of active, non-frozen markets by `n` ticks. @returns the tick count. @throws MarketStubError LIMIT_EXCEEDED */
export function tickMarkets(s: StoreState, n: number, where: string): number {
  const count = storeSize(s);
  requireEditable(count, where, 'tick');
  if (n * count > MAX_TICK_WORK) {
    const most = Math.floor(MAX_TICK_WORK / Math.max(1, count));
    const advice = most >= 1 ? `n at most ${most} for ${count} markets; call tick again for more` : `a catalog of ${count} markets is above it: a tick holds the server while it visits every market`;
    throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'n', expected: `n × catalog size at most ${MAX_TICK_WORK} per call (${advice})`, found: n });
  }
  for (let i = 0; i < count; i++) {
    const id = idAt(s, i);
    const market = id === undefined ? undefined : rawMarket(s, id);
    if (!id || !market || market.status !== 'active' || deviationsOf(s, id).some((d) => d.freezesPrices)) continue;
    const moved = movePrices(market, s.seed, fnv1a(id), s.tickCount, n);
    if (moved === market) continue;
    s.changed.set(id, moved);
    forget(s, id);
  }
  s.tickCount += n;
  refresh(s);
  return s.tickCount;
}

function requireEditable(size: number, where: string, what: string): void {
  if (size > MAX_EDITABLE) {
    throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'catalog', expected: `a catalog of at most ${MAX_EDITABLE} markets for ${what}`, found: size });
  }
}

/**
 * Moves yes_price `n` ticks from tick `from` on: each tick −2…+2 cents (seeded by market and tick
 * number), clamped to [0.01, 0.99]; no_price moves by the opposite, keeping their sum. Integer units
 * of 1e-4 divided once: the JSON text never carries float noise.
 */
function movePrices(market: Market, seed: number, idHash: number, from: number, n: number): Market {
  const yes = Math.round(market.yes_price * 10_000);
  let nextYes = yes;
  for (let t = from + 1; t <= from + n; t++) {
    const step = (mixSeed(seed, idHash, 1000 + t) % 5) - 2;
    nextYes = Math.min(9_900, Math.max(100, nextYes + step * 100));
  }
  if (nextYes === yes) return market;
  const no = Math.round(market.no_price * 10_000);
  return { ...market, yes_price: nextYes / 10_000, no_price: Math.max(0, no - (nextYes - yes)) / 10_000 };
}
