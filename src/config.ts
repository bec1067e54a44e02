import { readRegularFileBytesSync } from './core/read-regular-file.js';
import { readJsonBytes } from './core/bounded-json.js';
import { todayUtc } from './core/market-rules.js';
import { BehaviourError, checkBehaviour, createBehaviourEngine, TRANSPORT_FAULTS, type Behaviour, type BehaviourRuleInput } from './behaviour/behaviour.js';
import { MarketStubError } from './core/market-stub-error.js';
import { ERROR_SHAPES, PAGING_MODES, resolveProfile, type ResponseProfile } from './runtime/response-profile.js';
import { ConfigError, problem, resolveOptions, type OptionSpec, type ResolvedOptions } from './options/resolve-options.js';
import { MAX_COUNT } from './catalog/catalog-options.js';
import { MAX_JOURNAL_SIZE } from './runtime/runtime-options.js';
import { DEFAULT_JOURNAL_BYTES, MAX_JOURNAL_BYTES } from './journal/request-journal.js';
import { DEFAULT_GRACE_MS, MAX_GRACE_MS } from './http/server.js';
import { HOST_NAME } from './http/admin/admin-access.js';
import type { LogFormat } from './logger.js';
import { parseDeviationFlags, type DeviationSetting } from './deviation/deviation-settings.js';

/** Resolved, validated options of `market-stub serve`. */
export interface ServeConfig {
  readonly port: number;
  readonly host: string;
  /** Fixture file or directory; when set, the generated catalog options are ignored. */
  readonly fixtures: string | undefined;
  readonly watch: boolean;
  readonly seed: number;
  readonly count: number;
  /** YYYY-MM-DD (UTC). */
  readonly clock: string;
  readonly quiet: boolean;
  readonly logFormat: LogFormat | 'auto';
  readonly profile: ResponseProfile;
  /** Global behaviour for every market request. */
  readonly behaviour: Behaviour;
  /** Rules read from `--behaviours FILE`. */
  readonly rules: readonly BehaviourRuleInput[];
  /** Deviations from `--deviation NAME[=RATE]` (src/deviation). */
  readonly deviations: readonly DeviationSetting[];
  readonly admin: boolean;
  readonly adminToken: string | undefined;
  readonly journalSize: number;
  readonly journalBytes: number;
  readonly journalHeaders: 'redacted' | 'full';
  /** Header and query parameter names redacted besides the defaults (core/secret-names.ts). */
  readonly redactHeaders: readonly string[];
  readonly redactQuery: readonly string[];
  readonly allowedHosts: readonly string[];
  readonly shutdownGraceMs: number;
  readonly cors: boolean;
  /** Where each option's value came from: `--port`, `MARKET_STUB_PORT`, `default`. */
  readonly origins: Readonly<Record<string, string>>;
}

export { ConfigError } from './options/resolve-options.js';

/** Largest delay or jitter, ms (10 minutes). */
export const MAX_DELAY_MS = 600_000;

/** The config file `serve` reads from the working directory when neither --config nor MARKET_STUB_CONFIG names one. */
export const CONFIG_FILE_NAME = 'market-stub.config.json';

/**
 * The serve options that set the global behaviour, by Behaviour field: one table for
 * composeServeConfig and the `Behaviour` of the config file's JSON Schema.
 */
export const BEHAVIOUR_OPTIONS: Readonly<Record<string, string>> = {
  delayMs: 'delay',
  jitterMs: 'jitter',
  status: 'status',
  retryAfter: 'retryAfter',
  errorRate: 'errorRate',
  fault: 'fault',
};

const env = (name: string) => [`MARKET_STUB_${name}`];
const SERVER = 'Server:';
const DATA = 'Data:';
const PROFILE = 'Response profile:';
const BEHAVIOUR = 'Behaviours (every market request):';
const CONTROL = 'Runtime control:';
const DEVIATIONS = 'Deviations (contract drift on demand):';
const int = (min: number, max: number) => ({ type: 'integer', min, max }) as const;
const choice = (...choices: string[]) => ({ type: 'choice', choices }) as const;
const BOOLEAN = { type: 'boolean' } as const;

