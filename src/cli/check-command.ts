import { CRAWL_DEFAULTS, CRAWL_LIMITS } from '../core/crawl-limits.js';
import { REPORT_FORMATS } from '../core/vocabulary.js';
import type { OptionKind } from '../core/option-kind.js';
import type { OptionSpec } from '../options/resolve-options.js';
import type { CommandSpec } from './command-spec.js';
import { NETWORK_OPTIONS, REDACT_QUERY_OPTION } from './network-flags.js';

/** An integer option kind within the crawl's own limits (CRAWL_LIMITS: one definition for library and CLI). */
const limit = (name: keyof typeof CRAWL_LIMITS): OptionKind => ({ type: 'integer', min: CRAWL_LIMITS[name][0], max: CRAWL_LIMITS[name][1] });
const BOOLEAN = { type: 'boolean' } as const;

/** The crawl options shared by `check` and `record`, as data (defaults from CRAWL_DEFAULTS, the crawl's one defaults object). */
export const CRAWL_OPTIONS: readonly OptionSpec[] = [
  { flag: 'base-url', env: ['MARKET_STUB_BASE_URL'], kind: { type: 'url' }, required: 'the deployment\'s base URL, whose GET {base}/markets is the list (--base-url https://api.example.com/v1)', describe: 'Base URL of the deployment; GET {base}/markets is the list', group: 'Deployment:' },
  { flag: 'header', env: ['MARKET_STUB_HEADER'], kind: { type: 'list', separator: '\n' }, secret: true, defaultText: 'none', describe: 'Header sent on every request to the --base-url origin only, "Name: value" (repeatable; the variable takes one per line); values never reach reports, logs or fixtures', group: 'Deployment:' },
  { flag: 'same-origin-only', env: ['MARKET_STUB_SAME_ORIGIN_ONLY'], kind: BOOLEAN, default: false, describe: 'Refuse redirects and paging links to another origin (error) instead of following them without the --header values (warning)', group: 'Deployment:' },
  { flag: 'timeout-ms', env: ['MARKET_STUB_TIMEOUT_MS'], kind: limit('timeoutMs'), default: CRAWL_DEFAULTS.timeoutMs, describe: 'Time limit per request, body included, ms', group: 'Deployment:' },
  { flag: 'max-body-mb', env: ['MARKET_STUB_MAX_BODY_MB'], kind: limit('maxBodyMb'), default: CRAWL_DEFAULTS.maxBodyMb, describe: 'Largest response body, decompressed, MiB: a larger list stops the check (exit 2), a larger market is an error', group: 'Deployment:' },
  { flag: 'retries', env: ['MARKET_STUB_RETRIES'], kind: limit('retries'), default: CRAWL_DEFAULTS.retries, describe: 'Retries of a 429/503 answer per request, honouring Retry-After', group: 'Deployment:' },
  { flag: 'retry-after-max-ms', env: ['MARKET_STUB_RETRY_AFTER_MAX_MS'], kind: limit('retryAfterMaxMs'), default: CRAWL_DEFAULTS.retryAfterMaxMs, describe: 'Longest Retry-After waited for, ms; a longer one ends the retries', group: 'Deployment:' },
  { flag: 'max-markets', env: ['MARKET_STUB_MAX_MARKETS'], kind: limit('maxMarkets'), default: CRAWL_DEFAULTS.maxMarkets, describe: 'Listed markets to request one by one, spread over the list', group: 'Crawl:' },
  { flag: 'all', env: ['MARKET_STUB_ALL'], kind: BOOLEAN, default: false, describe: 'Request every listed market (overrides --max-markets)', group: 'Crawl:' },
  { flag: 'concurrency', env: ['MARKET_STUB_CONCURRENCY'], kind: limit('concurrency'), default: CRAWL_DEFAULTS.concurrency, describe: 'Requests (and keep-alive connections) in flight at once', group: 'Crawl:' },
  { flag: 'max-pages', env: ['MARKET_STUB_MAX_PAGES'], kind: limit('maxPages'), default: CRAWL_DEFAULTS.maxPages, describe: 'List pages followed at most; stopping there is a warning', group: 'Crawl:' },
  { flag: 'slow-ms', env: ['MARKET_STUB_SLOW_MS'], kind: limit('slowMs'), default: CRAWL_DEFAULTS.slowMs, describe: 'A single-market answer slower than this, ms, is a warning (slow-answer)', group: 'Report:' },
  { flag: 'today', env: ['MARKET_STUB_TODAY'], kind: { type: 'date' }, defaultText: 'the deployment\'s Date header, else today (UTC)', describe: 'The day an active market\'s resolution_date may not be before (past-resolution-date), YYYY-MM-DD', group: 'Report:' },
  { flag: 'strict', env: ['MARKET_STUB_STRICT'], kind: BOOLEAN, default: false, describe: 'Warnings fail the check too (exit 1)', group: 'Report:' },
  { flag: 'format', env: ['MARKET_STUB_FORMAT'], kind: { type: 'choice', choices: REPORT_FORMATS }, default: 'text', describe: 'Report format', group: 'Report:' },
  { flag: 'output', env: ['MARKET_STUB_OUTPUT'], kind: { type: 'path' }, defaultText: 'stdout', describe: 'Write the report to this file (atomically) instead of stdout', group: 'Report:' },
  { flag: 'report', env: ['MARKET_STUB_REPORT'], kind: { type: 'list', separator: ',' }, defaultText: 'none', describe: `Also write the report as FORMAT to PATH (atomically), FORMAT:PATH with FORMAT one of ${REPORT_FORMATS.join(', ')} (repeatable; the variable takes a comma-separated list; docs/reports.md)`, group: 'Report:' },
  ...NETWORK_OPTIONS,
  REDACT_QUERY_OPTION,
];

export const checkCommand: CommandSpec = {
  name: 'check',
  describe: 'Check a real deployment against the contract (exit 0 pass, 1 errors found, 2 could not run)',
  options: CRAWL_OPTIONS,
  examples: [
    ['$0 check --base-url http://127.0.0.1:4010', 'the list and 50 markets, text report'],
    ['MARKET_STUB_HEADER="Authorization: Bearer $TOKEN" $0 check --base-url https://api.example.com/v1 --all --format junit --output check.xml', 'every market, JUnit XML for CI; the token stays out of the process list'],
    ['$0 check --base-url http://127.0.0.1:4010 --report junit:check.xml --report html:check.html --report markdown:check.md', 'the text report on stdout, and JUnit, HTML and markdown files from the same run'],
  ],
  // The crawl, the checks and the report formats load only when `check` runs.
  load: async () => ({ run: (await import('./run-check.js')).runCheck }),
};

