import { loadFixtures } from './load-fixtures.js';
import { buildDataCatalog } from './data-catalog.js';
import { createMemoryCatalog, type MarketCatalog } from './market-catalog.js';
import { checkCatalogOptions, type CatalogOptions } from './catalog-options.js';

export type { CatalogOptions } from './catalog-options.js';
export { validateMarkets } from './data-catalog.js';

/**
 * Builds the catalog the server reads: from fixtures, from markets given in code, or generated
 * from (seed, count, clock).
 * @throws MarketStubError OPTION_INVALID for a bad option (`buildCatalog: clock: expected a
 *   YYYY-MM-DD calendar date, found "tomorrow"`); FixtureError (a MarketStubError,
 *   MARKETS_INVALID or FIXTURES_UNREADABLE) listing every problem of the fixtures or markets.
 */
export async function buildCatalog(options: CatalogOptions): Promise<MarketCatalog> {
  checkCatalogOptions(options, 'buildCatalog');
  if (options.fixtures !== undefined) {
    const markets = await loadFixtures(options.fixtures);
    return createMemoryCatalog(markets, 'fixtures', `fixtures: ${markets.length} markets from ${options.fixtures}`);
  }
  return buildDataCatalog(options);
}