/** `market-stub serve`'s options as data: flag, environment variables, kind, default, help. */
export const SERVE_OPTIONS: readonly OptionSpec[] = [
  { flag: 'config', env: env('CONFIG'), kind: { type: 'path' }, cliOnly: true, defaultText: `${CONFIG_FILE_NAME} in the working directory, when there is one`, describe: 'JSON config file with any serve option and inline behaviour rules (schemas/config.schema.json); flags and variables override it', group: SERVER },
  { flag: 'print-config', kind: BOOLEAN, cliOnly: true, default: false, describe: 'Print the resolved configuration and where each value came from (secrets not shown), then exit without serving', group: SERVER },
  { flag: 'port', env: ['MARKET_STUB_PORT', 'PORT'], kind: int(0, 65_535), default: 4010, describe: 'TCP port to listen on; 0 picks a free port', group: SERVER },
  { flag: 'host', env: ['MARKET_STUB_HOST', 'HOST'], kind: { type: 'string' }, default: '127.0.0.1', describe: 'Interface address to bind (0.0.0.0 in containers)', group: SERVER },
  { flag: 'quiet', env: env('QUIET'), kind: BOOLEAN, default: false, describe: 'No request log lines (the ready line stays)', group: SERVER },
  { flag: 'log-format', env: env('LOG_FORMAT'), kind: choice('auto', 'text', 'json'), default: 'auto', describe: 'Request log lines: text, json (pino NDJSON), or auto: text on a terminal, json when piped', group: SERVER },
  { flag: 'cors', env: env('CORS'), kind: choice('on', 'off'), default: 'on', describe: 'Access-Control-Allow-Origin: * and preflight answers', group: SERVER },
  { flag: 'fixtures', env: env('FIXTURES'), kind: { type: 'path' }, defaultText: 'none: generated markets', describe: 'Serve the markets in this JSON file or directory of JSON files instead of generated ones', group: DATA },
  { flag: 'watch', env: env('WATCH'), kind: BOOLEAN, default: false, describe: 'With --fixtures: reload on change (invalid changes are logged, old data kept)', group: DATA },
  { flag: 'seed', env: env('SEED'), kind: int(0, Number.MAX_SAFE_INTEGER), default: 1, describe: 'Seed of the generated catalog, ticks, jitter and error rates', group: DATA },
  { flag: 'count', env: env('COUNT'), kind: int(0, MAX_COUNT), default: 100, describe: 'Number of generated markets', group: DATA },
  { flag: 'clock', env: env('CLOCK'), kind: { type: 'date' }, defaultText: 'today (UTC)', describe: 'Clock date YYYY-MM-DD (UTC); resolution dates fall 1–730 days after it', group: DATA },
  { flag: 'envelope', env: env('ENVELOPE'), kind: { type: 'string' }, default: 'bare', describe: 'List shape: "bare" array, or the key of an envelope object ("markets", "data")', group: PROFILE },
  { flag: 'paging', env: env('PAGING'), kind: choice(...PAGING_MODES), default: 'none', describe: 'List paging: none, offset (limit+offset), cursor (limit+cursor, next_cursor / Link)', group: PROFILE },
  { flag: 'page-size', env: env('PAGE_SIZE'), kind: int(1, 1_000_000), default: 100, describe: 'Page size when no limit is sent', group: PROFILE },
  { flag: 'max-page-size', env: env('MAX_PAGE_SIZE'), kind: int(1, 1_000_000), default: 1000, describe: 'Largest limit (larger ones are clamped)', group: PROFILE },
  { flag: 'errors', env: env('ERRORS'), kind: choice(...ERROR_SHAPES), default: 'default', describe: 'Error body: default, problem (RFC 9457), error-object ({"error":{code,message}})', group: PROFILE },
  { flag: 'filter-status', env: env('FILTER_STATUS'), kind: BOOLEAN, default: false, describe: 'Filter GET /markets by ?status=', group: PROFILE },
  { flag: 'delay', env: env('DELAY'), kind: int(0, MAX_DELAY_MS), defaultText: '0', describe: 'Fixed delay before every market response, ms', group: BEHAVIOUR },
  { flag: 'jitter', env: env('JITTER'), kind: int(0, MAX_DELAY_MS), defaultText: '0', describe: 'Extra seeded random delay in [0, N) ms', group: BEHAVIOUR },
  { flag: 'status', env: env('STATUS'), kind: int(200, 599), defaultText: 'none', describe: 'Answer every market request with this status (a JSON error body from 400; 1xx are not final answers)', group: BEHAVIOUR },
  { flag: 'error-rate', env: env('ERROR_RATE'), kind: { type: 'number', min: 0, max: 1 }, defaultText: '0', describe: 'Seeded share of market requests (0–1) answered with --status (default 500)', group: BEHAVIOUR },
  { flag: 'retry-after', env: env('RETRY_AFTER'), kind: int(0, 86_400), defaultText: '1 for 429', describe: 'Retry-After seconds sent with 429/503', group: BEHAVIOUR },
  { flag: 'fault', env: env('FAULT'), kind: choice(...TRANSPORT_FAULTS), defaultText: 'none', describe: 'Transport fault on every market response', group: BEHAVIOUR },
  { flag: 'deviation', env: env('DEVIATION'), kind: { type: 'list', separator: ',' }, defaultText: 'none', describe: 'Serve a deviation from the contract: NAME (every market; a list deviation such as list-500 changes the whole list) or NAME=RATE (a seeded share of markets, 0–1), e.g. string-price=0.1; repeat or comma-separate; the README and GET /__stub/deviations list every name', group: DEVIATIONS },
  { flag: 'behaviours', env: env('BEHAVIOURS'), kind: { type: 'path' }, defaultText: 'none', describe: 'JSON file: an array of rules {match:{route?,marketId?,method?}, behaviour:{…}, times?}', group: BEHAVIOUR },
  { flag: 'admin', env: env('ADMIN'), kind: choice('on', 'off'), default: 'on', describe: 'The admin API under /__stub', group: CONTROL },
  { flag: 'admin-token', env: env('ADMIN_TOKEN'), kind: { type: 'string' }, secret: true, defaultText: 'none', describe: 'Require Authorization: Bearer TOKEN on the admin API', group: CONTROL },
  { flag: 'journal-size', env: env('JOURNAL_SIZE'), kind: int(0, MAX_JOURNAL_SIZE), default: 1000, describe: 'Requests kept in the journal (ring buffer)', group: CONTROL },
  { flag: 'journal-bytes', env: env('JOURNAL_BYTES'), kind: int(1024, MAX_JOURNAL_BYTES), default: DEFAULT_JOURNAL_BYTES, describe: 'Bytes the journal holds at most (oldest entries dropped first)', group: CONTROL },
  { flag: 'journal-headers', env: env('JOURNAL_HEADERS'), kind: choice('redacted', 'full'), default: 'redacted', describe: 'Journal secret header and query values (Authorization, Cookie, X-Api-Key, token=…: docs/networks.md) as [redacted], or in full', group: CONTROL },
  { flag: 'redact-header', key: 'redactHeaders', env: env('REDACT_HEADER'), kind: { type: 'list', separator: ',' }, defaultText: 'the default list', describe: 'Also redact this request header\'s values in the journal (repeat or comma-separate); adds to Authorization, Cookie, X-Api-Key, X-Auth-Token… (docs/networks.md)', group: CONTROL },
  { flag: 'redact-query', env: env('REDACT_QUERY'), kind: { type: 'list', separator: ',' }, defaultText: 'the default list', describe: 'Also redact this query parameter\'s values in the journal and request log (repeat or comma-separate); adds to token, access_token, api_key, signature… (docs/networks.md)', group: CONTROL },
  { flag: 'allowed-hosts', env: env('ALLOWED_HOSTS'), kind: { type: 'list', separator: ',' }, defaultText: 'none', describe: 'Host names the admin API accepts besides IP addresses and localhost (DNS-rebinding defence): NAME, .DOMAIN, or * for any; repeat or comma-separate', group: CONTROL },
  { flag: 'shutdown-grace', env: env('SHUTDOWN_GRACE'), kind: int(0, MAX_GRACE_MS), default: DEFAULT_GRACE_MS, describe: 'On SIGTERM/SIGINT, ms that requests already received get to finish before a 503', group: SERVER },
];

