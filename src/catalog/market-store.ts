import jsonMergePatch from 'json-merge-patch';
import type { Market } from '../schema/generated/market-types.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import { MAX_ADDED_MARKETS, MAX_MARKET_DEPTH } from '../floor/limits.js';
import { walkedMarket } from './price-walk.js';
import { listedAt, livedMarket, marketLife, type LifecycleMode } from './market-lifecycle.js';
import { createLifecycleIndex, type LifecycleIndex, type ListedPositions } from './lifecycle-index.js';
import { fnv1a } from '../floor/text-hash.js';
import { catalogueIndex } from '../deviation/deviation-catalogue.js';
import type { ListDeviation, MarketDeviation } from '../deviation/deviation-definition.js';
import { NO_DEVIATIONS, selectsMarket, type DeviationPlan } from '../deviation/deviation-settings.js';
import { validateMarkets } from './data-catalog.js';
import { checkJsonInput } from './json-input.js';
import { createMemoryCatalog, toCatalogEntry, type CatalogEntry, type MarketCatalog } from './market-catalog.js';
import { deviationReach, type DeviationReach } from './deviation-reach.js';
import { aliasIndex, deviatedEntry, merged, overlayView, preferredOverlay } from './overlay-view.js';
import { PREFERRED_VIEWS, requireEditable, SHARED_CACHE } from './store-limits.js';


/** A catalog that changes at runtime; every change swaps in a new catalog view at once. */
export interface MarketStore {
  /** What both endpoints read now. */
  current(): MarketCatalog;
  /** How many changes (edits, ticks, deviations, resets, reloads) the catalog has seen since start-up: 0, then one more at each new view. */
  changes(): number;
  /** Whether the catalog holds this market_id (also when a deviation hides it from the item route). */
  has(marketId: string): boolean;
  /** The market as stored (before deviations), or undefined. */
  market(marketId: string): Market | undefined;
  /** The market at a catalog position as stored (before deviations; no response body is built), or undefined. */
  marketAt(index: number): Market | undefined;
  /**
   * The catalog as served at stub instant `t` (epoch ms): `current()` with each walking market's
   * prices at t's step of the walk (`walked`) and, under a lifecycle (market-lifecycle.ts), each
   * generated market at its stage at the step's start, the list holding only the markets open and
   * not past their retention. At step 0 without a lifecycle (a frozen clock, or before the first
   * step) it is `current()` itself; a view is kept per step, so a poller's requests between two
   * steps share its entries and list bytes.
   */
  at(t: number): MarketCatalog;
  /** A stored market as it is at stub instant `t`: at its lifecycle stage when one moves it, its prices walked when it walks (the market itself otherwise). */
  walked(market: Market, t: number): Market;
  /** The step of the price walk at stub instant `t`: whole price steps since the clock's start. */
  stepAt(t: number): number;
  /**
   * When what the market routes serve last changed, as of stub instant `t` (docs/caching.md): the
   * later of the last catalog change (edit, deviation, reset, reload) and the start of the current
   * step of the clock (prices and the deviations that follow the clock move at step starts), epoch
   * ms. `trusted` is false when an `If-Modified-Since` of that second could name an older body
   * (two changes within one second, or a clock moved back by reset): such a request is answered in
   * full. RFC 9110 §8.8.2 (Last-Modified), §13.1.3 (its one-second resolution).
   */
  lastModified(t: number): LastModified;
  /** Stub time per step of the price walk, ms. */
  stepMs(): number;
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
  patch(marketId: string, patch: Record<string, unknown>, where?: string, t?: number): Market | undefined;
  /** Removes one market. @returns false when the id is unknown. @throws MarketStubError LIMIT_EXCEEDED above MAX_EDITABLE markets. */
  remove(marketId: string, where?: string): boolean;
  /** Back to the start-up markets and deviations. */
  /** Back to the start-up catalog and deviations; `before`: the stub instant before the clock was set back with it (Last-Modified). */
  reset(before?: number): void;
  /** Replaces every deviation in force (market ids must be in the catalog). @throws MarketStubError MARKET_NOT_FOUND naming the first unknown id. */
  setDeviations(plan: DeviationPlan, where?: string): void;
  /** Sets (or with an empty list clears) the deviations of one market, in catalogue order. */
  setMarketDeviations(marketId: string, deviations: readonly MarketDeviation[]): void;
  /** The deviations in force. */
  deviations(): DeviationPlan;
  /** Which markets each deviation in force reaches now (deviation-reach.ts): counted in catalogs up to `countUpTo` markets (MAX_REACH_COUNTED by default), else estimated. */
  deviationReach(countUpTo?: number): DeviationReach[];
  /** The deviations of the whole list in force (the same frozen empty array while there are none). */
  listDeviations(): readonly ListDeviation[];
  /**
   * The catalog as it is now with one more deviation on every market (what `Prefer:
   * deviation=NAME` answers from); built lazily, kept until the next change.
   */
  preferredView(deviation: MarketDeviation): MarketCatalog;
  /** Replaces the start-up data (hot reload) and resets to it. */
  setBase(base: MarketCatalog): void;
}

