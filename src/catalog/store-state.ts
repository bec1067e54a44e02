import type { Market } from '../schema/generated/market-types.js';
import { fnv1a } from '../core/text-hash.js';
import { catalogueIndex } from '../deviation/deviation-catalogue.js';
import type { ListDeviation, MarketDeviation } from '../deviation/deviation-definition.js';
import { selectsMarket, type DeviationPlan } from '../deviation/deviation-settings.js';
import { toCatalogEntry, type CatalogEntry, type MarketCatalog } from './market-catalog.js';
import { aliasIndex, deviatedEntry, merged, overlayView, preferredOverlay } from './overlay-view.js';
import { PREFERRED_VIEWS, SHARED_CACHE } from './store-limits.js';

/**
 * The market store's state: the start-up catalog and plan, the overlay of edits on the base
 * catalog (changed markets, ids added after it, the id order once a market is removed), the
 * deviations in force and the caches of built entries. Only the store's stages change it.
 */
export interface StoreState {
  readonly seed: number;
  readonly startPlan: DeviationPlan;
  start: MarketCatalog;
  base: MarketCatalog;
  changed: Map<string, Market>;
  added: string[];
  /** Ids in catalog order, once something was removed. */
  order: string[] | undefined;
  removed: Set<string>;
  shares: DeviationPlan['shares'];
  targeted: ReadonlyMap<string, readonly MarketDeviation[]>;
  list: readonly ListDeviation[];
  tickCount: number;
  view: MarketCatalog;
  /** Built entries of changed or targeted markets. */
  served: Map<string, CatalogEntry>;
  /** Entries with shared deviations only (null: none apply). */
  sharedOnly: Map<string, CatalogEntry | null>;
  /** Id a deviation serves a market under → its market_id. */
  aliases: Map<string, string> | undefined;
  preferred: Map<MarketDeviation, MarketCatalog>;
}

/** A fresh state over the start-up catalog and plan (nothing edited, the base served as is). */
export function initialStoreState(startCatalog: MarketCatalog, seed: number, startPlan: DeviationPlan): StoreState {
  const s: StoreState = {
    seed, startPlan, start: startCatalog, base: startCatalog, changed: new Map(), added: [], order: undefined, removed: new Set(),
    shares: startPlan.shares, targeted: startPlan.targeted, list: startPlan.list, tickCount: 0, view: startCatalog,
    served: new Map(), sharedOnly: new Map(), aliases: undefined, preferred: new Map(),
  };
  refresh(s);
  return s;
}

/** How many markets the catalog holds now. */
export const storeSize = (s: StoreState): number => (s.order ? s.order.length : s.base.size + s.added.length);

/** The market_id at a catalog position, or undefined. */
export function idAt(s: StoreState, index: number): string | undefined {
  if (s.order) return s.order[index];
  if (index < s.base.size) return s.base.entryAt(index)?.market.market_id;
  return s.added[index - s.base.size];
}

/** The market as stored (before deviations), or undefined. */
export const rawMarket = (s: StoreState, id: string): Market | undefined =>
  (s.removed.has(id) ? undefined : (s.changed.get(id) ?? s.base.entry(id)?.market));

/** The deviations of one market: its own, and the shared ones the seed selects it for. */
export function deviationsOf(s: StoreState, id: string): readonly MarketDeviation[] {
  const own = s.targeted.get(id) ?? [];
  if (s.shares.length === 0) return own;
  const h = fnv1a(id);
  const shared = s.shares.filter((share) => selectsMarket(s.seed, h, share.deviation, share.rate)).map((share) => share.deviation);
  return shared.length === 0 ? own : merged(own, shared);
}

const render = (s: StoreState, market: Market, deviations: readonly MarketDeviation[]): CatalogEntry => deviatedEntry(market, deviations, s.seed);