/** Raw values as the CLI parser saw them (strings, arrays or booleans); undefined when not given. */
export type RawFlags = Partial<Record<string, unknown>>;

/**
 * Resolves `serve` options with precedence flags > environment (MARKET_STUB_*, then plain PORT /
 * HOST for containers) > defaults, validates every value and returns a frozen config.
 * @throws ConfigError naming each bad option and its source (`--port`, `PORT`…).
 */
export function resolveServeConfig(flags: RawFlags, environment: Readonly<Record<string, string | undefined>>, now: Date = new Date()): ServeConfig {
  return composeServeConfig(resolveOptions(SERVE_OPTIONS, { flags, env: environment }), now);
}

/**
 * Builds the serve config from resolved options: the profile, the global behaviour, the domain
 * faults and the rules file, checking what spans several options (page size within the largest
 * page, --watch with --fixtures) and naming the options as they were given.
 * @throws ConfigError
 */
export function composeServeConfig(resolved: ResolvedOptions, now: Date = new Date()): ServeConfig {
  const { values: v, origins } = resolved;
  const num = (key: string) => v[key] as number | undefined;
  const text = (key: string) => v[key] as string | undefined;
  const envelope = text('envelope') ?? 'bare';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(envelope)) throw new ConfigError([problem(origins['envelope'] ?? '--envelope', '"bare" or a key such as "markets" (letters, digits, _; at most 64)', envelope)]);
  const pageSize = num('pageSize') ?? 100;
  const maxPageSize = num('maxPageSize') ?? 1000;
  if (pageSize > maxPageSize) throw new ConfigError([problem(origins['pageSize'] ?? '--page-size', `an integer from 1 to the largest page size (${maxPageSize}, ${origins['maxPageSize']})`, pageSize)]);
  const profile = resolveProfile({ envelope, paging: text('paging') as ResponseProfile['paging'], pageSize, maxPageSize, errors: text('errors') as ResponseProfile['errors'], filterStatus: v['filterStatus'] === true });
  const behaviour = checkBehaviour(Object.fromEntries(Object.entries(BEHAVIOUR_OPTIONS).map(([field, key]) => [field, v[key]]).filter(([, value]) => value !== undefined)));
  const rules = serveRules(resolved);
  const fixtures = text('fixtures');
  if (v['watch'] === true && fixtures === undefined) throw new ConfigError(`${origins['watch']} needs --fixtures PATH (there is nothing to watch for generated markets).`);
  return Object.freeze({
    port: num('port') ?? 4010,
    host: text('host') ?? '127.0.0.1',
    fixtures,
    watch: v['watch'] === true,
    seed: num('seed') ?? 1,
    count: num('count') ?? 100,
    clock: text('clock') ?? todayUtc(now),
    quiet: v['quiet'] === true,
    logFormat: (text('logFormat') ?? 'auto') as LogFormat | 'auto',
    profile,
    behaviour,
    rules: rules.value,
    deviations: parseDeviations(given(resolved, 'deviation')),
    admin: text('admin') !== 'off',
    adminToken: text('adminToken'),
    journalSize: num('journalSize') ?? 1000,
    journalBytes: num('journalBytes') ?? DEFAULT_JOURNAL_BYTES,
    journalHeaders: (text('journalHeaders') ?? 'redacted') as 'redacted' | 'full',
    redactHeaders: (v['redactHeaders'] as readonly string[] | undefined) ?? [],
    redactQuery: (v['redactQuery'] as readonly string[] | undefined) ?? [],
    allowedHosts: parseHostList(given(resolved, 'allowedHosts')),
    shutdownGraceMs: num('shutdownGrace') ?? DEFAULT_GRACE_MS,
    cors: text('cors') !== 'off',
    origins: { ...origins, rules: rules.origin },
  });
}