/** What the store is built with: the seed, the deviations in force at start-up (and after reset), and the price walk. */
export interface MarketStoreOptions {
  seed: number;
  deviations?: DeviationPlan;
  /** The price walk (without it no price moves). */
  walk?: PriceWalk;
  /** The lifecycle of generated markets (market-lifecycle.ts, docs/lifecycle.md). @default 'off' */
  lifecycle?: LifecycleMode;
  /** The stub clock's reading, epoch ms: the instant of each catalog change (Last-Modified). @default () => 0 */
  now?: () => number;
}

/** The instant a market answer last changed (MarketStore.lastModified), epoch ms, and whether a one-second `If-Modified-Since` can tell it. */
export interface LastModified {
  ms: number;
  trusted: boolean;
}

/** How prices walk with the stub clock (catalog/price-walk.ts). */
export interface PriceWalk {
  /** The clock's start instant, epoch ms: step 0. */
  origin: number;
  /** Stub time per step, ms (≥ 1000). */
  stepMs: number;
  /** Whose prices walk: generated markets no admin call wrote, all markets, or none. */
  mode: 'generated' | 'all' | 'off';
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
  return new OverlayStore(startCatalog, options.seed, options.deviations ?? NO_DEVIATIONS, options.walk ?? { origin: 0, stepMs: 60_000, mode: 'off' }, options.now ?? (() => 0), options.lifecycle ?? 'off');
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
  private view: MarketCatalog;
  private changeCount = -1;
  /** The stub instant of the last catalog change, epoch ms. */
  private changedAtMs = Number.NEGATIVE_INFINITY;
  /** No `If-Modified-Since` at or below this instant's second is trusted: two versions were served with it (lastModified). */
  private untrustedToMs = Number.NEGATIVE_INFINITY;
  /** The view of the last step asked for (`at`), kept until the step or the view changes. */
  private stepView: { step: number; of: MarketCatalog; catalog: MarketCatalog } | undefined;
  /** Built entries of changed or targeted markets. */
  private served = new Map<string, CatalogEntry>();
  /** Entries with shared deviations only (null: none apply). */
  private sharedOnly = new Map<string, CatalogEntry | null>();
  /** Id a deviation serves a market under → its market_id. */
  private aliases: Map<string, string> | undefined;
  private preferred = new Map<MarketDeviation, MarketCatalog>();
  /** Which start-up positions the list shows at an instant (built on the first lifecycle list read). */
  private lifeIndex: LifecycleIndex | undefined;

