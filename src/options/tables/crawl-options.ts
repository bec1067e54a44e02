import { CRAWL_DEFAULTS, CRAWL_LIMITS } from '../../floor/crawl-limits.js';
import { REPORT_FORMATS } from '../../floor/vocabulary.js';
import { optionTable, type TableValues } from '../option-values.js';
import type { OptionSpec } from '../../floor/option-spec.js';
import { NETWORK_OPTIONS, REDACT_QUERY_OPTION } from './network-options.js';
import { BOOLEAN, choice, int, LIST, TEXT } from '../../floor/option-kind.js';

/** An integer option kind within the crawl's own limits (CRAWL_LIMITS: one definition for library and CLI). */
const limit = (name: keyof typeof CRAWL_LIMITS) => int(CRAWL_LIMITS[name][0], CRAWL_LIMITS[name][1]);

/** The crawl options shared by `check` and `record`: the deployment and how to crawl it (defaults from CRAWL_DEFAULTS, the crawl's one defaults object). */
export const CRAWL_OPTIONS = [
  { flag: 'base-url', feeds: 'baseUrl', env: ['MARKET_STUB_BASE_URL'], kind: { type: 'url' }, required: 'the deployment\'s base URL, whose GET {base}/markets is the list (--base-url https://api.example.com/v1)', describe: 'Base URL of the deployment; GET {base}/markets is the list. Its query (?api_key=…) is sent on every request to its origin, secret values never shown (docs/networks.md)', group: 'Deployment:' },
  { flag: 'header', env: ['MARKET_STUB_HEADER'], kind: { type: 'list', separator: '\n' }, secret: true, defaultText: 'none', describe: 'Header sent on every request to the --base-url origin only, "Name: value" (repeatable; the variable takes one per line); values never reach reports, logs or fixtures', group: 'Deployment:' },
  { flag: 'same-origin-only', feeds: 'sameOriginOnly', env: ['MARKET_STUB_SAME_ORIGIN_ONLY'], kind: BOOLEAN, default: false, describe: 'Refuse redirects and paging links to another origin (error) instead of following them without the --header values (warning)', group: 'Deployment:' },
  { flag: 'timeout-ms', feeds: 'timeoutMs', env: ['MARKET_STUB_TIMEOUT_MS'], kind: limit('timeoutMs'), default: CRAWL_DEFAULTS.timeoutMs, describe: 'Time limit per request, body included, ms; an answer past it stops the run (exit 2) naming this flag', group: 'Deployment:' },
  { flag: 'max-body-mb', feeds: 'maxBodyMb', env: ['MARKET_STUB_MAX_BODY_MB'], kind: limit('maxBodyMb'), default: CRAWL_DEFAULTS.maxBodyMb, describe: 'Largest response body, decompressed, MiB: a larger list stops the check (exit 2), a larger market is an error', group: 'Deployment:' },
  { flag: 'max-market-bytes', feeds: 'maxMarketBytes', env: ['MARKET_STUB_MAX_MARKET_BYTES'], kind: limit('maxMarketBytes'), default: CRAWL_DEFAULTS.maxMarketBytes, describe: 'Largest single-market body, decompressed, bytes: a larger one stops the run (exit 2) naming this flag, read no further; at most 64 MiB of market bodies are read at once (fewer requests in flight when --concurrency × this would pass it)', group: 'Deployment:' },
  { flag: 'retries', feeds: 'retries', env: ['MARKET_STUB_RETRIES'], kind: limit('retries'), default: CRAWL_DEFAULTS.retries, describe: 'Retries of a 503 answer per request, honouring Retry-After; of a 429 once the pace is down to one request at a time', group: 'Deployment:' },
  { flag: 'retry-after-max-ms', feeds: 'retryAfterMaxMs', env: ['MARKET_STUB_RETRY_AFTER_MAX_MS'], kind: limit('retryAfterMaxMs'), default: CRAWL_DEFAULTS.retryAfterMaxMs, describe: 'Longest Retry-After (or rate-limit reset) waited for, ms; a longer one ends the retries', group: 'Deployment:' },
  { flag: 'max-markets', feeds: 'maxMarkets', env: ['MARKET_STUB_MAX_MARKETS'], kind: limit('maxMarkets'), default: CRAWL_DEFAULTS.maxMarkets, describe: 'Listed markets to request one by one, spread over the list', group: 'Crawl:' },
  { flag: 'all', feeds: 'all', env: ['MARKET_STUB_ALL'], kind: BOOLEAN, default: false, describe: 'Request every listed market (overrides --max-markets)', group: 'Crawl:' },
  { flag: 'concurrency', feeds: 'concurrency', env: ['MARKET_STUB_CONCURRENCY'], kind: limit('concurrency'), default: CRAWL_DEFAULTS.concurrency, describe: 'Requests (and keep-alive connections) in flight at once', group: 'Crawl:' },
  { flag: 'max-pages', feeds: 'maxPages', env: ['MARKET_STUB_MAX_PAGES'], kind: limit('maxPages'), default: CRAWL_DEFAULTS.maxPages, describe: 'List pages followed at most; a list with more stops the run (exit 2) naming this flag', group: 'Crawl:' },
] as const satisfies readonly OptionSpec[];

