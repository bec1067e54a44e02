import { todayUtc, isCalendarDate } from '../../floor/market-rules.js';
import { showValue } from '../../floor/market-stub-error.js';
import { expectedText, int, readTyped } from '../../floor/option-kind.js';
import { CRAWL_DEFAULTS, CRAWL_LIMITS, IN_FLIGHT_MARKET_BYTES } from '../../floor/crawl-limits.js';

export { CRAWL_DEFAULTS, CRAWL_LIMITS } from '../../floor/crawl-limits.js';
import { createRedactor, type Redactor } from '../../floor/redact-secrets.js';
import { ContractRunError, parseBaseUrl } from '../http-client/index.js';
import type { MarketSpool } from '../fixture-sets/index.js';
import type { CrawlObserver } from './crawl-observer.js';
import { createOutgoingAgent, type OutgoingAgent, type OutgoingNetwork } from '../http-client/index.js';
import { checkHeaderFields } from '../http-client/index.js';
import { readBaseQuery, type BaseQuery } from '../http-client/index.js';

/** Options of a crawl; only `baseUrl` is required. */
export interface CrawlOptions {
  /**
   * The deployment's base URL; `GET {base}/markets` is the list. Its query (`?api_key=K`) is kept
   * on every request to its origin (base-query.ts); the values of secret parameters (`redactQuery`)
   * never reach a report. The fragment is ignored.
   */
  baseUrl: string | URL;
  /** Headers sent on every request to the base URL's origin, e.g. `[['Authorization', 'Bearer …']]`; never to another origin. Their values never reach a report. */
  headers?: ReadonlyArray<readonly [string, string]>;
  /** Time limit per request attempt, body included, in ms. @default 10000 */
  timeoutMs?: number;
  /** Listed markets requested one by one, spread evenly over the list. @default 50 */
  maxMarkets?: number;
  /** Request every listed market (overrides maxMarkets). @default false */
  all?: boolean;
  /** Single-market requests in flight at once (and connections kept open). @default 8 */
  concurrency?: number;
  /** List pages followed at most; a list with more stops the run (exit 2, could-not-run naming --max-pages): a limit of the checker. @default 1000 */
  maxPages?: number;
  /** Largest response body accepted, decompressed, in MiB: a larger body stops the run (exit 2, could-not-run naming the flag). @default 64 */
  maxBodyMb?: number;
  /**
   * Largest single-market body, decompressed, in bytes (1 KiB to 64 MiB): a larger one stops the
   * run (exit 2, could-not-run naming the flag and the value that lets it finish), read no further. With it, at most 64 MiB of
   * single-market bodies are read at once (IN_FLIGHT_MARKET_BYTES): `concurrency` is lowered for
   * single markets when `concurrency × maxMarketBytes` would pass it. @default 8388608 (8 MiB)
   */
  maxMarketBytes?: number;
  /** Retries of a 503 answer per request, honouring Retry-After; of a 429 once the pace is down to one request at a time (docs/contract-check.md, rate limits). @default 2 */
  retries?: number;
  /** Longest Retry-After (or announced rate-limit reset) waited for, in ms; a longer one ends the retries (a 503: error; a 429: exit 2). @default 10000 */
  retryAfterMaxMs?: number;
  /** Refuse redirects and paging links to another origin (error) instead of following them without the headers (warning). @default false */
  sameOriginOnly?: boolean;
  /**
   * A single-market answer slower than this, ms (first attempt to the end of its body, retries
   * included), is a warning `slow-answer` naming the market; the contract documents no latency.
   * @default 2000
   */
  slowMs?: number;
  /** Warnings fail the run too. @default false */
  strict?: boolean;
  /**
   * Today's date YYYY-MM-DD (UTC) for the past-resolution-date rule. @default the date of the
   * deployment's `Date` header on its first list answer (RFC 9110 §6.6.1), else this machine's today
   */
  today?: string;
  /** Which command the report names. @default 'check' */
  command?: 'check' | 'record';
  /** Keep the valid single-market bodies in `markets` (small sets; record uses `spool`). @default false */
  collectMarkets?: boolean;
  /** Put the valid single-market bodies (as fixture text) into this spool instead of memory. */
  spool?: MarketSpool;
  /** Keep the invalid single-market answers (for record --keep-invalid). @default false */
  collectInvalid?: boolean;
  /**
   * An undici `Dispatcher` to send through (a ProxyAgent, custom TLS, a MockAgent in tests).
   * Typed structurally so the published types need no undici types.
   * @default a keep-alive Agent of `concurrency` connections
   */
  dispatcher?: CrawlDispatcher;
  /**
   * Forward proxy (`proxy`, or the `proxyEnv` environment's HTTP_PROXY/HTTPS_PROXY/NO_PROXY) and
   * client certificate (`cert`, `key`, `passphrase`, `ca` as PEM text) for the deployment
   * (docs/networks.md). Ignored when `dispatcher` is given. @default direct, no client certificate
   */
  network?: OutgoingNetwork;
  /** Query parameter names whose values are secrets besides the defaults (token, api_key, key, signature…: floor/secret-names.ts): kept out of the report, and, in the base URL's query, redacted by value everywhere. */
  redactQuery?: readonly string[];
  /** Aborting stops the crawl with a ContractRunError (code INTERRUPTED). */
  signal?: AbortSignal;
  /** Called as pages and markets are fetched (for a progress line). */
  onProgress?: (progress: CrawlProgress) => void;
  /** Told of every answer's validators, Date and body hash, and of the listing (a watch compares them round to round: crawl-observer.ts). */
  observer?: CrawlObserver;
}

