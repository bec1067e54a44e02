import { TRANSPORT_FAULTS, type Behaviour } from '../../behaviour/behaviour.js';
import { MAX_DELAY_MS } from '../../floor/limits.js';
import { SERVE_GROUPS, type OptionSpec, type ServeFlag, type ServeGroup } from '../../floor/option-spec.js';
import type { FieldRule } from '../../floor/option-fields.js';
import { BOOLEAN, choice, int, LIST, type OptionKind } from '../../floor/option-kind.js';
// An option the library also takes is written beside its library field (its ServeFlag): one home for its kind, bounds, default and help.
import { RUNTIME_FIELDS, RUNTIME_SERVE_FLAGS } from '../../runtime/runtime-options.js';
import { PROFILE_FIELDS } from '../../runtime/response-profile.js';
import { CATALOG_SERVE_FLAGS, STUB_FIELDS, STUB_SERVE_FLAGS } from '../../stub-options.js';
import { optionTable, type TableValues } from '../option-values.js';


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
const { server: SERVER, profile: PROFILE, behaviour: BEHAVIOUR, deviations: DEVIATIONS, control: CONTROL } = SERVE_GROUPS;

/** A serve row made from a library option's ServeFlag: it feeds that option, and reads the flag's kind or else the option's own. */
type FedRow<K extends string, F, R> = Omit<F, 'kind'> & { readonly feeds: K; readonly kind: F extends { readonly kind: infer X extends OptionKind } ? X : Extract<R, OptionKind> };

/** The serve rows of a table of ServeFlags, typed as literals (each keeps its flag, kind and default). */
type FedRows<F, R> = { [K in keyof F & string]: FedRow<K, F[K], K extends keyof R ? R[K] : never> }[keyof F & string];

/**
 * The serve rows of a library's flags (STUB_SERVE_FLAGS, RUNTIME_SERVE_FLAGS): each `feeds` its
 * key; its kind is the flag's, or else the library field's own (`fields`). A field whose check is
 * a function (a structured value) must give its flag a kind, or this does not compile.
 */
export function serveRowsOf<const F extends Readonly<Record<string, ServeFlag>>, R extends { readonly [K in keyof F]: F[K] extends { readonly kind: OptionKind } ? FieldRule : OptionKind }>(flags: F, fields: R): FedRows<F, R>[] {
  return Object.entries(flags).map(([key, flag]) => ({ ...flag, feeds: key, kind: flag.kind ?? fields[key] })) as FedRows<F, R>[];
}

/** seed, count, clock as `generate` lists them (under `Catalog:`), the same flags and variables as serve's. */
export const CATALOG_OPTIONS = serveRowsOf(CATALOG_SERVE_FLAGS, STUB_FIELDS).map((row) => ({ ...row, group: 'Catalog:' }));

/** Rows in the order of SERVE_GROUPS (a stable sort: within a heading, the order they were given in). */
function inHelpOrder<T extends { readonly group?: string }>(rows: readonly T[]): T[] {
  const order: readonly string[] = Object.values(SERVE_GROUPS);
  return [...rows].sort((a, b) => order.indexOf(a.group ?? '') - order.indexOf(b.group ?? ''));
}

/**
 * `--ready-file PATH`: once listening, the ready record (src/cli/ready-record.ts) is written there
 * atomically and removed at the stop; the one thing a launcher reads to learn the URL (serve and proxy).
 */
export const READY_FILE_OPTION = { flag: 'ready-file', kind: { type: 'path' }, cliOnly: true, defaultText: 'none', describe: 'Once listening, write {"marketStub":"ready","command","url","pid"} to this file atomically (for scripts that start and wait; removed at the stop)', group: SERVER } as const;

/** serve's own rows: what the library does not take (`--config`, `--quiet`), or takes composed (the profile, behaviour, rules, deviations). */
const OWN_ROWS = [
  { flag: 'config', env: env('CONFIG'), kind: { type: 'path' }, cliOnly: true, defaultText: `${CONFIG_FILE_NAME} in the working directory, when there is one`, describe: 'JSON config file with any serve option and inline behaviour rules (schemas/config.schema.json); flags and variables override it', group: SERVER },
  { flag: 'print-config', kind: BOOLEAN, cliOnly: true, default: false, describe: 'Print the resolved configuration and where each value came from (secrets not shown), then exit without serving', group: SERVER },
  READY_FILE_OPTION,
  { flag: 'quiet', env: env('QUIET'), kind: BOOLEAN, default: false, describe: 'No request log lines (the ready line stays)', group: SERVER },
  { flag: 'log-format', env: env('LOG_FORMAT'), kind: choice('auto', 'text', 'json'), default: 'auto', describe: 'Request log lines: text, json (pino NDJSON), or auto: text on a terminal, json when piped', group: SERVER },
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
  { flag: 'deviation', env: env('DEVIATION'), kind: LIST, defaultText: 'none', describe: 'Serve a deviation from the contract: NAME (every market; a list deviation such as list-500 changes the whole list) or NAME=RATE (a seeded share of markets, 0–1), e.g. string-price=0.1; repeat or comma-separate; docs/deviations.md and GET /__stub/deviations list every name', group: DEVIATIONS },
  { flag: 'mcp-http', env: env('MCP_HTTP'), kind: choice('on', 'off'), default: 'off', describe: 'Also serve the Model Context Protocol over Streamable HTTP at POST /__stub/mcp, behind the admin API\'s token and Host/Origin rules (docs/mcp.md#over-http); needs --admin on', group: CONTROL },
  { flag: 'behaviours', env: env('BEHAVIOURS'), kind: { type: 'path' }, defaultText: 'none', describe: 'JSON file: an array of rules {match:{route?,marketId?,method?}, behaviour:{…}, times?}', group: BEHAVIOUR },
] as const satisfies readonly (OptionSpec & { group: ServeGroup })[];

/**
 * Every row of serve, kept literal so that each `feeds` is checked against the library's options
 * (ServeFeeds): the library's flags (startMarketStub's, the catalog's, the runtime's), then serve's
 * own, sorted by heading (SERVE_GROUPS).
 */
export const SERVE_ROWS = inHelpOrder([...serveRowsOf(STUB_SERVE_FLAGS, STUB_FIELDS), ...serveRowsOf(RUNTIME_SERVE_FLAGS, RUNTIME_FIELDS), ...OWN_ROWS]);

/** `market-stub serve`'s options as data: flag, environment variables, kind, default, help, and the library option each feeds. */
export const SERVE_OPTIONS = optionTable(SERVE_ROWS);

/** The library options serve's rows feed (`feeds`): options/launch-options.ts holds each to a key of MarketStubOptions. */
export type ServeFeeds = Extract<(typeof SERVE_ROWS)[number], { feeds: string }>['feeds'];

/** Resolved `serve` options, typed from SERVE_OPTIONS (`values.port` is a number, `values.paging` one of its choices). */
export type ServeValues = TableValues<typeof SERVE_OPTIONS>;
