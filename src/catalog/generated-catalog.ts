import { indexFromGeneratedId, marketAt, type GenerateOptions } from './generate-markets.js';
import { toCatalogEntry, toSummary, type CatalogEntry, type MarketCatalog } from './market-catalog.js';
import { concatBytes, utf8 } from '../floor/bytes.js';
import { nextTurn } from '../floor/next-turn.js';

/** Catalogs up to this size keep every generated entry and the whole list body in memory. */
export const MEMO_LIMIT = 250_000;
/** Larger catalogs keep at most this many entries (a flat-memory cache, emptied when full). */
const CACHE_LIMIT = 20_000;
/** Summaries per chunk when a list is streamed. */
const CHUNK = 500;

/** A generated catalog: markets are made on first use and kept (or cached, above MEMO_LIMIT). */
export interface GeneratedCatalog extends MarketCatalog {
  /** Generates every market ahead of requests in small slices that yield to the event loop; resolves when done (at once above MEMO_LIMIT). */
  warm(signal?: AbortSignal): Promise<void>;
}

/**
 * The catalog of (seed, count, clock), generated on demand: market k is made from (seed, k, clock)
 * when first asked for, so start-up costs nothing and `--count 10000000` answers any
 * `GET /markets/{id}` at once with flat memory (the id's `-{k+1}` suffix gives k). Up to
 * MEMO_LIMIT markets, entries and the list body are kept after first use; above it, the full list
 * is streamed in chunks (listChunks) and entries live in a bounded cache.
 */
export function createGeneratedCatalog(count: number, options: GenerateOptions): GeneratedCatalog {
  const memo = count <= MEMO_LIMIT;
  const entries: (CatalogEntry | undefined)[] = memo ? new Array<CatalogEntry | undefined>(count) : [];
  const cache = new Map<number, CatalogEntry>();
  let list: Uint8Array | undefined;

  const entryAt = (index: number): CatalogEntry | undefined => {
    if (!Number.isInteger(index) || index < 0 || index >= count) return undefined;
    if (memo) return (entries[index] ??= toCatalogEntry(marketAt(index, options)));
    let entry = cache.get(index);
    if (!entry) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      entry = toCatalogEntry(marketAt(index, options));
      cache.set(index, entry);
    }
    return entry;
  };

  function* listChunks(): Generator<Uint8Array> {
    yield utf8('[');
    for (let from = 0; from < count; from += CHUNK) {
      const parts: string[] = [];
      for (let i = from; i < Math.min(count, from + CHUNK); i++) {
        // Streamed markets skip the cache (a full crawl must not churn it) and serialise only the list item.
        parts.push(memo ? (entryAt(i)?.summaryJson ?? '') : JSON.stringify(toSummary(marketAt(i, options))));
      }
      yield utf8(`${from === 0 ? '' : ','}${parts.join(',')}`);
    }
    yield utf8(']');
  }

  return {
    source: 'generated',
    size: count,
    description: `generated: ${count} markets (seed ${options.seed}, clock ${options.clock})`,
    entryAt,
    marketIdAt: (index) => (Number.isInteger(index) && index >= 0 && index < count ? (entries[index]?.market ?? marketAt(index, options)).market_id : undefined),
    marketAt: (index) => (Number.isInteger(index) && index >= 0 && index < count ? (entries[index]?.market ?? marketAt(index, options)) : undefined),
    entry(marketId) {
      const index = indexFromGeneratedId(marketId);
      if (index === undefined) return undefined;
      const entry = entryAt(index);
      return entry?.market.market_id === marketId ? entry : undefined;
    },
    listBody() {
      if (!memo) throw new RangeError(`a list of ${count} markets is streamed (listChunks), not held in memory`);
      list ??= concatBytes([...listChunks()]);
      return list;
    },
    ...(memo ? {} : { listChunks }),
    async warm(signal) {
      if (!memo) return;
      // Yield before each slice: the caller's start-up returns first, and requests interleave.
      for (let from = 0; from < count; from += 50) {
        await nextTurn();
        if (signal?.aborted) return;
        for (let i = from; i < Math.min(count, from + 50); i++) entryAt(i);
      }
    },
  };
}
