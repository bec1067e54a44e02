import jsonMergePatch from 'json-merge-patch';
import type { Market } from '../schema/generated/market-types.js';
import { validateMarkets } from './data-catalog.js';
import { createMemoryCatalog, toCatalogEntry, toSummary, type CatalogEntry, type MarketCatalog } from './market-catalog.js';
import { MarketStubError } from '../core/market-stub-error.js';
import { checkJsonInput } from './json-input.js';
import { MAX_MARKET_DEPTH } from '../core/bounded-json.js';
import { mixSeed } from '../core/seed-mix.js';
import { fnv1a } from '../core/text-hash.js';
import { getMarketValidator } from '../schema/market-validator.js';
import { catalogueIndex } from '../deviation/deviation-catalogue.js';
import type { ListDeviation, MarketDeviation } from '../deviation/deviation-definition.js';
import { NO_DEVIATIONS, selectsMarket, type DeviationPlan } from '../deviation/deviation-settings.js';
import { renderDeviatedMarket } from '../deviation/render-deviated-market.js';
import { concatBytes, utf8 } from '../core/bytes.js';

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
/** Entries with only shared deviations applied that are kept built (a flat-memory cache, emptied when full). */
const SHARED_CACHE = 20_000;
/** Views with a `Prefer: deviation=` applied to every market that are kept (emptied when full, and on every change). */
const PREFERRED_VIEWS = 8;

/** A catalog that changes at runtime; every change swaps in a new catalog view at once. */
export interface MarketStore {
  /** What both endpoints read now. */
  current(): MarketCatalog;
  /** Whether the catalog holds this market_id (also when a deviation hides it from the item route). */
  has(marketId: string): boolean;
  /** The market as stored (before deviations), or undefined. */
  market(marketId: string): Market | undefined;
  /** The market at a catalog position as stored (before deviations; no response body is built), or undefined. */
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
  /** Back to the start-up markets and deviations; clears the tick. */
  reset(): void;
  /** Replaces every deviation in force (market ids must be in the catalog). @throws MarketStubError MARKET_NOT_FOUND naming the first unknown id. */
  setDeviations(plan: DeviationPlan, where?: string): void;
  /** Sets (or with an empty list clears) the deviations of one market, in catalogue order. */
  setMarketDeviations(marketId: string, deviations: readonly MarketDeviation[]): void;
  /** The deviations in force. */
  deviations(): DeviationPlan;
  /** The deviations of the whole list in force (the same frozen empty array while there are none). */
  listDeviations(): readonly ListDeviation[];
  /**
   * The catalog as it is now with one more deviation on every market (what `Prefer:
   * deviation=NAME` answers from); built lazily, kept until the next change.
   */
  preferredView(deviation: MarketDeviation): MarketCatalog;
  /**
   * Moves prices of active, non-stale markets by `n` ticks (seeded ±0–2 cents each). Only the
   * markets that move are rebuilt. @returns the tick count.
   * @throws MarketStubError LIMIT_EXCEEDED when `n × size` exceeds MAX_TICK_WORK or the catalog MAX_EDITABLE.
   */
  tick(n?: number, where?: string): number;
  /** Replaces the start-up data (hot reload) and resets to it. */
  setBase(base: MarketCatalog): void;
}

/** RFC 7396 merge patch, by json-merge-patch. */
function applyMergePatch(target: unknown, patch: unknown): unknown {
  return jsonMergePatch.apply(target, patch);
}

/** What the store is built with: the seed and the deviations in force at start-up (and after reset). */
export interface MarketStoreOptions {
  seed: number;
  deviations?: DeviationPlan;
}

/**
 * Creates the runtime store over the start-up catalog. While nothing is edited or deviating, the
 * start-up catalog itself is served (no copy, nothing on the request path). Edits are an overlay
 * on the base catalog: a map of changed markets, the ids added after it and, once a market is
 * removed, the id order. Each edit validates and serialises only the markets it changes, then
 * swaps in a new view; the view builds (and keeps) a served entry the first time a changed or
 * deviating market is read. `seed` drives tick steps and which markets a shared deviation selects
 * (by market_id, so the same markets whatever edits and request order).
 */
