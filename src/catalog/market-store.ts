import { createRequire } from 'node:module';
import type * as JsonMergePatch from 'json-merge-patch';
import type { Market } from '../schema/market-types.js';
import { validateMarkets } from './build-catalog.js';
import { createMemoryCatalog, toCatalogEntry, type CatalogEntry, type MarketCatalog } from './market-catalog.js';
import { MarketStubError } from '../core/market-stub-error.js';
import { checkJsonInput } from './json-input.js';
import { mixSeed } from '../core/seed-mix.js';

import { DOMAIN_FAULTS, type DomainFault, type GlobalDomainFault } from './domain-faults.js';

export { DOMAIN_FAULTS, type DomainFault, type GlobalDomainFault } from './domain-faults.js';

/**
 * Largest catalog whose order can be rebuilt at run time: removing a market and ticking visit
 * the whole catalog once, so they are refused above this size (LIMIT_EXCEEDED). Adding, replacing,
 * patching and faulting one market work on any catalog.
 */
export const MAX_EDITABLE = 250_000;
/** Largest number of markets added at run time on top of the start-up (or last replaced) catalog. */
export const MAX_ADDED_MARKETS = 100_000;
/** Largest `n × catalog size` of one tick call: a tick visits every market, so one call stays short. */
export const MAX_TICK_WORK = 100_000;
/** Entries with only global faults applied that are kept built (a flat-memory cache, emptied when full). */
const GLOBAL_FAULT_CACHE = 20_000;

/** A catalog that changes at runtime; every change swaps in a new catalog view at once. */
export interface MarketStore {
  /** What both endpoints read now. */
  current(): MarketCatalog;
  /** Whether the catalog holds this market_id (also when a `missing` fault hides it from the item route). */
  has(marketId: string): boolean;
  /** The market as stored (before domain faults), or undefined. */
  market(marketId: string): Market | undefined;
  /** The market at a catalog position as stored (before domain faults; no response body is built), or undefined. */
  marketAt(index: number): Market | undefined;
  /** Replaces every market (validated like fixtures); `where` names the caller in errors. @throws MarketStubError MARKETS_INVALID listing every problem. */
  replace(items: readonly unknown[], where?: string): void;
  /** Adds or replaces one market (validated). @returns whether it was created. @throws MarketStubError MARKETS_INVALID, LIMIT_EXCEEDED */
  put(item: unknown, where?: string): 'created' | 'replaced';
  /**
   * Applies an RFC 7396 JSON merge patch to a market (nested objects merge, `null` removes a
   * member) and validates the result before it replaces anything; `market_id` cannot change.
   * @returns the new market, or undefined when the id is unknown.
   * @throws MarketStubError MARKETS_INVALID when the result is not a valid Market, OPTION_INVALID when the patch changes market_id.
   */
  patch(marketId: string, patch: Record<string, unknown>, where?: string): Market | undefined;
  /** Removes one market. @returns false when the id is unknown. @throws MarketStubError LIMIT_EXCEEDED above MAX_EDITABLE markets. */
  remove(marketId: string, where?: string): boolean;
  /** Back to the start-up markets; clears runtime faults and the tick. */
  reset(): void;
  /** Sets (or with an empty list clears) the domain faults of one market. */
  setFaults(marketId: string, faults: readonly DomainFault[]): void;
  /** Every market's runtime domain faults. */
  faults(): Record<string, DomainFault[]>;
  /**
   * Moves prices of active, non-stale markets by `n` ticks (seeded ±0–2 cents each). Only the
   * markets that move are rebuilt. @returns the tick count.
   * @throws MarketStubError LIMIT_EXCEEDED when `n × size` exceeds MAX_TICK_WORK or the catalog MAX_EDITABLE.
   */
  tick(n?: number, where?: string): number;
  /** Replaces the start-up data (hot reload) and resets to it. */
  setBase(base: MarketCatalog): void;
}

let mergePatch: typeof JsonMergePatch | undefined;
/** json-merge-patch (CommonJS), loaded on the first patch. */
function applyMergePatch(target: unknown, patch: unknown): unknown {
  mergePatch ??= createRequire(import.meta.url)('json-merge-patch') as typeof JsonMergePatch;
  return mergePatch.apply(target, patch);
}

/**
 * Creates the runtime store over the start-up catalog. While nothing is edited or faulted, the
 * start-up catalog itself is served (no copy). Edits are an overlay on the base catalog: a map of
 * changed markets, the ids added after it and, once a market is removed, the id order. Each edit
 * validates and serialises only the markets it changes, then swaps in a new view; the view builds
 * (and keeps) a served entry the first time a changed market is read. `seed` drives tick steps and
 * which markets a global domain fault selects (by market_id, so the same markets whatever edits
 * and request order).
 */
