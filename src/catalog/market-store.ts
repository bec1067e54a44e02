import type { Market } from '../schema/generated/market-types.js';
import type { MarketCatalog } from './market-catalog.js';
import { MarketStubError } from '../core/market-stub-error.js';
import type { ListDeviation, MarketDeviation } from '../deviation/deviation-definition.js';
import { NO_DEVIATIONS, type DeviationPlan } from '../deviation/deviation-settings.js';
import { applyPlan, idAt, initialStoreState, preferredView, rawMarket, refresh, setOwnDeviations, startOver, storeSize, type StoreState } from './store-state.js';
import { patchMarket, putMarket, removeMarket, replaceMarkets, tickMarkets } from './store-edits.js';


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
  const startPlan = options.deviations ?? NO_DEVIATIONS;
  const s = initialStoreState(startCatalog, options.seed, startPlan);
  return {
    current: () => s.view,
    has: (marketId) => rawMarket(s, marketId) !== undefined,
    market: (marketId) => rawMarket(s, marketId),
    marketAt: (index) => {
      if (s.view === s.base) return s.base.entryAt(index)?.market;
      const id = index >= 0 && index < storeSize(s) ? idAt(s, index) : undefined;
      return id === undefined ? undefined : rawMarket(s, id);
    },
    replace: (items, where = 'setMarkets') => replaceMarkets(s, items, where),
    put: (item, where = 'putMarket') => putMarket(s, item, where),
    patch: (marketId, patch, where = 'patchMarket') => patchMarket(s, marketId, patch, where),
    remove: (marketId, where = 'removeMarket') => removeMarket(s, marketId, where),
    reset() {
      startOver(s, s.start);
      applyPlan(s, startPlan);
      s.tickCount = 0;
      refresh(s);
    },
    setDeviations: (plan, where = 'setDeviations') => setDeviations(s, plan, where),
    setMarketDeviations: (marketId, deviations) => setOwnDeviations(s, marketId, deviations),
    deviations: () => Object.freeze({ shares: s.shares, targeted: s.targeted, list: s.list }),
    listDeviations: () => s.list,
    preferredView: (deviation) => preferredView(s, deviation),
    tick: (n = 1, where = 'tick') => tickMarkets(s, n, where),
    setBase(next) {
      s.start = next;
      startOver(s, next);
      s.tickCount = 0;
      refresh(s);
    },
  };
}

function setDeviations(s: StoreState, plan: DeviationPlan, where: string): void {
  for (const id of plan.targeted.keys()) {
    if (rawMarket(s, id) === undefined) throw new MarketStubError({ code: 'MARKET_NOT_FOUND', where, marketId: id, message: `${where}: no market with market_id ${JSON.stringify(id)} (marketIds name markets of the catalog)` });
  }
  applyPlan(s, plan);
  refresh(s);
}