/** --strict: warnings fail the run too (check, record, proxy). */
export const STRICT_OPTION = { flag: 'strict', feeds: 'strict', env: ['MARKET_STUB_STRICT'], kind: BOOLEAN, default: false, describe: 'Warnings fail the check too (exit 1)', group: 'Report:' } as const satisfies OptionSpec;
/** --format: the report format (check, record, proxy). */
export const FORMAT_OPTION = { flag: 'format', env: ['MARKET_STUB_FORMAT'], kind: choice(...REPORT_FORMATS), default: 'text', describe: 'Report format', group: 'Report:' } as const satisfies OptionSpec;
/** --report FORMAT:PATH: more report files of the same run (check, record, proxy). */
export const REPORT_FILES_OPTION = { flag: 'report', env: ['MARKET_STUB_REPORT'], kind: LIST, defaultText: 'none', describe: `Also write the report as FORMAT to PATH (atomically), FORMAT:PATH with FORMAT one of ${REPORT_FORMATS.join(', ')} (repeatable; the variable takes a comma-separated list; docs/reports.md)`, group: 'Report:' } as const satisfies OptionSpec;

/** The report options shared by `check` and `record` (`proxy` takes --format, --report and --strict from here too). */
export const REPORT_OPTIONS = [
  { flag: 'slow-ms', feeds: 'slowMs', env: ['MARKET_STUB_SLOW_MS'], kind: limit('slowMs'), default: CRAWL_DEFAULTS.slowMs, describe: 'A single-market answer slower than this, ms, is a warning (slow-answer)', group: 'Report:' },
  { flag: 'today', feeds: 'today', env: ['MARKET_STUB_TODAY'], kind: { type: 'date' }, defaultText: 'the deployment\'s Date header, else today (UTC)', describe: 'The day an active market\'s resolution_date may not be before (past-resolution-date), YYYY-MM-DD', group: 'Report:' },
  STRICT_OPTION,
  FORMAT_OPTION,
  { flag: 'output', env: ['MARKET_STUB_OUTPUT'], kind: { type: 'path' }, defaultText: 'stdout', describe: 'Write the report to this file (atomically) instead of stdout', group: 'Report:' },
  REPORT_FILES_OPTION,
] as const satisfies readonly OptionSpec[];

const CHECK_ROWS = [...CRAWL_OPTIONS, ...REPORT_OPTIONS, ...NETWORK_OPTIONS, REDACT_QUERY_OPTION] as const;

/** The crawlDeployment options check's and record's rows feed (each held to a key of CrawlOptions where they are read: run-check.ts). */
export type CrawlFeeds = Extract<(typeof CHECK_ROWS)[number], { feeds: string }>['feeds'];

/** The options every crawl command reads (check's without the watch, record's without its output). */
export const CRAWL_COMMAND_OPTIONS = optionTable(CHECK_ROWS);

/** Resolved crawl, report and network options, as `check` and `record` both have them. */
export type CrawlValues = TableValues<typeof CRAWL_COMMAND_OPTIONS>;

/** `check --watch`: rounds, their bounds, the state between runs and the metrics (docs/contract-check.md, "Watching a deployment"). */
export const WATCH_OPTIONS = [
  { flag: 'watch', env: ['MARKET_STUB_WATCH'], kind: TEXT, defaultText: 'one crawl', describe: 'Crawl again every INTERVAL (30s, 5m, 1h) and report what changes over time; every other option keeps its meaning', group: 'Watch:' },
  { flag: 'rounds', env: ['MARKET_STUB_ROUNDS'], kind: int(1, 1_000_000), defaultText: 'until --for, SIGINT or SIGTERM', describe: 'Rounds of --watch to take in this run', group: 'Watch:' },
  { flag: 'for', env: ['MARKET_STUB_FOR'], kind: TEXT, defaultText: 'until --rounds, SIGINT or SIGTERM', describe: 'No --watch round starts after this long (10m, 2h)', group: 'Watch:' },
  { flag: 'state', env: ['MARKET_STUB_STATE'], kind: { type: 'path' }, defaultText: 'none', describe: 'Carry the watch between runs in this file (read at the start, written atomically after each round): a scheduled --rounds 1 compares with its last run', group: 'Watch:' },
  { flag: 'metrics-file', env: ['MARKET_STUB_METRICS_FILE'], kind: { type: 'path' }, defaultText: 'none', describe: 'Write the watch\'s metrics after each round to this file, atomically, in the Prometheus text format (node_exporter\'s textfile collector: a .prom file)', group: 'Watch:' },
  { flag: 'metrics-port', env: ['MARKET_STUB_METRICS_PORT'], kind: int(0, 65_535), defaultText: 'none', describe: 'Serve the watch\'s metrics at http://HOST:PORT/metrics while it runs, OpenMetrics to a scraper that asks for it (0: any free port, said on stderr)', group: 'Watch:' },
  { flag: 'metrics-host', env: ['MARKET_STUB_METRICS_HOST'], kind: TEXT, default: '127.0.0.1', describe: 'Address --metrics-port listens on (0.0.0.0 in a container scraped from outside)', group: 'Watch:' },
] as const satisfies readonly OptionSpec[];

/** `market-stub check`'s options: the crawl, the report, the network, the watch. */
export const CHECK_OPTIONS = optionTable([...CHECK_ROWS, ...WATCH_OPTIONS]);

/** Resolved options of `check`: the crawl's, the report's, the network's and the watch's. */
export type CheckValues = TableValues<typeof CHECK_OPTIONS>;

/** `record`'s options: those of `check`, plus where to write. */
export const RECORD_OPTIONS = optionTable([
  ...CHECK_ROWS,
  { flag: 'out', env: ['MARKET_STUB_OUT'], kind: { type: 'path' }, required: 'the fixture directory to write (--out fixtures/recorded)', describe: 'Fixture directory to write (DIR/markets.json); switched to the new set atomically', group: 'Output:' },
  { flag: 'keep-invalid', env: ['MARKET_STUB_KEEP_INVALID'], kind: BOOLEAN, default: false, describe: 'Also write the invalid answers, apart, to DIR/invalid/responses.json (serve never reads it)', group: 'Output:' },
]);

export type RecordValues = TableValues<typeof RECORD_OPTIONS>;
