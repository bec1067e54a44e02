import type { Market } from '../schema/generated/market-types.js';
import { MAX_LISTED_PROBLEMS } from '../floor/limits.js';
import { createGeneratedCatalog } from './generated-catalog.js';
import { createMemoryCatalog, type MarketCatalog } from './market-catalog.js';
import { collectMarkets, FixtureError, type FixtureProblem } from './market-problems.js';

/** A catalog from data only (no file system): markets given in code, or the generator's. */
export interface DataCatalogOptions {
  /** Markets given in code, validated like fixtures; when absent the catalog is generated. */
  markets?: readonly unknown[] | undefined;
  seed: number;
  count: number;
  /** YYYY-MM-DD (UTC). */
  clock: string;
}

/**
 * Builds a catalog from data, synchronously: the markets given (validated, all or nothing), or a
 * generated catalog of `count` markets for (seed, clock), lazy (markets are made when first read).
 * Options are checked by the caller (checkCatalogOptions). `where` names the caller in errors.
 * @throws FixtureError (a MarketStubError, MARKETS_INVALID) listing every problem of `markets`.
 */
export function buildDataCatalog(options: DataCatalogOptions, where = 'startMarketStub'): MarketCatalog {
  if (options.markets !== undefined) {
    const markets = validateMarkets(options.markets, where);
    return createMemoryCatalog(markets, 'inline', `inline: ${markets.length} markets`);
  }
  return createGeneratedCatalog(options.count, { seed: options.seed, clock: options.clock });
}

/**
 * Validates a list of candidate markets against `$defs/Market` and checks ids are unique.
 * `where` names the surface that received them (`startMarketStub`, `stub.setMarkets`) and is
 * the `file` of each problem; `label` names the value (`markets`).
 * @throws MarketStubError MARKETS_INVALID (a FixtureError) listing the first MAX_LISTED_PROBLEMS problems and counting the rest (`more`).
 */
export function validateMarkets(items: readonly unknown[], where: string, label = 'markets'): Market[] {
  const markets: Market[] = [];
  const problems: FixtureProblem[] = [];
  // At most MAX_LISTED_PROBLEMS are kept and sent back (the admin API, the remote client): the rest are counted.
  const more = collectMarkets(items, label, new Map(), markets, problems, MAX_LISTED_PROBLEMS);
  if (problems.length > 0) throw new FixtureError(problems, label, where, 'markets', more);
  return markets;
}
