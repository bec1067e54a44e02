import { TRANSPORT_FAULTS, type Behaviour } from '../../behaviour/behaviour.js';
import { DEFAULT_GRACE_MS, DEFAULT_JOURNAL_BYTES, MAX_DELAY_MS, MAX_GRACE_MS } from '../../floor/limits.js';
// A row that feeds a library option takes that option's kind from the library's table: one home for its bounds.
import { CATALOG_FIELDS } from '../../catalog/catalog-options.js';
import { RUNTIME_FIELDS } from '../../runtime/runtime-options.js';
import { PROFILE_FIELDS } from '../../runtime/response-profile.js';
import { optionTable, type TableValues } from '../option-values.js';
import type { OptionSpec } from '../resolve-options.js';
import { BOOLEAN, choice, int, LIST } from '../../floor/option-kind.js';


/** The config file `serve` reads from the working directory when neither --config nor MARKET_STUB_CONFIG names one. */
export const CONFIG_FILE_NAME = 'market-stub.config.json';

/**
 * The serve options that set the global behaviour, by Behaviour field: one table for
 * composeServeConfig and the `Behaviour` of the config file's JSON Schema.
 */
export const BEHAVIOUR_OPTIONS = {
  delayMs: 'delay',
  jitterMs: 'jitter',
  status: 'status',
  retryAfter: 'retryAfter',
  errorRate: 'errorRate',
  fault: 'fault',
} as const satisfies Readonly<Record<keyof Omit<Behaviour, 'dribbleMs'>, keyof ServeValues>>;

const env = (name: string) => [`MARKET_STUB_${name}`];
const SERVER = 'Server:';
const DATA = 'Data:';
const PROFILE = 'Response profile:';
const BEHAVIOUR = 'Behaviours (every market request):';
const CONTROL = 'Runtime control:';
const DEVIATIONS = 'Deviations (contract drift on demand):';

/** The catalog options `serve` and `generate` share (same flags and variables): seed, count and clock. */
const SEED_OPTION = { flag: 'seed', feeds: 'seed', env: env('SEED'), kind: CATALOG_FIELDS.seed, default: 1, describe: 'Seed of the generated catalog, ticks, jitter and error rates', group: DATA } as const;
const COUNT_OPTION = { flag: 'count', feeds: 'count', env: env('COUNT'), kind: CATALOG_FIELDS.count, default: 100, describe: 'Number of generated markets', group: DATA } as const;
const CLOCK_OPTION = { flag: 'clock', feeds: 'clock', env: env('CLOCK'), kind: { type: 'date' }, defaultText: 'today (UTC)', describe: 'Clock date YYYY-MM-DD (UTC); resolution dates fall 1–730 days after it', group: DATA } as const;
/** seed, count, clock as `generate` lists them (under `Catalog:`). */
export const CATALOG_OPTIONS = [SEED_OPTION, COUNT_OPTION, CLOCK_OPTION].map((o) => ({ ...o, group: 'Catalog:' }));