/** Where a crawl is. */
export type CrawlProgress = { phase: 'list'; pages: number; listed: number } | { phase: 'markets'; done: number; total: number };

/** Any undici Dispatcher (Agent, ProxyAgent, MockAgent): the one method every dispatcher has. */
export interface CrawlDispatcher {
  dispatch(...args: never[]): unknown;
}

/** Validated settings of one crawl. */
export interface CrawlSettings {
  base: URL;
  timeoutMs: number;
  maxMarkets: number;
  concurrency: number;
  maxPages: number;
  maxBodyBytes: number;
  /** Largest single-market body, bytes (at most maxBodyBytes). */
  maxMarketBytes: number;
  /** Single-market requests in flight at once: `concurrency`, lowered to keep IN_FLIGHT_MARKET_BYTES. */
  marketConcurrency: number;
  retries: number;
  retryAfterMaxMs: number;
  slowMs: number;
  sameOriginOnly: boolean;
  today: string;
  /** `today` was given: the deployment's Date header does not replace it. */
  todayGiven: boolean;
  redactor: Redactor;
  /** The base URL's query, sent on every request to its origin; its secret values are in `redactor`. */
  baseQuery: BaseQuery;
  /** How requests reach the deployment (proxy, client certificate). */
  network: OutgoingAgent;
}

/**
 * Validates every option before anything is sent.
 * @throws ContractRunError OPTION_INVALID naming the option (library name and flag).
 */
export function resolveCrawlSettings(options: CrawlOptions): CrawlSettings {
  const base = parseBaseUrl(options.baseUrl);
  const number = (name: keyof typeof CRAWL_LIMITS, flag: string): number => {
    const value = options[name];
    const [min, max] = CRAWL_LIMITS[name];
    if (value === undefined) return CRAWL_DEFAULTS[name];
    const read = readTyped(int(min, max), value);
    if (!read.ok) throw new ContractRunError('OPTION_INVALID', `${name} (${flag}): expected ${read.expected}, found ${showValue(value)}.`, 'crawlDeployment');
    return value;
  };
  checkHeaderFields(options.headers ?? [], 'headers (--header)', 'crawlDeployment');
  const baseQuery = readBaseQuery(base, options.redactQuery ?? []);
  const concurrency = number('concurrency', '--concurrency');
  const maxMarketBytes = number('maxMarketBytes', '--max-market-bytes');
  const today = options.today ?? todayUtc();
  if (!isCalendarDate(today)) throw new ContractRunError('OPTION_INVALID', `today: expected ${expectedText({ type: 'date' })}, found ${showValue(today)}.`, 'crawlDeployment');
  return {
    base,
    timeoutMs: number('timeoutMs', '--timeout-ms'),
    maxMarkets: number('maxMarkets', '--max-markets'),
    concurrency,
    maxPages: number('maxPages', '--max-pages'),
    maxBodyBytes: number('maxBodyMb', '--max-body-mb') * 1_048_576,
    maxMarketBytes,
    marketConcurrency: Math.max(1, Math.min(concurrency, Math.floor(IN_FLIGHT_MARKET_BYTES / maxMarketBytes))),
    retries: number('retries', '--retries'),
    retryAfterMaxMs: number('retryAfterMaxMs', '--retry-after-max-ms'),
    slowMs: number('slowMs', '--slow-ms'),
    sameOriginOnly: options.sameOriginOnly ?? false,
    today,
    todayGiven: options.today !== undefined,
    redactor: createRedactor([...(options.headers ?? []).map(([, value]) => value), ...baseQuery.secretValues]),
    baseQuery,
    network: createOutgoingAgent(options.network),
  };
}

/** `{base}/markets`: the base URL's path with any trailing slash removed, plus `/markets`. */
export function marketsUrl(base: URL): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/markets`;
  url.search = '';
  url.hash = '';
  return url;
}

/** `{base}/markets/{id}` with the id percent-encoded as one path segment (RFC 3986 §3.3). */
export function singleUrl(base: URL, id: string): URL {
  const url = marketsUrl(base);
  url.pathname = `${url.pathname}/${encodeURIComponent(id)}`;
  return url;
}


