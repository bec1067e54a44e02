import type { Market } from '../schema/market-types.js';
import { validateMarkets } from './build-catalog.js';
import { createMemoryCatalog, type CatalogEntry, type MarketCatalog } from './market-catalog.js';
import { mixSeed } from '../core/seed-mix.js';

import { DOMAIN_FAULTS, type DomainFault, type GlobalDomainFault } from './domain-faults.js';

export { DOMAIN_FAULTS, type DomainFault, type GlobalDomainFault } from './domain-faults.js';

/** Largest catalog the store will materialise for runtime edits, faults or ticks. */
export const MAX_EDITABLE = 1_000_000;

/** A catalog that changes at runtime; every change swaps in a new immutable catalog at once. */
export interface MarketStore {
  /** What both endpoints read now. */
  current(): MarketCatalog;
  /** Whether the catalog holds this market_id (also when a `missing` fault hides it from the item route). */
  has(marketId: string): boolean;
  /** Replaces every market (validated like fixtures); `where` names the caller in errors. @throws MarketStubError MARKETS_INVALID listing every problem. */
  replace(items: readonly unknown[], where?: string): void;
  /** Adds or replaces one market (validated). @returns whether it was created. @throws MarketStubError MARKETS_INVALID */
  put(item: unknown, where?: string): 'created' | 'replaced';
  /** Merges `patch` into a market (RFC 7396 merge patch; `market_id` cannot change). @returns the new market, or undefined when the id is unknown. @throws FixtureError when the result is invalid. */
  patch(marketId: string, patch: Record<string, unknown>, where?: string): Market | undefined;
  /** Removes one market. @returns false when the id is unknown. */
  remove(marketId: string): boolean;
  /** Back to the start-up markets; clears runtime faults and the tick. */
  reset(): void;
  /** Sets (or with an empty list clears) the domain faults of one market. */
  setFaults(marketId: string, faults: readonly DomainFault[]): void;
  /** Every market's runtime domain faults. */
  faults(): Record<string, DomainFault[]>;
  /** Moves prices of active, non-stale markets by `n` ticks (seeded ±0–2 cents each). @returns the tick count. */
  tick(n?: number): number;
  /** Replaces the start-up data (hot reload) and resets to it. */
  setBase(base: MarketCatalog): void;
}

/**
 * Creates the runtime store over the start-up catalog. While nothing is edited, faulted or ticked
 * the start-up catalog itself is served (no copy). `seed` drives tick steps and which markets a
 * global domain fault selects.
 */