export function createMarketStore(startCatalog: MarketCatalog, options: MarketStoreOptions): MarketStore {
  const seed = options.seed;
  const startPlan = options.deviations ?? NO_DEVIATIONS;
  let start = startCatalog;
  let base = start;
  let changed = new Map<string, Market>();
  let added: string[] = [];
  let order: string[] | undefined; // ids in catalog order, once something was removed
  let removed = new Set<string>();
  let shares = startPlan.shares;
  let targeted: ReadonlyMap<string, readonly MarketDeviation[]> = startPlan.targeted;
  let list = startPlan.list;
  let tickCount = 0;
  let view: MarketCatalog = base;
  let served = new Map<string, CatalogEntry>(); // built entries of changed or targeted markets
  let sharedOnly = new Map<string, CatalogEntry | null>(); // entries with shared deviations only (null: none apply)
  let aliases: Map<string, string> | undefined; // id a deviation serves a market under → its market_id
  let preferred = new Map<MarketDeviation, MarketCatalog>();

  const size = () => (order ? order.length : base.size + added.length);
  const idAt = (index: number): string | undefined => {
    if (order) return order[index];
    if (index < base.size) return base.entryAt(index)?.market.market_id;
    return added[index - base.size];
  };
  const raw = (id: string): Market | undefined => (removed.has(id) ? undefined : (changed.get(id) ?? base.entry(id)?.market));
  const deviationsOf = (id: string): readonly MarketDeviation[] => {
    const own = targeted.get(id) ?? [];
    if (shares.length === 0) return own;
    const h = fnv1a(id);
    const shared = shares.filter((s) => selectsMarket(seed, h, s.deviation, s.rate)).map((s) => s.deviation);
    return shared.length === 0 ? own : merged(own, shared);
  };
  const render = (market: Market, deviations: readonly MarketDeviation[]): CatalogEntry => deviatedEntry(market, deviations, seed);
  const servedEntry = (id: string): CatalogEntry | undefined => {
    const hit = served.get(id);
    if (hit) return hit;
    const market = raw(id);
    if (!market) return undefined;
    if (changed.has(id) || targeted.has(id)) {
      const ds = deviationsOf(id);
      const entry = ds.length === 0 ? toCatalogEntry(market) : render(market, ds);
      served.set(id, entry);
      return entry;
    }
    const baseEntry = base.entry(id);
    if (shares.length === 0) return baseEntry;
    const cached = sharedOnly.get(id);
    if (cached !== undefined) return cached ?? baseEntry;
    const ds = deviationsOf(id);
    const entry = ds.length === 0 ? null : render(market, ds);
    if (sharedOnly.size >= SHARED_CACHE) sharedOnly.clear();
    sharedOnly.set(id, entry);
    return entry ?? baseEntry;
  };
  const aliased = (id: string): string | undefined => {
    aliases ??= aliasIndex(targeted, shares, { size: size(), idAt }, seed);
    return aliases.get(id);
  };
  const forget = (id: string) => {
    served.delete(id);
    sharedOnly.delete(id);
  };

  const refresh = () => {
    aliases = undefined;
    preferred = new Map();
    if (changed.size === 0 && added.length === 0 && !order && targeted.size === 0 && shares.length === 0) {
      view = base;
      return;
    }
    view = overlayView(base, { size: size(), idAt, entry: servedEntry, aliased });
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
    sharedOnly = new Map();
  };
  const applyPlan = (plan: DeviationPlan) => {
    shares = plan.shares;
    targeted = plan.targeted;
    list = plan.list;
    served = new Map();
    sharedOnly = new Map();
  };
  // The targeted map is swapped, never changed in place: a view built before keeps what it saw.
  const setOwn = (marketId: string, deviations: readonly MarketDeviation[]) => {
    const next = new Map(targeted);
    if (deviations.length === 0) next.delete(marketId);
    else next.set(marketId, Object.freeze([...deviations].sort((a, b) => catalogueIndex(a) - catalogueIndex(b))));
    targeted = next;
    forget(marketId);
    refresh();
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
      items.forEach((item, i) => checkJsonInput(item, where, `markets/${i}`, MAX_MARKET_DEPTH, 'a market'));
      const markets = validateMarkets(items, where);
      startOver(createMemoryCatalog(markets, start.source, `${start.source}: ${markets.length} markets (replaced at run time)`));
      refresh();
    },
    put(item, where = 'putMarket') {
      checkJsonInput(item, where, 'market', MAX_MARKET_DEPTH, 'a market');
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
      checkJsonInput(patch, where, 'patch', MAX_MARKET_DEPTH, 'a market');
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
      if (targeted.has(marketId)) targeted = new Map([...targeted].filter(([id]) => id !== marketId));
      forget(marketId);
      refresh();
      return true;
    },
    reset() {
      startOver(start);
      applyPlan(startPlan);
      tickCount = 0;
      refresh();
    },
    setDeviations(plan, where = 'setDeviations') {
      for (const id of plan.targeted.keys()) {
        if (raw(id) === undefined) throw new MarketStubError({ code: 'MARKET_NOT_FOUND', where, marketId: id, message: `${where}: no market with market_id ${JSON.stringify(id)} (marketIds name markets of the catalog)` });
      }
      applyPlan(plan);
      refresh();
    },
    setMarketDeviations: setOwn,
    deviations: () => Object.freeze({ shares, targeted, list }),
    listDeviations: () => list,
    preferredView(deviation) {
      let preferredCatalog = preferred.get(deviation);
      if (!preferredCatalog) {
        if (preferred.size >= PREFERRED_VIEWS) preferred.clear();
        preferredCatalog = preferredOverlay(base, { size: size(), seed, deviation, idAt, raw, aliased, deviationsOf, render });
        preferred.set(deviation, preferredCatalog);
      }
      return preferredCatalog;
    },
    tick(n = 1, where = 'tick') {
      const count = size();
      requireEditable(count, where, 'tick');
      if (n * count > MAX_TICK_WORK) {
        throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'n', expected: `n × catalog size at most ${MAX_TICK_WORK} per call (n at most ${Math.max(1, Math.floor(MAX_TICK_WORK / Math.max(1, count)))} for ${count} markets); call tick again for more`, found: n });
      }
      for (let i = 0; i < count; i++) {
        const id = idAt(i);
        const market = id === undefined ? undefined : raw(id);
        if (!id || !market || market.status !== 'active' || deviationsOf(id).some((d) => d.freezesPrices)) continue;
        const moved = movePrices(market, seed, fnv1a(id), tickCount, n);
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

/** Two deviation lists as one, each deviation once, in catalogue order. */
function merged(a: readonly MarketDeviation[], b: readonly MarketDeviation[]): MarketDeviation[] {
  return [...new Set([...a, ...b])].sort((x, y) => catalogueIndex(x) - catalogueIndex(y));
}

/**
 * A market served with its deviations. The entry's `market` is the single view when it is still
 * a Market (so `?status=` filters what is served), else the stored market.
 */
function deviatedEntry(market: Market, deviations: readonly MarketDeviation[], seed: number): CatalogEntry {
  const out = renderDeviatedMarket({ item: market, summary: toSummary(market) }, deviations, { seed, idHash: fnv1a(market.market_id) });
  const servedMarket = getMarketValidator({ allErrors: false }).isMarket(out.item) ? out.item : market;
  return { market: servedMarket, body: out.body, summaryJson: out.summaryJson, deviated: out.reply };
}

/**
 * The ids deviations serve markets under besides their own (an integer market_id), built on the
 * first request for an unknown id after a change: the targeted markets, and for shared
 * deviations the catalog's markets up to MAX_EDITABLE (beyond, such ids answer 404).
 */
function aliasIndex(
  targeted: ReadonlyMap<string, readonly MarketDeviation[]>, shares: DeviationPlan['shares'], catalog: { size: number; idAt(index: number): string | undefined }, seed: number,
): Map<string, string> {
  const index = new Map<string, string>();
  const note = (id: string, deviation: MarketDeviation) => {
    if (deviation.alias) index.set(deviation.alias(id, { seed, idHash: fnv1a(id) }), id);
  };
  for (const [id, deviations] of targeted) for (const d of deviations) note(id, d);
  const aliasing = shares.filter((s) => s.deviation.alias !== undefined);
  if (aliasing.length > 0 && catalog.size <= MAX_EDITABLE) {
    for (let i = 0; i < catalog.size; i++) {
      const id = catalog.idAt(i);
      if (id === undefined) continue;
      const h = fnv1a(id);
      for (const s of aliasing) if (selectsMarket(seed, h, s.deviation, s.rate)) note(id, s.deviation);
    }
  }
  return index;
}

interface OverlayParts {
  size: number;
  idAt(index: number): string | undefined;
  /** The served entry of a market (hidden ones included: the list shows them). */
  entry(id: string): CatalogEntry | undefined;
  /** The market_id a deviation serves under another id, or undefined. */
  aliased(id: string): string | undefined;
}

/** A view of the overlay: positions through `idAt`, entries through the store's served entries. */
function overlayView(base: MarketCatalog, parts: OverlayParts): MarketCatalog {
  const { size } = parts;
  let list: Uint8Array | undefined;
  const entryAt = (index: number): CatalogEntry | undefined => {
    if (!Number.isInteger(index) || index < 0 || index >= size) return undefined;
    const id = parts.idAt(index);
    return id === undefined ? undefined : parts.entry(id);
  };
  function* listChunks(): Generator<Uint8Array> {
    yield utf8('[');
    for (let from = 0; from < size; from += 500) {
      const items: string[] = [];
      for (let i = from; i < Math.min(size, from + 500); i++) items.push(entryAt(i)?.summaryJson ?? '');
      yield utf8(`${from === 0 ? '' : ','}${items.join(',')}`);
    }
    yield utf8(']');
  }
  return {
    source: base.source,
    size,
    description: base.description,
    entryAt,
    entry: (id) => {
      let entry = parts.entry(id);
      if (entry === undefined) {
        const real = parts.aliased(id);
        entry = real === undefined ? undefined : parts.entry(real);
      }
      return entry?.deviated?.hidden ? undefined : entry;
    },
    listBody() {
      if (base.listChunks) throw new RangeError(`a list of ${size} markets is streamed (listChunks), not held in memory`);
      list ??= concatBytes([...listChunks()]);
      return list;
    },
    // A base too large to hold its list whole (a huge generated catalog) streams its view too.
    ...(base.listChunks ? { listChunks } : {}),
  };
}

/** The overlay with one more deviation on every market (Prefer: deviation=NAME), its entries built on demand and cached (bounded). */
function preferredOverlay(
  base: MarketCatalog,
  parts: {
    size: number; seed: number; deviation: MarketDeviation;
    idAt(index: number): string | undefined; raw(id: string): Market | undefined; aliased(id: string): string | undefined;
    deviationsOf(id: string): readonly MarketDeviation[]; render(market: Market, deviations: readonly MarketDeviation[]): CatalogEntry;
  },
): MarketCatalog {
  const cache = new Map<string, CatalogEntry>();
  let own: Map<string, string> | undefined;
  const entry = (id: string): CatalogEntry | undefined => {
    const hit = cache.get(id);
    if (hit) return hit;
    const market = parts.raw(id);
    if (!market) return undefined;
    const built = parts.render(market, merged(parts.deviationsOf(id), [parts.deviation]));
    if (cache.size >= SHARED_CACHE) cache.clear();
    cache.set(id, built);
    return built;
  };
  return overlayView(base, {
    size: parts.size, idAt: parts.idAt, entry,
    aliased: (id) => {
      if (!parts.deviation.alias) return parts.aliased(id);
      own ??= aliasIndex(new Map(), [{ deviation: parts.deviation, rate: 1 }], parts, parts.seed);
      return own.get(id) ?? parts.aliased(id);
    },
  });
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