/** The value of an option that a source gave (not a default), with its origin. */
function given(resolved: ResolvedOptions, key: string): { value: unknown; source: string } | undefined {
  const origin = resolved.origins[key];
  return origin === undefined || origin === 'default' ? undefined : { value: resolved.values[key], source: origin };
}

function parseHostList(g: { value: unknown; source: string } | undefined): string[] {
  if (!g) return [];
  const items = (Array.isArray(g.value) ? g.value : [g.value]).flatMap((v) => String(v).split(',')).map((h) => h.trim()).filter(Boolean);
  for (const item of items) {
    if (!HOST_NAME.test(item)) throw new ConfigError(`${g.source}: expected host names such as market-stub, .ci.internal or *, found ${JSON.stringify(item)}.`);
  }
  return items;
}

function parseDeviations(g: { value: unknown; source: string } | undefined): DeviationSetting[] {
  if (!g) return [];
  const items = (Array.isArray(g.value) ? g.value : [g.value]).flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean);
  try {
    return parseDeviationFlags(items, g.source);
  } catch (error) {
    if (error instanceof MarketStubError) throw new ConfigError(`${error.message}.`);
    throw error;
  }
}


/**
 * The behaviour rules: a `--behaviours` file given by flag or environment wins; otherwise the
 * config file's inline `rules`, or its `behaviours` file (not both in one file).
 */