export function createMarketStore(startCatalog: MarketCatalog, options: { seed: number; globalFaults?: readonly GlobalDomainFault[] }): MarketStore {
  const globalFaults = options.globalFaults ?? [];
  let start = startCatalog;
  let base = start;
  let changed = new Map<string, Market>();
  let added: string[] = [];
  let order: string[] | undefined; // ids in catalog order, once something was removed
  let removed = new Set<string>();
  const faults = new Map<string, DomainFault[]>();
  let tickCount = 0;
  let view: MarketCatalog = base;
  let served = new Map<string, CatalogEntry>(); // built entries of changed or own-faulted markets
  let globalOnly = new Map<string, CatalogEntry | null>(); // entries with global faults only (null: none apply)

  const size = () => (order ? order.length : base.size + added.length);
  const idAt = (index: number): string | undefined => {
    if (order) return order[index];
    if (index < base.size) return base.entryAt(index)?.market.market_id;
    return added[index - base.size];
  };
  const raw = (id: string): Market | undefined => (removed.has(id) ? undefined : (changed.get(id) ?? base.entry(id)?.market));
  const faultsOf = (id: string): DomainFault[] => {
    const own = faults.get(id) ?? [];
    if (globalFaults.length === 0) return own;
    const h = hashId(id);
    const global = globalFaults.filter((g) => mixSeed(options.seed, h, 7 + DOMAIN_FAULTS.indexOf(g.fault)) / 2 ** 32 < g.rate).map((g) => g.fault);
    return global.length === 0 ? own : [...new Set([...own, ...global])];
  };
  const servedEntry = (id: string): CatalogEntry | undefined => {
    const hit = served.get(id);
    if (hit) return hit;
    const market = raw(id);
    if (!market) return undefined;
    if (changed.has(id) || faults.has(id)) {
      const fs = faultsOf(id);
      const entry = toCatalogEntry(fs.length === 0 ? market : applyFaults(market, fs));
      served.set(id, entry);
      return entry;
    }
    const baseEntry = base.entry(id);
    if (globalFaults.length === 0) return baseEntry;
    const cached = globalOnly.get(id);
    if (cached !== undefined) return cached ?? baseEntry;
    const fs = faultsOf(id);
    const entry = fs.length === 0 ? null : toCatalogEntry(applyFaults(market, fs));
    if (globalOnly.size >= GLOBAL_FAULT_CACHE) globalOnly.clear();
    globalOnly.set(id, entry);
    return entry ?? baseEntry;
  };
  const hidden = (id: string) => faultsOf(id).includes('missing');
  const forget = (id: string) => {
    served.delete(id);
    globalOnly.delete(id);
  };

  const refresh = () => {
    if (changed.size === 0 && added.length === 0 && !order && faults.size === 0 && globalFaults.length === 0) {
      view = base;
      return;
    }
    view = overlayView(base, { size: size(), idAt, entry: servedEntry, hidden });
  };
  const materialiseOrder = (where: string): string[] => {
    if (order) return order;
    requireEditable(size(), where, 'removing a market');
    const ids: string[] = [];
    for (let i = 0; i < base.size + added.length; i++) {
      const id = idAt(i);
      if (id !== undefined) ids.push(id);
    }
    order = ids;
    return ids;
  };
  const startOver = (next: MarketCatalog) => {
    base = next;
    changed = new Map();
    added = [];
    order = undefined;
    removed = new Set();
    served = new Map();
    globalOnly = new Map();
  };
  refresh();

  return {
    current: () => view,
    has: (marketId) => raw(marketId) !== undefined,
    market: raw,
    marketAt: (index) => {
      if (view === base) return base.entryAt(index)?.market;
      const id = index >= 0 && index < size() ? idAt(index) : undefined;
      return id === undefined ? undefined : raw(id);
    },
    replace(items, where = 'setMarkets') {
      checkJsonInput(items, where, 'markets');
      const markets = validateMarkets(items, where);
      startOver(createMemoryCatalog(markets, start.source, `${start.source}: ${markets.length} markets (replaced at run time)`));
      refresh();
    },
    put(item, where = 'putMarket') {
      checkJsonInput(item, where, 'market');
      const [market] = validateMarkets([item], where, 'market');
      if (!market) throw new Error('unreachable: validateMarkets returned no market');
      const id = market.market_id;
      const exists = raw(id) !== undefined;
      if (!exists) {
        if (added.length >= MAX_ADDED_MARKETS) {
          throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'markets', expected: `at most ${MAX_ADDED_MARKETS} markets added at run time (replace the catalog or restart with fixtures for more)`, found: added.length + 1 });
        }
        if (base.entry(id) === undefined || removed.has(id)) {
          added.push(id);
          order?.push(id);
        }
        removed.delete(id);
      }
      changed.set(id, market);
      forget(id);
      refresh();
      return exists ? 'replaced' : 'created';
    },
    patch(marketId, patch, where = 'patchMarket') {
      const old = raw(marketId);
      if (!old) return undefined;
      checkJsonInput(patch, where, 'patch');
      if ('market_id' in patch && patch['market_id'] !== marketId) {
        throw new MarketStubError({ code: 'OPTION_INVALID', where, option: 'patch.market_id', expected: `absent or ${JSON.stringify(marketId)} (market_id cannot change)`, found: patch['market_id'] });
      }
      // json-merge-patch applies RFC 7396 §2 in place: give it a copy, never the served record.
      const merged = applyMergePatch(structuredClone(old), patch);
      const [market] = validateMarkets([merged], where, 'patched market');
      if (!market) throw new Error('unreachable: validateMarkets returned no market');
      changed.set(marketId, market);
      forget(marketId);
      refresh();
      return market;
    },
    remove(marketId, where = 'removeMarket') {
      if (raw(marketId) === undefined) return false;
      const ids = materialiseOrder(where);
      ids.splice(ids.indexOf(marketId), 1);
      removed.add(marketId);
      changed.delete(marketId);
      faults.delete(marketId);
      forget(marketId);
      refresh();
      return true;
    },
    reset() {
      startOver(start);
      faults.clear();
      tickCount = 0;
      refresh();
    },
    setFaults(marketId, list) {
      if (list.length === 0) faults.delete(marketId);
      else faults.set(marketId, [...new Set(list)]);
      forget(marketId);
      refresh();
    },
    faults: () => Object.fromEntries(faults),
    tick(n = 1, where = 'tick') {
      const count = size();
      requireEditable(count, where, 'tick');
      if (n * count > MAX_TICK_WORK) {
        throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'n', expected: `n × catalog size at most ${MAX_TICK_WORK} per call (n at most ${Math.max(1, Math.floor(MAX_TICK_WORK / Math.max(1, count)))} for ${count} markets); call tick again for more`, found: n });
      }
      for (let i = 0; i < count; i++) {
        const id = idAt(i);
        const market = id === undefined ? undefined : raw(id);
        if (!id || !market || market.status !== 'active' || faultsOf(id).includes('stale')) continue;
        const moved = movePrices(market, options.seed, hashId(id), tickCount, n);
        if (moved === market) continue;
        changed.set(id, moved);
        forget(id);
      }
      tickCount += n;
      refresh();
      return tickCount;
    },
    setBase(next) {
      start = next;
      startOver(next);
      tickCount = 0;
      refresh();
    },
  };
}

