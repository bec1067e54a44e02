import { optionError } from '../floor/market-stub-error.js';
import { checkFields, type FieldRule } from '../floor/option-fields.js';
import { DATA_STUB_FIELDS } from '../runtime/runtime-options.js';
import type { RuntimeOptions } from '../runtime/stub-runtime.js';

/**
 * Options of `createFetchHandler`: the options of `startMarketStub` given as data (seed, count,
 * clock, markets, profile, behaviour, rules, deviations, journal, cors, admin, adminToken,
 * allowedHosts, logger, errorLog), plus the path it is mounted under. No `fixtures` (a Fetch runtime
 * may have no file system: import the JSON and pass it as `markets`), no port, host or grace: the
 * runtime that calls `fetch` (Bun.serve, Deno.serve, a Worker, a framework route) listens.
 */
export interface FetchHandlerOptions extends Omit<RuntimeOptions, 'catalog'> {
  /** Number of generated markets (when `markets` is not given), 0–100,000,000. @default 100 */
  count?: number;
  /** Clock date YYYY-MM-DD (UTC) of the generated catalog and of every `Date` header. @default today (UTC), the real date */
  clock?: string;
  /** Serve these markets (validated like fixtures) instead of generated ones. */
  markets?: readonly unknown[];
  /**
   * The path the handler is mounted under, such as `/api/stub` for a framework route
   * `app/api/stub/[...path]/route.ts`: it is taken off each request's path before routing (and named
   * as the OpenAPI document's server path). A request outside it answers 404. `''` or absent: the root.
   */
  basePath?: string;
}

/** The fields createFetchHandler takes: startMarketStub's that need no file system or socket, and basePath. */
const FETCH_FIELDS: Record<string, FieldRule> = {
  ...DATA_STUB_FIELDS,
  basePath: (value, where, option) => {
    if (typeof value !== 'string' || (value !== '' && !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/.test(value))) throw optionError(where, option, 'a path such as "/api/stub" (starting with /, no trailing /, no query)', value);
  },
} satisfies Record<keyof FetchHandlerOptions, FieldRule>;

/**
 * Checks the options of createFetchHandler before anything is built.
 * @throws MarketStubError OPTION_INVALID naming the field (`createFetchHandler: basePath: expected …`); unknown fields too.
 */
export function checkFetchOptions(options: unknown, where: string): asserts options is FetchHandlerOptions {
  checkFields(options ?? {}, FETCH_FIELDS, where);
}
