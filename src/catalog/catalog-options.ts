import { optionError } from '../floor/market-stub-error.js';
import { MAX_COUNT } from '../floor/limits.js';
import { checkFields, type FieldRule } from '../floor/option-fields.js';
import { INSTANT, int } from '../floor/option-kind.js';


/** Where a catalog comes from: exactly one of fixtures, markets, or the generator's (seed, count, clock). */
export interface CatalogOptions {
  /** A fixture file or directory (see readFixtures). */
  fixtures?: string | undefined;
  /** Markets given in code, validated like fixtures. */
  markets?: readonly unknown[] | undefined;
  seed: number;
  count: number;
  /** The clock: a YYYY-MM-DD date or an RFC 3339 instant (the generator reads its UTC date). */
  clock: string;
}

/** What `buildCatalog` takes (fixtures, markets given in code, or the generator's seed, count and clock). */
export const CATALOG_FIELDS = {
  seed: int(0, Number.MAX_SAFE_INTEGER),
  count: int(0, MAX_COUNT),
  clock: INSTANT,
  fixtures: { type: 'path' },
  markets: (value, where, option) => {
    if (!Array.isArray(value)) throw optionError(where, option, 'an array of markets', value);
  },
} satisfies Record<string, FieldRule>;

/**
 * Checks the options of `buildCatalog`.
 * @throws MarketStubError OPTION_INVALID
 */
export function checkCatalogOptions(options: unknown, where = 'buildCatalog'): void {
  checkFields(options, CATALOG_FIELDS, where);
  checkCatalogCombination(options as Record<string, unknown>, where);
}

/** `fixtures` and `markets` exclude each other. */
export function checkCatalogCombination(o: Record<string, unknown>, where: string): void {
  if (o['fixtures'] !== undefined && o['markets'] !== undefined) throw optionError(where, 'markets', 'either fixtures or markets, not both', 'both given');
}