/** A view of the overlay: positions through `idAt`, entries through the store's served entries. */
function overlayView(base: MarketCatalog, parts: { size: number; idAt(index: number): string | undefined; entry(id: string): CatalogEntry | undefined; hidden(id: string): boolean }): MarketCatalog {
  const { size } = parts;
  let list: Buffer | undefined;
  const entryAt = (index: number): CatalogEntry | undefined => {
    if (!Number.isInteger(index) || index < 0 || index >= size) return undefined;
    const id = parts.idAt(index);
    return id === undefined ? undefined : parts.entry(id);
  };
  function* listChunks(): Generator<Buffer> {
    yield Buffer.from('[');
    for (let from = 0; from < size; from += 500) {
      const items: string[] = [];
      for (let i = from; i < Math.min(size, from + 500); i++) items.push(entryAt(i)?.summaryJson ?? '');
      yield Buffer.from(`${from === 0 ? '' : ','}${items.join(',')}`);
    }
    yield Buffer.from(']');
  }
  return {
    source: base.source,
    size,
    description: base.description,
    entryAt,
    entry: (id) => (parts.hidden(id) ? undefined : parts.entry(id)),
    listBody() {
      if (base.listChunks) throw new RangeError(`a list of ${size} markets is streamed (listChunks), not held in memory`);
      list ??= Buffer.concat([...listChunks()]);
      return list;
    },
    // A base too large to hold its list whole (a huge generated catalog) streams its view too.
    ...(base.listChunks ? { listChunks } : {}),
  };
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
