import type { Market } from '../schema/generated/market-types.js';
import { collectMarkets, FixtureError, loadFixtures, type FixtureProblem } from './load-fixtures.js';
import { createGeneratedCatalog } from './generated-catalog.js';
import { createMemoryCatalog, type MarketCatalog } from './market-catalog.js';
import { checkCatalogOptions, type CatalogOptions } from './catalog-options.js';

export type { CatalogOptions } from './catalog-options.js';

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
  if (options.markets !== undefined) {
    const markets = validateMarkets(options.markets, 'startMarketStub');
    return createMemoryCatalog(markets, 'inline', `inline: ${markets.length} markets`);
  }
  return createGeneratedCatalog(options.count, { seed: options.seed, clock: options.clock });
}

/**
 * Validates a list of candidate markets against `$defs/Market` and checks ids are unique.
 * `where` names the surface that received them (`startMarketStub`, `stub.setMarkets`) and is
 * the `file` of each problem; `label` names the value (`markets`).
 * @throws MarketStubError MARKETS_INVALID (a FixtureError) listing every problem.
 */
export function validateMarkets(items: readonly unknown[], where: string, label = 'markets'): Market[] {
  const markets: Market[] = [];
  const problems: FixtureProblem[] = [];
  collectMarkets(items, label, new Map(), markets, problems);
  if (problems.length > 0) throw new FixtureError(problems, label, where, 'markets');
  return markets;
}
