import { CATALOG_FIELDS, checkCatalogCombination } from './catalog/catalog-options.js';
import { optionError } from './floor/market-stub-error.js';
import { checkFields, type FieldRule } from './floor/option-fields.js';
import { BOOLEAN, int, TEXT } from './floor/option-kind.js';
import { DEFAULT_GRACE_MS, MAX_GRACE_MS } from './floor/limits.js';
import type { ServeFlag } from './floor/option-spec.js';
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
export const STUB_FIELDS = {
  ...RUNTIME_FIELDS,
  ...CATALOG_FIELDS,
  port: int(0, 65_535),
  host: TEXT,
  watch: BOOLEAN,
  shutdownGraceMs: int(0, MAX_GRACE_MS),
} satisfies Record<keyof MarketStubOptions, FieldRule>;

/**
 * The `market-stub serve` (and `generate`) flags of the catalog's options: seed, count and clock
 * (ServeFlag, floor/option-spec.ts); their kinds are the catalog's (STUB_FIELDS).
 */
export const CATALOG_SERVE_FLAGS = {
  seed: { flag: 'seed', env: ['MARKET_STUB_SEED'], default: 1, describe: 'Seed of the generated catalog, ticks, jitter and error rates', group: 'Data:' },
  count: { flag: 'count', env: ['MARKET_STUB_COUNT'], default: 100, describe: 'Number of generated markets', group: 'Data:' },
  clock: { flag: 'clock', env: ['MARKET_STUB_CLOCK'], defaultText: 'today (UTC)', describe: 'Where the stub clock starts: YYYY-MM-DD (00:00:00Z) or an RFC 3339 instant; resolution dates fall 1–730 days after its date', group: 'Data:' },
} as const satisfies { readonly [K in keyof MarketStubOptions]?: ServeFlag };

/**
 * The `market-stub serve` flags of startMarketStub's own options and the catalog's (ServeFlag,
 * floor/option-spec.ts): flag, variables, default and help beside the field's doc
 * (MarketStubOptions) and check (STUB_FIELDS). options/tables/serve-options.ts makes each a serve
 * row feeding that field; the runtime's are RUNTIME_SERVE_FLAGS (runtime/runtime-options.ts).
 */
export const STUB_SERVE_FLAGS = {
  port: { flag: 'port', env: ['MARKET_STUB_PORT', 'PORT'], default: 4010, describe: 'TCP port to listen on; 0 picks a free port', group: 'Server:' },
  host: { flag: 'host', env: ['MARKET_STUB_HOST', 'HOST'], default: '127.0.0.1', describe: 'Interface address to bind (0.0.0.0 in containers)', group: 'Server:' },
  shutdownGraceMs: { flag: 'shutdown-grace', env: ['MARKET_STUB_SHUTDOWN_GRACE'], default: DEFAULT_GRACE_MS, describe: 'On SIGTERM/SIGINT, ms that requests already received get to finish before a 503', group: 'Server:' },
  fixtures: { flag: 'fixtures', env: ['MARKET_STUB_FIXTURES'], defaultText: 'none: generated markets', describe: 'Serve the markets in this JSON file or directory of JSON files instead of generated ones', group: 'Data:' },
  watch: { flag: 'watch', env: ['MARKET_STUB_WATCH'], default: false, describe: 'With --fixtures: reload on change (invalid changes are logged, old data kept)', group: 'Data:' },
  ...CATALOG_SERVE_FLAGS,
} as const satisfies { readonly [K in keyof MarketStubOptions]?: ServeFlag };

/**
 * Checks the options of `startMarketStub` before anything starts: every field's type and range,
 * unknown fields (a typo such as `cuont`), and combinations (`watch` needs `fixtures`; `fixtures`
 * and `markets` exclude each other).
 * @throws MarketStubError OPTION_INVALID naming `where` and the field:
 *   `startMarketStub: clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-13-01"`.
 */
export function checkStubOptions(options: unknown, where = 'startMarketStub'): void {
  checkFields(options, STUB_FIELDS, where);
  const o = options as Record<string, unknown>;
  if (o['watch'] === true && o['fixtures'] === undefined) throw optionError(where, 'watch', 'a fixtures path to watch (watch applies to fixtures only)', true);
  checkCatalogCombination(o, where);
}