/** The entry served for a market (built and kept the first time a changed or deviating market is read). */
function servedEntry(s: StoreState, id: string): CatalogEntry | undefined {
  const hit = s.served.get(id);
  if (hit) return hit;
  const market = rawMarket(s, id);
  if (!market) return undefined;
  if (s.changed.has(id) || s.targeted.has(id)) {
    const ds = deviationsOf(s, id);
    const entry = ds.length === 0 ? toCatalogEntry(market) : render(s, market, ds);
    s.served.set(id, entry);
    return entry;
  }
  const baseEntry = s.base.entry(id);
  if (s.shares.length === 0) return baseEntry;
  const cached = s.sharedOnly.get(id);
  if (cached !== undefined) return cached ?? baseEntry;
  const ds = deviationsOf(s, id);
  const entry = ds.length === 0 ? null : render(s, market, ds);
  if (s.sharedOnly.size >= SHARED_CACHE) s.sharedOnly.clear();
  s.sharedOnly.set(id, entry);
  return entry ?? baseEntry;
}

function aliased(s: StoreState, id: string): string | undefined {
  s.aliases ??= aliasIndex(s.targeted, s.shares, { size: storeSize(s), idAt: (i) => idAt(s, i) }, s.seed);
  return s.aliases.get(id);
}

/** Drops the built entries of one market (it changed). */
export function forget(s: StoreState, id: string): void {
  s.served.delete(id);
  s.sharedOnly.delete(id);
}

/** Swaps in a new view after a change: the base itself while nothing is edited or deviating. */
export function refresh(s: StoreState): void {
  s.aliases = undefined;
  s.preferred = new Map();
  if (s.changed.size === 0 && s.added.length === 0 && !s.order && s.targeted.size === 0 && s.shares.length === 0) {
    s.view = s.base;
    return;
  }
  s.view = overlayView(s.base, { size: storeSize(s), idAt: (i) => idAt(s, i), entry: (id) => servedEntry(s, id), aliased: (id) => aliased(s, id) });
}

/** Serves `next` as the base with no edits on top. */
export function startOver(s: StoreState, next: MarketCatalog): void {
  s.base = next;
  s.changed = new Map();
  s.added = [];
  s.order = undefined;
  s.removed = new Set();
  s.served = new Map();
  s.sharedOnly = new Map();
}

/** Puts a deviation plan in force (entries are rebuilt on demand). */
export function applyPlan(s: StoreState, plan: DeviationPlan): void {
  s.shares = plan.shares;
  s.targeted = plan.targeted;
  s.list = plan.list;
  s.served = new Map();
  s.sharedOnly = new Map();
}

/** Sets one market's own deviations. The targeted map is swapped, never changed in place: a view built before keeps what it saw. */
export function setOwnDeviations(s: StoreState, marketId: string, deviations: readonly MarketDeviation[]): void {
  const next = new Map(s.targeted);
  if (deviations.length === 0) next.delete(marketId);
  else next.set(marketId, Object.freeze([...deviations].sort((a, b) => catalogueIndex(a) - catalogueIndex(b))));
  s.targeted = next;
  forget(s, marketId);
  refresh(s);
}

/** The catalog with one more deviation on every market, built lazily and kept until the next change (bounded). */
export function preferredView(s: StoreState, deviation: MarketDeviation): MarketCatalog {
  let preferredCatalog = s.preferred.get(deviation);
  if (!preferredCatalog) {
    if (s.preferred.size >= PREFERRED_VIEWS) s.preferred.clear();
    preferredCatalog = preferredOverlay(s.base, {
      size: storeSize(s), seed: s.seed, deviation, idAt: (i) => idAt(s, i), raw: (id) => rawMarket(s, id),
      aliased: (id) => aliased(s, id), deviationsOf: (id) => deviationsOf(s, id), render: (m, ds) => render(s, m, ds),
    });
    s.preferred.set(deviation, preferredCatalog);
  }
  return preferredCatalog;
}
