import jsonMergePatch from 'json-merge-patch';
import type { Market } from '../schema/generated/market-types.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import { MAX_ADDED_MARKETS, MAX_EDITABLE, MAX_MARKET_DEPTH, MAX_TICK_WORK } from '../floor/limits.js';
import { mixSeed } from '../floor/seed-mix.js';
import { fnv1a } from '../floor/text-hash.js';
import { catalogueIndex } from '../deviation/deviation-catalogue.js';
import type { ListDeviation, MarketDeviation } from '../deviation/deviation-definition.js';
import { NO_DEVIATIONS, selectsMarket, type DeviationPlan } from '../deviation/deviation-settings.js';
import { validateMarkets } from './data-catalog.js';
import { checkJsonInput } from './json-input.js';
import { createMemoryCatalog, toCatalogEntry, type CatalogEntry, type MarketCatalog } from './market-catalog.js';
import { aliasIndex, deviatedEntry, merged, overlayView, preferredOverlay } from './overlay-view.js';
import { PREFERRED_VIEWS, SHARED_CACHE } from './store-limits.js';


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
  return new OverlayStore(startCatalog, options.seed, options.deviations ?? NO_DEVIATIONS);
}

/**
 * The store: its state (the start-up catalog and plan, the overlay of edits on the base catalog,
 * the deviations in force, the caches of built entries), read by the public methods and changed
 * only by the edits, each of which ends in `refresh` (a new view swapped in).
 */
class OverlayStore implements MarketStore {
  private start: MarketCatalog;
  private base: MarketCatalog;
  private changed = new Map<string, Market>();
  private added: string[] = [];
  /** Ids in catalog order, once something was removed. */
  private order: string[] | undefined;
  private removed = new Set<string>();
  private shares: DeviationPlan['shares'];
  private targeted: ReadonlyMap<string, readonly MarketDeviation[]>;
  private list: readonly ListDeviation[];
  private tickCount = 0;
  private view: MarketCatalog;
  /** Built entries of changed or targeted markets. */
  private served = new Map<string, CatalogEntry>();
  /** Entries with shared deviations only (null: none apply). */
  private sharedOnly = new Map<string, CatalogEntry | null>();
  /** Id a deviation serves a market under → its market_id. */
  private aliases: Map<string, string> | undefined;
  private preferred = new Map<MarketDeviation, MarketCatalog>();

  constructor(startCatalog: MarketCatalog, private readonly seed: number, private readonly startPlan: DeviationPlan) {
    this.start = startCatalog;
    this.base = startCatalog;
    this.view = startCatalog;
    this.shares = startPlan.shares;
    this.targeted = startPlan.targeted;
    this.list = startPlan.list;
    this.refresh();
  }

  // Reads.

  current(): MarketCatalog {
    return this.view;
  }

  has(marketId: string): boolean {
    return this.market(marketId) !== undefined;
  }

  market(marketId: string): Market | undefined {
    return this.removed.has(marketId) ? undefined : (this.changed.get(marketId) ?? this.base.entry(marketId)?.market);
  }

  marketAt(index: number): Market | undefined {
    if (this.view === this.base) return this.base.entryAt(index)?.market;
    const id = index >= 0 && index < this.size() ? this.idAt(index) : undefined;
    return id === undefined ? undefined : this.market(id);
  }

  deviations(): DeviationPlan {
    return Object.freeze({ shares: this.shares, targeted: this.targeted, list: this.list });
  }

  listDeviations(): readonly ListDeviation[] {
    return this.list;
  }

  preferredView(deviation: MarketDeviation): MarketCatalog {
    let preferredCatalog = this.preferred.get(deviation);
    if (!preferredCatalog) {
      if (this.preferred.size >= PREFERRED_VIEWS) this.preferred.clear();
      preferredCatalog = preferredOverlay(this.base, {
        size: this.size(), seed: this.seed, deviation, idAt: (i) => this.idAt(i), raw: (id) => this.market(id),
        aliased: (id) => this.aliased(id), deviationsOf: (id) => this.deviationsOf(id), render: (m, ds) => this.render(m, ds),
      });
      this.preferred.set(deviation, preferredCatalog);
    }
    return preferredCatalog;
  }

  // Edits: each validates and serialises only the markets it changes, then swaps in a new view.

  replace(items: readonly unknown[], where = 'setMarkets'): void {
    items.forEach((item, i) => checkJsonInput(item, where, `markets/${i}`, MAX_MARKET_DEPTH, 'a market'));
    const markets = validateMarkets(items, where);
    this.startOver(createMemoryCatalog(markets, this.start.source, `${this.start.source}: ${markets.length} markets (replaced at run time)`));
    this.refresh();
  }

