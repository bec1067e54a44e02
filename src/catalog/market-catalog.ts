import type { Market, MarketSummary } from '../schema/generated/market-types.js';
import type { DeviatedReply } from '../deviation/render-deviated-market.js';
import { utf8 } from '../floor/bytes.js';
import { strongTag } from '../floor/text-hash.js';

/** One market with its pre-serialised response bodies (no serialisation on the request path). */
export interface CatalogEntry {
  readonly market: Market;
  /** UTF-8 JSON of the single-market body, `GET /markets/{market_id}`. */
  readonly body: Uint8Array;
  /** JSON text of the list item (the MarketSummary projection). */
  readonly summaryJson: string;
  /**
   * The strong entity tag of `body` (floor/text-hash.ts strongTag), when the entry keeps it: hashed
   * once per entry, so a market at a new step of the clock costs no lookup in a table of tags.
   */
  readonly bodyTag?: string;
  /** Set only on a market served with a deviation: how its single answer deviates beyond `body` (404, status, media type, delay). */
  readonly deviated?: DeviatedReply;
}

/** Where a catalog's markets came from. */
export type CatalogSource = 'fixtures' | 'generated' | 'inline';

/**
 * The one interface both endpoints read. Positions are 0-based catalog order; lookups by id are
 * exact (the id after URL decoding).
 */
export interface MarketCatalog {
  readonly source: CatalogSource;
  readonly size: number;
  /** One line for people: `generated: 250 markets (seed 7, clock 2026-01-01)`. */
  readonly description: string;
  entryAt(index: number): CatalogEntry | undefined;
  /** The market_id at a position without building its entry, where that is cheaper (a generated catalog). */
  marketIdAt?(index: number): string | undefined;
  /** The market at a position without building its entry (no serialisation), where that is cheaper (a generated catalog). */
  marketAt?(index: number): Market | undefined;
  entry(marketId: string): CatalogEntry | undefined;
  /** The bare JSON array of all summaries, built once on first use. @throws RangeError for catalogs too large to hold (those have listChunks). */
  listBody(): Uint8Array;
  /** The bare JSON array in chunks, for catalogs too large to hold in one buffer (flat memory). */
  listChunks?(): Iterable<Uint8Array>;
}

/**
 * The list view of a market: its five documented list fields (a projection of the same record,
 * so list and item can never disagree). Extra fields of fixture markets stay on the item only.
 */
export function toSummary(market: Market): MarketSummary {
  return {
    market_id: market.market_id,
    title: market.title,
    status: market.status,
    yes_price: market.yes_price,
    no_price: market.no_price,
  };
}

/** One market's entry, its two texts serialised on first read and kept (EntryBuiltOnUse). */
export function toCatalogEntry(market: Market): CatalogEntry {
  return new EntryBuiltOnUse(market);
}

/**
 * An entry whose two texts are serialised on first read and kept: a list reads only `summaryJson`,
 * a single-market answer only `body`, so a market walked to a new step of the clock
 * (MarketStore.at) costs the one its route needs (bench/time-cost.ts measures the list).
 */
class EntryBuiltOnUse implements CatalogEntry {
  #body: Uint8Array | undefined;
  #summaryJson: string | undefined;
  #bodyTag: string | undefined;

  constructor(readonly market: Market) {}

  get body(): Uint8Array {
    return (this.#body ??= utf8(JSON.stringify(this.market)));
  }

  get summaryJson(): string {
    return (this.#summaryJson ??= JSON.stringify(toSummary(this.market)));
  }

  get bodyTag(): string {
    return (this.#bodyTag ??= strongTag(this.body));
  }
}

/**
 * An in-memory catalog over already validated markets with unique ids. Entries (the serialised
 * bodies) are built on first use and kept, so swapping in a new catalog costs a map of ids, not a
 * serialisation of every market (an admin PUT of thousands of markets stays short).
 * `index` (market_id → position), when given, is used as is (built by the caller, e.g. in slices
 * between requests: createMemoryCatalogInSlices).
 * @throws Error on a duplicate market_id (callers validate first; this guards the invariant).
 */
export function createMemoryCatalog(markets: readonly Market[], source: CatalogSource, description: string, index?: ReadonlyMap<string, number>): MarketCatalog {
  const byId = index ?? new Map<string, number>();
  if (!index) {
    markets.forEach((m, i) => {
      if (byId.has(m.market_id)) throw new Error(`duplicate market_id ${JSON.stringify(m.market_id)} in catalog`);
      (byId as Map<string, number>).set(m.market_id, i);
    });
  }
  const entries = new Array<CatalogEntry | undefined>(markets.length);
  const entryAt = (index: number): CatalogEntry | undefined => {
    const market = markets[index];
    if (!market) return undefined;
    return (entries[index] ??= toCatalogEntry(market));
  };
  let list: Uint8Array | undefined;
  return {
    source,
    size: markets.length,
    description,
    entryAt,
    entry: (marketId) => {
      const index = byId.get(marketId);
      return index === undefined ? undefined : entryAt(index);
    },
    listBody: () => (list ??= utf8(`[${markets.map((_, i) => entryAt(i)?.summaryJson ?? '').join(',')}]`)),
  };
}