  constructor(startCatalog: MarketCatalog, private readonly seed: number, private readonly startPlan: DeviationPlan, private readonly walk: PriceWalk, private readonly now: () => number, private readonly lifecycle: LifecycleMode) {
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

  changes(): number {
    return this.changeCount;
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

  stepMs(): number {
    return this.walk.stepMs;
  }

  stepAt(t: number): number {
    // Counted whatever the walk's mode: the deviations that change over time (`followsTick`) read it too.
    return t < this.walk.origin + this.walk.stepMs ? 0 : Math.floor((t - this.walk.origin) / this.walk.stepMs);
  }

  at(t: number): MarketCatalog {
    const step = this.stepAt(t);
    const living = this.lifecycleOn();
    if (step === 0 && !living) return this.view;
    const kept = this.stepView;
    if (kept?.step === step && kept.of === this.view) return kept.catalog;
    const built = new Map<string, CatalogEntry | undefined>();
    const entry = (id: string): CatalogEntry | undefined => {
      if (built.has(id)) return built.get(id);
      const made = this.entryAtStep(id, step);
      if (built.size >= SHARED_CACHE) built.clear();
      built.set(id, made);
      return made;
    };
    // The list's positions at the step are counted on the first list read, not for an item's.
    let listed: ListedPositions | undefined;
    const positions = (): ListedPositions => (listed ??= this.listedPositions(step));
    const idAt = !living ? (i: number) => this.idAt(i) : (i: number) => {
      const position = positions().positionAt(i);
      return position === undefined ? undefined : this.idAt(position);
    };
    const catalog = overlayView(this.base, { size: living ? () => positions().size : this.size(), idAt, entry, aliased: (id) => this.aliased(id) });
    this.stepView = { step, of: this.view, catalog };
    return catalog;
  }

  lastModified(t: number): LastModified {
    const stepStart = this.stepStartAt(t);
    const ms = Math.max(this.changedAtMs, stepStart);
    const second = Math.floor(ms / 1000) * 1000;
    // A step that began in the second of the change before it shares that second with it.
    const shared = stepStart > this.changedAtMs && Math.floor(this.changedAtMs / 1000) * 1000 === second;
    return { ms, trusted: second > this.untrustedToMs && !shared };
  }

  walked(market: Market, t: number): Market {
    return this.marketAtStep(market, this.stepAt(t)) ?? market;
  }

  deviations(): DeviationPlan {
    return Object.freeze({ shares: this.shares, targeted: this.targeted, list: this.list });
  }

  deviationReach(countUpTo?: number): DeviationReach[] {
    return deviationReach(this.deviations(), { size: this.size(), seed: this.seed, idAt: (i) => this.idAt(i), has: (id) => this.has(id) }, countUpTo);
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

  patch(marketId: string, patch: Record<string, unknown>, where = 'patchMarket', t?: number): Market | undefined {
    const stored = this.market(marketId);
    if (!stored) return undefined;
    // A patch starts from the market as served at `t`: a walking market keeps the prices it shows.
    const old = t === undefined ? stored : this.walked(stored, t);
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

  reset(before?: number): void {
    // Every Last-Modified served so far is at or before `before` (the clock before it went back).
    if (before !== undefined) this.untrustedToMs = Math.max(this.untrustedToMs, before);
    this.startOver(this.start);
    this.applyPlan(this.startPlan);
    this.refresh();
  }

  setBase(next: MarketCatalog): void {
    this.start = next;
    this.startOver(next);
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
    if (index < this.base.size) return this.base.marketIdAt ? this.base.marketIdAt(index) : this.base.entryAt(index)?.market.market_id;
    return this.added[index - this.base.size];
  }

  /**
   * Whether a market's prices walk: an active market that serves no price-freezing deviation
   * (`stale-prices`), and with the `generated` walk only a generated market of the start-up
   * catalog that no admin call wrote (an overlay keeps its values: docs/architecture.md).
   */
  private walks(market: Market): boolean {
    const { mode } = this.walk;
    if (mode === 'off' || market.status !== 'active') return false;
    const id = market.market_id;
    if (mode === 'generated' && (this.base !== this.start || this.start.source !== 'generated' || this.changed.has(id) || this.base.entry(id) === undefined)) return false;
    return !this.deviationsOf(id).some((d) => d.freezesPrices);
  }

  /**
   * The served entry of a market at a step of the walk: the entry of step 0 when its prices stay
   * and none of its deviations changes over time, else one rendered from the walked market with
   * its deviations at that step (`followsTick`: status-regression, item-flapping…).
   */
  private entryAtStep(id: string, step: number): CatalogEntry | undefined {
    const served = this.servedEntry(id);
    const market = served === undefined ? undefined : this.market(id);
    if (served === undefined || market === undefined) return served;
    const ds = this.deviationsOf(id);
    const follows = ds.some((d) => d.followsTick);
    const moved = this.marketAtStep(market, step);
    if (moved === undefined) return undefined;
    if (moved === market && !follows) return served;
    return ds.length === 0 ? toCatalogEntry(moved) : this.render(moved, ds, step);
  }

  /**
   * A stored market as served at a step of the clock: its lifecycle stage at the step's start
   * instant when the lifecycle governs it (prices walked before close, held while closed, 1 / 0
   * from resolution), else its prices walked when it walks. Undefined: not yet open (generic set).
   */
  private marketAtStep(market: Market, step: number): Market | undefined {
    const pricedAt = (s: number): Market => (s === 0 || !this.walks(market) ? market : walkedMarket(market, this.seed, s));
    const life = this.lifecycle !== 'off' && this.governs(market.market_id) ? marketLife(this.seed, market, this.lifecycle) : undefined;
    if (life === undefined || this.lifecycle === 'off') return pricedAt(step);
    return livedMarket(market, life, this.walk.origin + step * this.walk.stepMs, this.lifecycle, (instant) => pricedAt(this.stepAt(instant)));
  }

  /** Whether the lifecycle is on and the start-up catalog is a generated one still served (no reload or replace). */
  private lifecycleOn(): boolean {
    return this.lifecycle !== 'off' && this.base === this.start && this.start.source === 'generated';
  }

  /** Whether the lifecycle moves this market: a generated market of the start-up catalog that no admin call wrote. */
  private governs(id: string): boolean {
    // With nothing added at run time, every market not written over is the start-up catalog's (no lookup).
    return this.lifecycleOn() && !this.changed.has(id) && (this.added.length === 0 || this.base.entry(id) !== undefined);
  }

  /**
   * The positions the list shows at a step under the lifecycle: from the index over the start-up
   * positions (no pass over the catalog) then the markets added at run time; after a market was
   * written over or removed, one pass over the catalog per step (each market O(1)).
   */
  private listedPositions(step: number): ListedPositions {
    const t = this.walk.origin + step * this.walk.stepMs;
    if (this.changed.size === 0 && this.order === undefined) {
      const base = this.base;
      this.lifeIndex ??= createLifecycleIndex(base.size, (p) => {
        const market = base.marketAt ? base.marketAt(p) : base.entryAt(p)?.market;
        return market === undefined || this.lifecycle === 'off' ? undefined : marketLife(this.seed, market, this.lifecycle);
      });
      const inBase = this.lifeIndex.listedAt(t);
      const extra = this.added.length;
      return {
        size: inBase.size + extra,
        positionAt: (rank) => (rank < inBase.size ? inBase.positionAt(rank) : rank < inBase.size + extra ? base.size + rank - inBase.size : undefined),
      };
    }
    const positions: number[] = [];
    for (let p = 0; p < this.size(); p++) {
      const id = this.idAt(p);
      const market = id === undefined ? undefined : this.market(id);
      if (market === undefined) continue;
      const life = this.lifecycle !== 'off' && this.governs(market.market_id) ? marketLife(this.seed, market, this.lifecycle) : undefined;
      if (life === undefined || listedAt(life, t)) positions.push(p);
    }
    return { size: positions.length, positionAt: (rank) => positions[rank] };
  }

  /** The deviations of one market: its own, and the shared ones the seed selects it for. */
  private deviationsOf(id: string): readonly MarketDeviation[] {
    const own = this.targeted.get(id) ?? [];
    if (this.shares.length === 0) return own;
    const h = fnv1a(id);
    const shared = this.shares.filter((share) => selectsMarket(this.seed, h, share.deviation, share.rate)).map((share) => share.deviation);
    return shared.length === 0 ? own : merged(own, shared);
  }

  /** A market rendered with its deviations at a step of the clock (0: the start, and every frozen clock). */
  private render(market: Market, deviations: readonly MarketDeviation[], step = 0): CatalogEntry {
    return deviatedEntry(market, deviations, this.seed, step);
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

  /**
   * Records a change at stub instant `at`: the body before it was served with a Last-Modified of
   * at most max(last change, its step's start); when that falls in `at`'s second, one
   * `If-Modified-Since` would name both bodies, so that second is no longer trusted.
   */
  private stampChange(at: number): void {
    const before = Math.max(this.changedAtMs, this.stepStartAt(at));
    if (Math.floor(at / 1000) <= Math.floor(before / 1000)) this.untrustedToMs = Math.max(this.untrustedToMs, at, before);
    this.changedAtMs = at;
  }

  /** The start of the clock's step at `t`, epoch ms (−∞ at step 0: the start's own body). */
  private stepStartAt(t: number): number {
    const step = this.stepAt(t);
    return step === 0 ? Number.NEGATIVE_INFINITY : this.walk.origin + step * this.walk.stepMs;
  }

  /** Drops the built entries of one market (it changed). */
  private forget(id: string): void {
    this.served.delete(id);
    this.sharedOnly.delete(id);
  }

  /** Swaps in a new view after a change: the base itself while nothing is edited or deviating. */
  private refresh(): void {
    this.changeCount += 1;
    this.stampChange(this.now());
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
