import { CATALOG_FIELDS, checkCatalogCombination } from './catalog/catalog-options.js';
import { optionError } from './core/market-stub-error.js';
import { checkFields, type FieldRule } from './core/option-fields.js';
import { BOOLEAN, int, TEXT } from './core/option-kind.js';
import { MAX_GRACE_MS } from './core/limits.js';
import { RUNTIME_FIELDS } from './runtime/runtime-options.js';
import type { MarketStubOptions } from './stub.js';

/** startMarketStub's fields: the runtime's and the catalog's, plus where to listen; one check per MarketStubOptions field, held to the interface both ways (`satisfies`). */
const STUB_FIELDS: Record<string, FieldRule> = {
  ...RUNTIME_FIELDS,
  ...CATALOG_FIELDS,
  port: int(0, 65_535),
  host: TEXT,
  watch: BOOLEAN,
  shutdownGraceMs: int(0, MAX_GRACE_MS),
} satisfies Record<keyof MarketStubOptions, FieldRule>;

/**
 * Checks the options of `startMarketStub` before anything starts: every field's type and range,
 * unknown fields (a typo such as `cuont`), and combinations (`watch` needs `fixtures`; `fixtures`
 * and `markets` exclude each other).
 * @throws MarketStubError OPTION_INVALID naming `where` and the field:
 *   `startMarketStub: clock: expected a YYYY-MM-DD calendar date, found "2026-13-01"`.
 */
export function checkStubOptions(options: unknown, where = 'startMarketStub'): void {
  checkFields(options, STUB_FIELDS, where);
  const o = options as Record<string, unknown>;
  if (o['watch'] === true && o['fixtures'] === undefined) throw optionError(where, 'watch', 'a fixtures path to watch (watch applies to fixtures only)', true);
  checkCatalogCombination(o, where);
}