  put(item: unknown, where = 'putMarket'): 'created' | 'replaced' {
    checkJsonInput(item, where, 'market', MAX_MARKET_DEPTH, 'a market');
    const [market] = validateMarkets([item], where, 'market');
    if (!market) throw new Error('unreachable: validateMarkets returned no market');
    const id = market.market_id;
    const exists = this.has(id);
    if (!exists) {
      if (this.added.length >= MAX_ADDED_MARKETS) {
        throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'markets', expected: `at most ${MAX_ADDED_MARKETS} markets added at run time (replace the catalog or restart with fixtures for more)`, found: this.added.length + 1 });
      }
      if (this.base.entry(id) === undefined || this.removed.has(id)) {
        this.added.push(id);
        this.order?.push(id);
      }
      this.removed.delete(id);
    }
    this.changeMarket(id, market);
    return exists ? 'replaced' : 'created';
  }

  patch(marketId: string, patch: Record<string, unknown>, where = 'patchMarket'): Market | undefined {
    const old = this.market(marketId);
    if (!old) return undefined;
    checkJsonInput(patch, where, 'patch', MAX_MARKET_DEPTH, 'a market');
    if ('market_id' in patch && patch['market_id'] !== marketId) {
      throw new MarketStubError({ code: 'OPTION_INVALID', where, option: 'patch.market_id', expected: `absent or ${JSON.stringify(marketId)} (market_id cannot change)`, found: patch['market_id'] });
    }
    // json-merge-patch applies RFC 7396 §2 in place: give it a copy, never the served record.
    const result: unknown = jsonMergePatch.apply(structuredClone(old), patch);
    const [market] = validateMarkets([result], where, 'patched market');
    if (!market) throw new Error('unreachable: validateMarkets returned no market');
    this.changeMarket(marketId, market);
    return market;
  }

  remove(marketId: string, where = 'removeMarket'): boolean {
    if (!this.has(marketId)) return false;
    const ids = this.materialiseOrder(where);
    ids.splice(ids.indexOf(marketId), 1);
    this.removed.add(marketId);
    this.changed.delete(marketId);
    if (this.targeted.has(marketId)) this.targeted = new Map([...this.targeted].filter(([id]) => id !== marketId));
    this.forget(marketId);
    this.refresh();
    return true;
  }

  tick(n = 1, where = 'tick'): number {
    const count = this.size();
    requireEditable(count, where, 'tick');
    if (n * count > MAX_TICK_WORK) {
      const most = Math.floor(MAX_TICK_WORK / Math.max(1, count));
      const advice = most >= 1 ? `n at most ${most} for ${count} markets; call tick again for more` : `a catalog of ${count} markets is above it: a tick holds the server while it visits every market`;
      throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'n', expected: `n × catalog size at most ${MAX_TICK_WORK} per call (${advice})`, found: n });
    }
    for (let i = 0; i < count; i++) {
      const id = this.idAt(i);
      const market = id === undefined ? undefined : this.market(id);
      if (!id || !market) continue;
      const deviations = this.deviationsOf(id);
      // A deviation that follows the tick serves something else now: its answers are rebuilt.
      if (deviations.some((d) => d.followsTick)) this.forget(id);
      if (market.status !== 'active' || deviations.some((d) => d.freezesPrices)) continue;
      const moved = movePrices(market, this.seed, fnv1a(id), this.tickCount, n);
      if (moved === market) continue;
      this.changed.set(id, moved);
      this.forget(id);
    }
    this.tickCount += n;
    this.refresh();
    return this.tickCount;
  }

  setDeviations(plan: DeviationPlan, where = 'setDeviations'): void {
    for (const id of plan.targeted.keys()) {
      if (!this.has(id)) throw new MarketStubError({ code: 'MARKET_NOT_FOUND', where, marketId: id, message: `${where}: no market with market_id ${JSON.stringify(id)} (marketIds name markets of the catalog)` });
    }
    this.applyPlan(plan);
    this.refresh();
  }

  /** The targeted map is swapped, never changed in place: a view built before keeps what it saw. */
  setMarketDeviations(marketId: string, deviations: readonly MarketDeviation[]): void {
    const next = new Map(this.targeted);
    if (deviations.length === 0) next.delete(marketId);
    else next.set(marketId, Object.freeze([...deviations].sort((a, b) => catalogueIndex(a) - catalogueIndex(b))));
    this.targeted = next;
    this.forget(marketId);
    this.refresh();
  }

  reset(): void {
    this.startOver(this.start);
    this.applyPlan(this.startPlan);
    this.tickCount = 0;
    this.refresh();
  }

  setBase(next: MarketCatalog): void {
    this.start = next;
    this.startOver(next);
    this.tickCount = 0;
    this.refresh();
  }

  // Private stages.

  /** How many markets the catalog holds now. */
  private size(): number {
    return this.order ? this.order.length : this.base.size + this.added.length;
  }

  /** The market_id at a catalog position, or undefined. */
  private idAt(index: number): string | undefined {
    if (this.order) return this.order[index];
    if (index < this.base.size) return this.base.entryAt(index)?.market.market_id;
    return this.added[index - this.base.size];
  }

  /** The deviations of one market: its own, and the shared ones the seed selects it for. */
  private deviationsOf(id: string): readonly MarketDeviation[] {
    const own = this.targeted.get(id) ?? [];
    if (this.shares.length === 0) return own;
    const h = fnv1a(id);
    const shared = this.shares.filter((share) => selectsMarket(this.seed, h, share.deviation, share.rate)).map((share) => share.deviation);
    return shared.length === 0 ? own : merged(own, shared);
  }

  private render(market: Market, deviations: readonly MarketDeviation[]): CatalogEntry {
    return deviatedEntry(market, deviations, this.seed, this.tickCount);
  }

  /** The entry served for a market (built and kept the first time a changed or deviating market is read). */
  private servedEntry(id: string): CatalogEntry | undefined {
    const hit = this.served.get(id);
    if (hit) return hit;
    const market = this.market(id);
    if (!market) return undefined;
    if (this.changed.has(id) || this.targeted.has(id)) {
      const ds = this.deviationsOf(id);
      const entry = ds.length === 0 ? toCatalogEntry(market) : this.render(market, ds);
      this.served.set(id, entry);
      return entry;
    }
    const baseEntry = this.base.entry(id);
    if (this.shares.length === 0) return baseEntry;
    const cached = this.sharedOnly.get(id);
    if (cached !== undefined) return cached ?? baseEntry;
    const ds = this.deviationsOf(id);
    const entry = ds.length === 0 ? null : this.render(market, ds);
    if (this.sharedOnly.size >= SHARED_CACHE) this.sharedOnly.clear();
    this.sharedOnly.set(id, entry);
    return entry ?? baseEntry;
  }

  private aliased(id: string): string | undefined {
    this.aliases ??= aliasIndex(this.targeted, this.shares, { size: this.size(), idAt: (i) => this.idAt(i) }, this.seed);
    return this.aliases.get(id);
  }

  /** Stores one market's new record, drops its built entries and swaps in a new view. */
  private changeMarket(id: string, market: Market): void {
    this.changed.set(id, market);
    this.forget(id);
    this.refresh();
  }

  /** Drops the built entries of one market (it changed). */
  private forget(id: string): void {
    this.served.delete(id);
    this.sharedOnly.delete(id);
  }

  /** Swaps in a new view after a change: the base itself while nothing is edited or deviating. */
  private refresh(): void {
    this.aliases = undefined;
    this.preferred = new Map();
    if (this.changed.size === 0 && this.added.length === 0 && !this.order && this.targeted.size === 0 && this.shares.length === 0) {
      this.view = this.base;
      return;
    }
    this.view = overlayView(this.base, { size: this.size(), idAt: (i) => this.idAt(i), entry: (id) => this.servedEntry(id), aliased: (id) => this.aliased(id) });
  }

  /** Serves `next` as the base with no edits on top. */
  private startOver(next: MarketCatalog): void {
    this.base = next;
    this.changed = new Map();
    this.added = [];
    this.order = undefined;
    this.removed = new Set();
    this.served = new Map();
    this.sharedOnly = new Map();
  }

  /** Puts a deviation plan in force (entries are rebuilt on demand). */
  private applyPlan(plan: DeviationPlan): void {
    this.shares = plan.shares;
    this.targeted = plan.targeted;
    this.list = plan.list;
    this.served = new Map();
    this.sharedOnly = new Map();
  }

  /** The ids in catalog order as an array the edits may splice (built once, on the first removal). */
  private materialiseOrder(where: string): string[] {
    if (this.order) return this.order;
    requireEditable(this.size(), where, 'removing a market');
    const ids: string[] = [];
    for (let i = 0; i < this.base.size + this.added.length; i++) {
      const id = this.idAt(i);
      if (id !== undefined) ids.push(id);
    }
    this.order = ids;
    return ids;
  }
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