function serveRules(resolved: ResolvedOptions): { value: BehaviourRuleInput[]; origin: string } {
  const file = given(resolved, 'behaviours');
  const config = resolved.config;
  const inline = config?.values['rules'];
  if (inline === undefined || (file && file.source !== config?.origin('behaviours'))) return { value: readRules(file), origin: file?.source ?? 'default' };
  const origin = config?.origin('rules') ?? 'rules';
  if (file) throw new ConfigError(`${origin}: give the rules inline or as a file (${file.source}), not both.`);
  if (!Array.isArray(inline)) throw new ConfigError(`${origin}: expected an array of rules, found ${JSON.stringify(inline)}.`);
  checkRules(inline, (i) => `${origin}/${i}`);
  return { value: inline as BehaviourRuleInput[], origin };
}

function readRules(g: { value: unknown; source: string } | undefined): BehaviourRuleInput[] {
  if (!g) return [];
  const file = String(g.value);
  let data: unknown;
  try {
    data = readJsonBytes(readRegularFileBytesSync(file, 4 * 1024 * 1024));
  } catch (error) {
    throw new ConfigError(`${g.source}: cannot read behaviour rules from ${file} (${(error as Error).message}).`);
  }
  if (!Array.isArray(data)) throw new ConfigError(`${g.source}: ${file} must hold a JSON array of rules, found ${typeof data}.`);
  checkRules(data, (i) => `${g.source}: ${file} /${i}`);
  return data as BehaviourRuleInput[];
}

/** Checks each rule as the behaviour engine will (match, behaviour, times, id). @throws ConfigError naming the rule with `at(i)`. */
function checkRules(data: readonly unknown[], at: (i: number) => string): void {
  data.forEach((rule: unknown, i) => {
    const r = rule as { behaviour?: unknown; match?: unknown } | null;
    try {
      if (!r || typeof r !== 'object' || !r.match || typeof r.match !== 'object') throw new BehaviourError('match', 'an object');
      checkBehaviour(r.behaviour, 'behaviour');
      createBehaviourEngine({ seed: 1, rules: [r as BehaviourRuleInput] });
    } catch (error) {
      if (!(error instanceof MarketStubError)) throw error;
      throw new ConfigError(`${at(i)}: ${error.message.replace(/^rule( [^.:]+)?\./, '')}.`);
    }
  });
}
