import type { Market } from '../schema/generated/market-types.js';
import { MAX_EDITABLE } from '../floor/limits.js';
import { fnv1a } from '../floor/text-hash.js';
import { getMarketValidator } from '../schema/market-validator.js';
import { catalogueIndex } from '../deviation/deviation-catalogue.js';
import type { MarketDeviation } from '../deviation/deviation-definition.js';
import { selectsMarket, type DeviationPlan } from '../deviation/deviation-settings.js';
import { renderDeviatedMarket } from '../deviation/render-deviated-market.js';
import { concatBytes, utf8 } from '../floor/bytes.js';
import { toSummary, type CatalogEntry, type MarketCatalog } from './market-catalog.js';
import { SHARED_CACHE } from './store-limits.js';

/** Two deviation lists as one, each deviation once, in catalogue order. */
export function merged(a: readonly MarketDeviation[], b: readonly MarketDeviation[]): MarketDeviation[] {
  return [...new Set([...a, ...b])].sort((x, y) => catalogueIndex(x) - catalogueIndex(y));
}

/**
 * A market served with its deviations. The entry's `market` is the single view when it is still
 * a Market (so `?status=` filters what is served), else the stored market.
 */
export function deviatedEntry(market: Market, deviations: readonly MarketDeviation[], seed: number, tick = 0): CatalogEntry {
  const out = renderDeviatedMarket({ item: market, summary: toSummary(market) }, deviations, { seed, idHash: fnv1a(market.market_id), tick });
  const servedMarket = getMarketValidator({ allErrors: false }).isMarket(out.item) ? out.item : market;
  return { market: servedMarket, body: out.body, summaryJson: out.summaryJson, deviated: out.reply };
}

/**
 * The ids deviations serve markets under besides their own (an integer market_id), built on the
 * first request for an unknown id after a change: the targeted markets, and for shared
 * deviations the catalog's markets up to MAX_EDITABLE (beyond, such ids answer 404).
 */
export function aliasIndex(
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

export interface OverlayParts {
  /** How many markets the view lists, or a function that counts them on first use (a lifecycle view's list at an instant). */
  size: number | (() => number);
  idAt(index: number): string | undefined;
  /** The served entry of a market (hidden ones included: the list shows them). */
  entry(id: string): CatalogEntry | undefined;
  /** The market_id a deviation serves under another id, or undefined. */
  aliased(id: string): string | undefined;
}

/** A view of the overlay: positions through `idAt`, entries through the store's served entries. */
export function overlayView(base: MarketCatalog, parts: OverlayParts): MarketCatalog {
  let counted = typeof parts.size === 'number' ? parts.size : undefined;
  const sizeOf = (): number => (counted ??= (parts.size as () => number)());
  let list: Uint8Array | undefined;
  const entryAt = (index: number): CatalogEntry | undefined => {
    if (!Number.isInteger(index) || index < 0 || index >= sizeOf()) return undefined;
    const id = parts.idAt(index);
    return id === undefined ? undefined : parts.entry(id);
  };
  function* listChunks(): Generator<Uint8Array> {
    const size = sizeOf();
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
    get size() {
      return sizeOf();
    },
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
      if (base.listChunks) throw new RangeError(`a list of ${sizeOf()} markets is streamed (listChunks), not held in memory`);
      list ??= concatBytes([...listChunks()]);
      return list;
    },
    // A base too large to hold its list whole (a huge generated catalog) streams its view too.
    ...(base.listChunks ? { listChunks } : {}),
  };
}

/** The overlay with one more deviation on every market (Prefer: deviation=NAME), its entries built on demand and cached (bounded). */
export function preferredOverlay(
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
