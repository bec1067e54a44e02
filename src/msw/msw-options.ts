import { readHttpUrl } from '../floor/http-url.js';
import { optionError } from '../floor/market-stub-error.js';
import { checkFields, type FieldRule } from '../floor/option-fields.js';
import { DATA_STUB_FIELDS } from '../runtime/runtime-options.js';
import type { RuntimeOptions } from '../runtime/stub-runtime.js';

/**
 * Options of `createMarketStubHandlers`: the options of `startMarketStub` that mean something
 * without a server (seed, count, clock, markets given as data, profile, behaviour, rules,
 * deviations, journal, cors, admin, logger), plus the base URL the handlers answer under. No
 * `fixtures` (no file system in a browser: import the JSON and pass it as `markets`), no port or host.
 */
export interface MarketStubHandlersOptions extends Omit<RuntimeOptions, 'catalog' | 'admin'> {
  /** Serve the admin API under `${baseUrl}/__stub` (the `stub` handle needs none). @default false */
  admin?: boolean;
  /**
   * Absolute http(s) URL the app under test calls, e.g. `https://api.example.test/v1`: the
   * handlers answer `${baseUrl}/markets`, `${baseUrl}/markets/{market_id}`, `${baseUrl}/openapi.json`
   * and `${baseUrl}/healthz`. Query and fragment are not allowed; a trailing `/` is ignored.
   */
  baseUrl: string;
  /** Number of generated markets (when `markets` is not given), 0–100,000,000. @default 100 */
  count?: number;
  /** Clock date YYYY-MM-DD (UTC) of the generated catalog. @default today (UTC) */
  clock?: string;
  /** Serve these markets (validated like fixtures) instead of generated ones. */
  markets?: readonly unknown[];
}

const MSW_FIELDS: Record<string, FieldRule> = {
  ...DATA_STUB_FIELDS,
  baseUrl: (value, where, option) => {
    handlerBase(value, where, option);
  },
} satisfies Record<keyof MarketStubHandlersOptions, FieldRule>;

/**
 * Checks the options of createMarketStubHandlers before anything is built.
 * @throws MarketStubError OPTION_INVALID naming the field (`createMarketStubHandlers: baseUrl: expected …`).
 */
export function checkHandlersOptions(options: unknown, where: string): asserts options is MarketStubHandlersOptions {
  checkFields(options, MSW_FIELDS, where);
  if ((options as { baseUrl?: unknown } | undefined)?.baseUrl === undefined) throw optionError(where, 'baseUrl', 'the absolute URL the app calls, such as "https://api.example.test"', undefined);
}

/**
 * The base URL as origin plus path prefix (no trailing `/`).
 * @throws MarketStubError OPTION_INVALID when it is not an absolute http(s) URL without credentials, query or fragment (floor/http-url.ts).
 */
export function handlerBase(value: unknown, where: string, option = 'baseUrl'): { origin: string; prefix: string; href: string } {
  // Text only: a URL object is refused as before (the handlers compare its text with request URLs).
  const read = readHttpUrl(typeof value === 'string' ? value : undefined);
  if (!read.ok) throw optionError(where, option, `${read.expected}, such as "https://api.example.test/v1"`, read.secret ? '(a URL with credentials, not shown)' : value);
  const url = read.url;
  const prefix = url.pathname.replace(/\/+$/, '');
  return { origin: url.origin, prefix, href: `${url.origin}${prefix}` };
}