/** The rows of SERVE_OPTIONS, kept literal so that each `feeds` is checked against the library's options (ServeFeeds). */
const SERVE_ROWS = [
  { flag: 'config', env: env('CONFIG'), kind: { type: 'path' }, cliOnly: true, defaultText: `${CONFIG_FILE_NAME} in the working directory, when there is one`, describe: 'JSON config file with any serve option and inline behaviour rules (schemas/config.schema.json); flags and variables override it', group: SERVER },
  { flag: 'print-config', kind: BOOLEAN, cliOnly: true, default: false, describe: 'Print the resolved configuration and where each value came from (secrets not shown), then exit without serving', group: SERVER },
  { flag: 'port', feeds: 'port', env: ['MARKET_STUB_PORT', 'PORT'], kind: int(0, 65_535), default: 4010, describe: 'TCP port to listen on; 0 picks a free port', group: SERVER },
  { flag: 'host', feeds: 'host', env: ['MARKET_STUB_HOST', 'HOST'], kind: { type: 'string' }, default: '127.0.0.1', describe: 'Interface address to bind (0.0.0.0 in containers)', group: SERVER },
  { flag: 'quiet', env: env('QUIET'), kind: BOOLEAN, default: false, describe: 'No request log lines (the ready line stays)', group: SERVER },
  { flag: 'log-format', env: env('LOG_FORMAT'), kind: choice('auto', 'text', 'json'), default: 'auto', describe: 'Request log lines: text, json (pino NDJSON), or auto: text on a terminal, json when piped', group: SERVER },
  { flag: 'cors', feeds: 'cors', env: env('CORS'), kind: choice('on', 'off'), default: 'on', describe: 'Access-Control-Allow-Origin: * and preflight answers', group: SERVER },
  { flag: 'fixtures', feeds: 'fixtures', env: env('FIXTURES'), kind: { type: 'path' }, defaultText: 'none: generated markets', describe: 'Serve the markets in this JSON file or directory of JSON files instead of generated ones', group: DATA },
  { flag: 'watch', feeds: 'watch', env: env('WATCH'), kind: BOOLEAN, default: false, describe: 'With --fixtures: reload on change (invalid changes are logged, old data kept)', group: DATA },
  SEED_OPTION,
  COUNT_OPTION,
  CLOCK_OPTION,
  { flag: 'envelope', env: env('ENVELOPE'), kind: { type: 'string' }, default: 'bare', describe: 'List shape: "bare" array, or the key of an envelope object ("markets", "data")', group: PROFILE },
  { flag: 'paging', env: env('PAGING'), kind: PROFILE_FIELDS.paging, default: 'none', describe: 'List paging: none, offset (limit+offset), cursor (limit+cursor, next_cursor / Link)', group: PROFILE },
  { flag: 'page-size', env: env('PAGE_SIZE'), kind: PROFILE_FIELDS.pageSize, default: 100, describe: 'Page size when no limit is sent', group: PROFILE },
  { flag: 'max-page-size', env: env('MAX_PAGE_SIZE'), kind: PROFILE_FIELDS.maxPageSize, default: 1000, describe: 'Largest limit (larger ones are clamped)', group: PROFILE },
  { flag: 'errors', env: env('ERRORS'), kind: PROFILE_FIELDS.errors, default: 'default', describe: 'Error body: default, problem (RFC 9457), error-object ({"error":{code,message}})', group: PROFILE },
  { flag: 'filter-status', env: env('FILTER_STATUS'), kind: BOOLEAN, default: false, describe: 'Filter GET /markets by ?status=', group: PROFILE },
  { flag: 'delay', env: env('DELAY'), kind: int(0, MAX_DELAY_MS), defaultText: '0', describe: 'Fixed delay before every market response, ms', group: BEHAVIOUR },
  { flag: 'jitter', env: env('JITTER'), kind: int(0, MAX_DELAY_MS), defaultText: '0', describe: 'Extra seeded random delay in [0, N) ms', group: BEHAVIOUR },
  { flag: 'status', env: env('STATUS'), kind: int(200, 599), defaultText: 'none', describe: 'Answer every market request with this status (a JSON error body from 400; 1xx are not final answers)', group: BEHAVIOUR },
  { flag: 'error-rate', env: env('ERROR_RATE'), kind: { type: 'number', min: 0, max: 1 }, defaultText: '0', describe: 'Seeded share of market requests (0–1) answered with --status (default 500)', group: BEHAVIOUR },
  { flag: 'retry-after', env: env('RETRY_AFTER'), kind: int(0, 86_400), defaultText: '1 for 429', describe: 'Retry-After seconds sent with 429/503', group: BEHAVIOUR },
  { flag: 'fault', env: env('FAULT'), kind: choice(...TRANSPORT_FAULTS), defaultText: 'none', describe: 'Transport fault on every market response', group: BEHAVIOUR },
  { flag: 'deviation', env: env('DEVIATION'), kind: LIST, defaultText: 'none', describe: 'Serve a deviation from the contract: NAME (every market; a list deviation such as list-500 changes the whole list) or NAME=RATE (a seeded share of markets, 0–1), e.g. string-price=0.1; repeat or comma-separate; the README and GET /__stub/deviations list every name', group: DEVIATIONS },
  { flag: 'behaviours', env: env('BEHAVIOURS'), kind: { type: 'path' }, defaultText: 'none', describe: 'JSON file: an array of rules {match:{route?,marketId?,method?}, behaviour:{…}, times?}', group: BEHAVIOUR },
  { flag: 'admin', feeds: 'admin', env: env('ADMIN'), kind: choice('on', 'off'), default: 'on', describe: 'The admin API under /__stub', group: CONTROL },
  { flag: 'admin-token', feeds: 'adminToken', env: env('ADMIN_TOKEN'), kind: { type: 'token' }, secret: true, defaultText: 'none', describe: 'Require Authorization: Bearer TOKEN on the admin API (printable ASCII, no space at either end)', group: CONTROL },
  { flag: 'journal-size', feeds: 'journalSize', env: env('JOURNAL_SIZE'), kind: RUNTIME_FIELDS.journalSize, default: 1000, describe: 'Requests kept in the journal (ring buffer)', group: CONTROL },
  { flag: 'journal-bytes', feeds: 'journalBytes', env: env('JOURNAL_BYTES'), kind: RUNTIME_FIELDS.journalBytes, default: DEFAULT_JOURNAL_BYTES, describe: 'Bytes the journal holds at most (oldest entries dropped first)', group: CONTROL },
  { flag: 'journal-headers', feeds: 'journalHeaders', env: env('JOURNAL_HEADERS'), kind: choice('redacted', 'full'), default: 'redacted', describe: 'Journal secret header and query values (Authorization, Cookie, X-Api-Key, token=…: docs/networks.md) as [redacted], or in full', group: CONTROL },
  { flag: 'redact-header', feeds: 'redactHeaders', key: 'redactHeaders', env: env('REDACT_HEADER'), kind: LIST, defaultText: 'the default list', describe: 'Also redact this request header\'s values in the journal (repeat or comma-separate); adds to Authorization, Cookie, X-Api-Key, X-Auth-Token… (docs/networks.md)', group: CONTROL },
  { flag: 'redact-query', feeds: 'redactQuery', env: env('REDACT_QUERY'), kind: LIST, defaultText: 'the default list', describe: 'Also redact this query parameter\'s values in the journal and request log (repeat or comma-separate); adds to token, access_token, api_key, signature… (docs/networks.md)', group: CONTROL },
  { flag: 'allowed-hosts', feeds: 'allowedHosts', env: env('ALLOWED_HOSTS'), kind: LIST, defaultText: 'none', describe: 'Host names the admin API accepts besides IP addresses and localhost (DNS-rebinding defence): NAME, .DOMAIN, or * for any; repeat or comma-separate', group: CONTROL },
  { flag: 'shutdown-grace', feeds: 'shutdownGraceMs', env: env('SHUTDOWN_GRACE'), kind: int(0, MAX_GRACE_MS), default: DEFAULT_GRACE_MS, describe: 'On SIGTERM/SIGINT, ms that requests already received get to finish before a 503', group: SERVER },
] as const satisfies readonly OptionSpec[];

/** `market-stub serve`'s options as data: flag, environment variables, kind, default, help, and the library option each feeds. */
export const SERVE_OPTIONS = optionTable(SERVE_ROWS);

/** The library options serve's rows feed (`feeds`): options/launch-options.ts holds each to a key of MarketStubOptions. */
export type ServeFeeds = Extract<(typeof SERVE_ROWS)[number], { feeds: string }>['feeds'];

/** Resolved `serve` options, typed from SERVE_OPTIONS (`values.port` is a number, `values.paging` one of its choices). */
export type ServeValues = TableValues<typeof SERVE_OPTIONS>;