export function createMarketStore(base: MarketCatalog, options: { seed: number; globalFaults?: readonly GlobalDomainFault[] }): MarketStore {
  let start = base;
  let markets: Market[] | undefined; // materialised only once something changes
  let tickCount = 0;
  const faults = new Map<string, DomainFault[]>();
  let view = base;
  const globalFaults = options.globalFaults ?? [];

  const materialise = (): Market[] => {
    if (markets) return markets;
    if (start.size > MAX_EDITABLE) throw new RangeError(`runtime edits, faults and ticks are limited to catalogs of at most ${MAX_EDITABLE} markets; this one has ${start.size}.`);
    markets = [];
    for (let i = 0; i < start.size; i++) {
      const entry = start.entryAt(i);
      if (entry) markets.push(entry.market);
    }
    return markets;
  };

  const faultsOf = (market: Market, index: number): DomainFault[] => {
    const own = faults.get(market.market_id) ?? [];
    const global = globalFaults.filter((g) => mixSeed(options.seed, index, 7 + DOMAIN_FAULTS.indexOf(g.fault)) / 2 ** 32 < g.rate).map((g) => g.fault);
    return global.length === 0 ? own : [...new Set([...own, ...global])];
  };

  const rebuild = () => {
    if (!markets && faults.size === 0 && globalFaults.length === 0 && tickCount === 0) {
      view = start;
      return;
    }
    const list = materialise();
    const missing = new Set<string>();
    const shown = list.map((m, i) => {
      const fs = faultsOf(m, i);
      if (fs.includes('missing')) missing.add(m.market_id);
      return fs.length === 0 ? m : applyFaults(m, fs);
    });
    const catalog = createMemoryCatalog(shown, start.source, start.description);
    view = missing.size === 0 ? catalog : {
      ...catalog,
      entry: (id: string): CatalogEntry | undefined => (missing.has(id) ? undefined : catalog.entry(id)),
    };
  };
  rebuild();

  return {
    current: () => view,
    has: (marketId) => (markets ? markets.some((m) => m.market_id === marketId) : start.entry(marketId) !== undefined),
    replace(items, where = 'setMarkets') {
      markets = validateMarkets(items, where);
      rebuild();
    },
    put(item, where = 'putMarket') {
      const [market] = validateMarkets([item], where, 'market');
      if (!market) throw new Error('unreachable: validateMarkets returned no market');
      const list = materialise();
      const at = list.findIndex((m) => m.market_id === market.market_id);
      if (at === -1) list.push(market);
      else list[at] = market;
      rebuild();
      return at === -1 ? 'created' : 'replaced';
    },
    patch(marketId, patch, where = 'patchMarket') {
      const list = materialise();
      const at = list.findIndex((m) => m.market_id === marketId);
      const old = list[at];
      if (!old) return undefined;
      const merged: Record<string, unknown> = { ...old };
      for (const [k, v] of Object.entries(patch)) {
        if (v === null) delete merged[k];
        else merged[k] = v;
      }
      merged['market_id'] = marketId;
      const [market] = validateMarkets([merged], where, 'patched market');
      if (!market) throw new Error('unreachable: validateMarkets returned no market');
      list[at] = market;
      rebuild();
      return market;
    },
    remove(marketId) {
      const list = materialise();
      const at = list.findIndex((m) => m.market_id === marketId);
      if (at === -1) return false;
      list.splice(at, 1);
      faults.delete(marketId);
      rebuild();
      return true;
    },
    reset() {
      markets = undefined;
      faults.clear();
      tickCount = 0;
      rebuild();
    },
    setFaults(marketId, list) {
      if (list.length === 0) faults.delete(marketId);
      else faults.set(marketId, [...new Set(list)]);
      rebuild();
    },
    faults: () => Object.fromEntries(faults),
    tick(n = 1) {
      const list = materialise();
      for (let t = 0; t < n; t++) {
        tickCount++;
        list.forEach((m, i) => {
          if (m.status !== 'active' || faultsOf(m, i).includes('stale')) return;
          list[i] = movePrices(m, mixSeed(options.seed, hashId(m.market_id), 1000 + tickCount));
        });
      }
      rebuild();
      return tickCount;
    },
    setBase(next) {
      start = next;
      markets = undefined;
      tickCount = 0;
      rebuild();
    },
  };
}

/** Moves yes_price by −2…+2 cents (clamped to [0.01, 0.99]) and no_price by the opposite, keeping their sum. */
function movePrices(market: Market, random: number): Market {
  const step = (random % 5) - 2;
  if (step === 0) return market;
  const yes = Math.round(market.yes_price * 10_000);
  const no = Math.round(market.no_price * 10_000);
  const nextYes = Math.min(9_900, Math.max(100, yes + step * 100));
  // Integer units of 1e-4 divided once: the JSON text never carries float noise.
  return { ...market, yes_price: nextYes / 10_000, no_price: Math.max(0, no - (nextYes - yes)) / 10_000 };
}

function applyFaults(market: Market, list: readonly DomainFault[]): Market {
  let m = market;
  for (const fault of list) {
    if (fault === 'unknown-status') m = { ...m, status: 'suspended' };
    else if (fault === 'price-out-of-range') m = { ...m, yes_price: 1.25 };
    else if (fault === 'price-sum') m = { ...m, no_price: (Math.round(m.no_price * 10_000) + 500) / 10_000 };
  }
  return m;
}

/** FNV-1a 32-bit hash of a market id (a stable per-market seed stream). */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
