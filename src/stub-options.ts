import { CATALOG_FIELDS, checkCatalogCombination } from './catalog/catalog-options.js';
import { optionError } from './floor/market-stub-error.js';
import { checkFields, type FieldRule } from './floor/option-fields.js';
import { BOOLEAN, int, TEXT } from './floor/option-kind.js';
import { MAX_GRACE_MS } from './floor/limits.js';
import { RUNTIME_FIELDS } from './runtime/runtime-options.js';
import type { RuntimeOptions } from './runtime/stub-runtime.js';

/**
 * Options of startMarketStub; every field is optional. Besides these, the runtime options apply
 * (see RuntimeOptions): `profile`, `behaviour`, `rules`, `deviations`, `journalSize`, `cors`,
 * `admin`, `adminToken`, `logger`, `seed` (which also seeds the generated catalog).
 */
export interface MarketStubOptions extends Omit<RuntimeOptions, 'catalog'> {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Number of generated markets. @default 100 */
  count?: number;
  /** Clock date YYYY-MM-DD (UTC). @default today (UTC) */
  clock?: string;
  /** Serve this fixture file or directory instead of generated markets. */
  fixtures?: string;
  /** With `fixtures`: reload on change; keep the old data (and log findings) when the new is invalid. */
  watch?: boolean;
  /** Serve these markets (validated like fixtures) instead of generated ones. */
  markets?: readonly unknown[];
  /**
   * How long `close()` lets requests already received finish (delayed ones included), ms, 0–600,000;
   * those still waiting then get a 503. @default 5000
   */
  shutdownGraceMs?: number;
}

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

