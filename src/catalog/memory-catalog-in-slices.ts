import type { Market } from '../schema/generated/market-types.js';
import { createMemoryCatalog, type CatalogSource, type MarketCatalog } from './market-catalog.js';
import { nextTurn } from '../floor/next-turn.js';

/** Markets indexed between two yields to the event loop (a few ms of work). */
const SLICE = 5_000;

/**
 * createMemoryCatalog for a large set without stalling the server: the id index (a Map of every
 * market_id, a visible stall for a million markets in one go) is built in slices of SLICE markets,
 * yielding to the event loop (nextTurn) before each, so requests are answered meanwhile.
 * @throws Error on a duplicate market_id, as createMemoryCatalog.
 */
export async function createMemoryCatalogInSlices(markets: readonly Market[], source: CatalogSource, description: string): Promise<MarketCatalog> {
  const index = new Map<string, number>();
  for (let from = 0; from < markets.length; from += SLICE) {
    await nextTurn();
    for (let i = from; i < Math.min(markets.length, from + SLICE); i++) {
      const id = (markets[i] as Market).market_id;
      if (index.has(id)) throw new Error(`duplicate market_id ${JSON.stringify(id)} in catalog`);
      index.set(id, i);
    }
  }
  return createMemoryCatalog(markets, source, description, index);
}
