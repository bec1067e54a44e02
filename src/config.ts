import { readRegularFileSync } from './core/read-regular-file.js';
import { isCalendarDate, todayUtc } from './core/market-rules.js';
import { DOMAIN_FAULTS, type DomainFault, type GlobalDomainFault } from './catalog/market-store.js';
import { BehaviourError, checkBehaviour, TRANSPORT_FAULTS, type Behaviour, type BehaviourRuleInput } from './behaviour/behaviour.js';
import { ERROR_SHAPES, PAGING_MODES, resolveProfile, type ResponseProfile } from './http/response-profile.js';
import type { LogFormat } from './logger.js';

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
  readonly globalFaults: readonly GlobalDomainFault[];
  readonly admin: boolean;
  readonly adminToken: string | undefined;
  readonly journalSize: number;
  readonly journalBytes: number;
  readonly journalHeaders: 'redacted' | 'full';
  readonly allowedHosts: readonly string[];
  readonly shutdownGraceMs: number;
  readonly cors: boolean;
}

/** A bad option value; `message` says which option, where it came from, what was expected and found. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Kind = 'int' | 'string' | 'path' | 'date' | 'boolean' | 'choice' | 'rate' | 'list';

/** One serve option as data: its flag, environment variables (first wins), kind and help. */
export interface OptionSpec {
  cli: string;
  env: readonly string[];
  kind: Kind;
  describe: string;
  defaultText: string;
  group: string;
  choices?: readonly string[];
}

/** Largest generated catalog. */
export const MAX_COUNT = 100_000_000;

const env = (name: string) => [`MARKET_STUB_${name}`];
const SERVER = 'Server:';
const DATA = 'Data:';
const PROFILE = 'Response profile:';
const BEHAVIOUR = 'Behaviours (every market request):';
const CONTROL = 'Runtime control:';

export const SERVE_OPTIONS: readonly OptionSpec[] = [
  { cli: 'port', env: ['MARKET_STUB_PORT', 'PORT'], kind: 'int', describe: 'TCP port to listen on; 0 picks a free port', defaultText: '4010', group: SERVER },
  { cli: 'host', env: ['MARKET_STUB_HOST', 'HOST'], kind: 'string', describe: 'Interface address to bind (0.0.0.0 in containers)', defaultText: '127.0.0.1', group: SERVER },
  { cli: 'quiet', env: env('QUIET'), kind: 'boolean', describe: 'No request log lines (the ready line stays)', defaultText: 'false', group: SERVER },
  { cli: 'log-format', env: env('LOG_FORMAT'), kind: 'choice', choices: ['auto', 'text', 'json'], describe: 'Request log lines: text, json (pino NDJSON), or auto: text on a terminal, json when piped', defaultText: 'auto', group: SERVER },
  { cli: 'cors', env: env('CORS'), kind: 'choice', choices: ['on', 'off'], describe: 'Access-Control-Allow-Origin: * and preflight answers', defaultText: 'on', group: SERVER },
  { cli: 'fixtures', env: env('FIXTURES'), kind: 'path', describe: 'Serve the markets in this JSON file or directory of JSON files instead of generated ones', defaultText: 'none: generated markets', group: DATA },
  { cli: 'watch', env: env('WATCH'), kind: 'boolean', describe: 'With --fixtures: reload on change (invalid changes are logged, old data kept)', defaultText: 'false', group: DATA },
  { cli: 'seed', env: env('SEED'), kind: 'int', describe: 'Seed of the generated catalog, ticks, jitter and error rates', defaultText: '1', group: DATA },
  { cli: 'count', env: env('COUNT'), kind: 'int', describe: 'Number of generated markets', defaultText: '100', group: DATA },
  { cli: 'clock', env: env('CLOCK'), kind: 'date', describe: 'Clock date YYYY-MM-DD (UTC); resolution dates fall 1–730 days after it', defaultText: 'today (UTC)', group: DATA },
  { cli: 'envelope', env: env('ENVELOPE'), kind: 'string', describe: 'List shape: "bare" array, or the key of an envelope object ("markets", "data")', defaultText: 'bare', group: PROFILE },
  { cli: 'paging', env: env('PAGING'), kind: 'choice', choices: PAGING_MODES, describe: 'List paging: none, offset (limit+offset), cursor (limit+cursor, next_cursor / Link)', defaultText: 'none', group: PROFILE },
  { cli: 'page-size', env: env('PAGE_SIZE'), kind: 'int', describe: 'Page size when no limit is sent', defaultText: '100', group: PROFILE },
  { cli: 'max-page-size', env: env('MAX_PAGE_SIZE'), kind: 'int', describe: 'Largest limit (larger ones are clamped)', defaultText: '1000', group: PROFILE },
  { cli: 'errors', env: env('ERRORS'), kind: 'choice', choices: ERROR_SHAPES, describe: 'Error body: default, problem (RFC 9457), error-object ({"error":{code,message}})', defaultText: 'default', group: PROFILE },
  { cli: 'filter-status', env: env('FILTER_STATUS'), kind: 'boolean', describe: 'Filter GET /markets by ?status=', defaultText: 'false', group: PROFILE },
  { cli: 'delay', env: env('DELAY'), kind: 'int', describe: 'Fixed delay before every market response, ms', defaultText: '0', group: BEHAVIOUR },
  { cli: 'jitter', env: env('JITTER'), kind: 'int', describe: 'Extra seeded random delay in [0, N) ms', defaultText: '0', group: BEHAVIOUR },
  { cli: 'status', env: env('STATUS'), kind: 'int', describe: 'Answer every market request with this status and a JSON error body', defaultText: 'none', group: BEHAVIOUR },
  { cli: 'error-rate', env: env('ERROR_RATE'), kind: 'rate', describe: 'Seeded share of market requests (0–1) answered with --status (default 500)', defaultText: '0', group: BEHAVIOUR },
  { cli: 'retry-after', env: env('RETRY_AFTER'), kind: 'int', describe: 'Retry-After seconds sent with 429/503', defaultText: '1 for 429', group: BEHAVIOUR },
  { cli: 'fault', env: env('FAULT'), kind: 'choice', choices: TRANSPORT_FAULTS, describe: 'Transport fault on every market response', defaultText: 'none', group: BEHAVIOUR },
  { cli: 'market-fault', env: env('MARKET_FAULT'), kind: 'list', describe: `Domain fault for a seeded share of markets, NAME=RATE (${DOMAIN_FAULTS.join(', ')}); repeat or comma-separate`, defaultText: 'none', group: BEHAVIOUR },
  { cli: 'behaviours', env: env('BEHAVIOURS'), kind: 'path', describe: 'JSON file: an array of rules {match:{route?,marketId?,method?}, behaviour:{…}, times?}', defaultText: 'none', group: BEHAVIOUR },
  { cli: 'admin', env: env('ADMIN'), kind: 'choice', choices: ['on', 'off'], describe: 'The admin API under /__stub', defaultText: 'on', group: CONTROL },
  { cli: 'admin-token', env: env('ADMIN_TOKEN'), kind: 'string', describe: 'Require Authorization: Bearer TOKEN on the admin API', defaultText: 'none', group: CONTROL },
  { cli: 'journal-size', env: env('JOURNAL_SIZE'), kind: 'int', describe: 'Requests kept in the journal (ring buffer), 0–100000', defaultText: '1000', group: CONTROL },
  { cli: 'journal-bytes', env: env('JOURNAL_BYTES'), kind: 'int', describe: 'Bytes the journal holds at most (oldest entries dropped first), 1024–1073741824', defaultText: '33554432 (32 MiB)', group: CONTROL },
  { cli: 'journal-headers', env: env('JOURNAL_HEADERS'), kind: 'choice', choices: ['redacted', 'full'], describe: 'Journal Authorization, Proxy-Authorization and Cookie values as [redacted], or in full', defaultText: 'redacted', group: CONTROL },
  { cli: 'allowed-hosts', env: env('ALLOWED_HOSTS'), kind: 'list', describe: 'Host names the admin API accepts besides IP addresses and localhost (DNS-rebinding defence): NAME, .DOMAIN, or * for any; repeat or comma-separate', defaultText: 'none', group: CONTROL },
  { cli: 'shutdown-grace', env: env('SHUTDOWN_GRACE'), kind: 'int', describe: 'On SIGTERM/SIGINT, ms that requests already received get to finish before a 503, 0–600000', defaultText: '5000', group: SERVER },
];

/** Raw values as the CLI parser saw them (strings, arrays or booleans); undefined when not given. */
export type RawFlags = Partial<Record<string, unknown>>;

/**
 * Resolves `serve` options with precedence flags > environment (MARKET_STUB_*, then plain PORT /
 * HOST for containers) > defaults, validates every value and returns a frozen config.
 * @throws ConfigError naming the option and its source (`--port`, `PORT`…) on a bad value.
 */
export function resolveServeConfig(flags: RawFlags, environment: Readonly<Record<string, string | undefined>>, now: Date = new Date()): ServeConfig {
  const given = (cli: string): { value: unknown; source: string } | undefined => {
    const spec = SERVE_OPTIONS.find((s) => s.cli === cli);
    if (!spec) throw new Error(`unknown option ${cli}`);
    const camel = cli.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    const fromFlag = flags[cli] ?? flags[camel];
    if (fromFlag !== undefined && !(Array.isArray(fromFlag) && fromFlag.length === 0)) return { value: fromFlag, source: `--${cli}` };
    for (const name of spec.env) {
      const v = environment[name];
      if (v !== undefined && v !== '') return { value: v, source: name };
    }
    return undefined;
  };
  const bad = (g: { value: unknown; source: string }, expected: string): never => {
    throw new ConfigError(`${g.source}: expected ${expected}, found ${JSON.stringify(g.value)}.`);
  };
  const int = (cli: string, min: number, max: number): number | undefined => {
    const g = given(cli);
    if (!g) return undefined;
    const text = String(g.value).trim();
    const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) bad(g, `an integer from ${min} to ${max}`);
    return n;
  };
  const bool = (cli: string): boolean => {
    const g = given(cli);
    if (!g) return false;
    if (typeof g.value === 'boolean') return g.value;
    const text = String(g.value).toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(text)) return true;
    if (['0', 'false', 'no', 'off'].includes(text)) return false;
    return bad(g, 'true or false');
  };
  const choice = (cli: string, fallback: string): string => {
    const g = given(cli);
    if (!g) return fallback;
    const choices = SERVE_OPTIONS.find((s) => s.cli === cli)?.choices ?? [];
    if (!choices.includes(String(g.value))) bad(g, `one of ${choices.join(', ')}`);
    return String(g.value);
  };
  const str = (cli: string): string | undefined => {
    const g = given(cli);
    if (!g) return undefined;
    if (String(g.value).trim() === '') bad(g, 'a non-empty value');
    return String(g.value);
  };

  const clock = given('clock');
  if (clock && !isCalendarDate(String(clock.value))) bad(clock, 'a calendar date YYYY-MM-DD');
  let profile: ResponseProfile;
  try {
    profile = resolveProfile({
      envelope: str('envelope'), paging: choice('paging', 'none') as ResponseProfile['paging'], pageSize: int('page-size', 1, 1_000_000),
      maxPageSize: int('max-page-size', 1, 1_000_000), errors: choice('errors', 'default') as ResponseProfile['errors'], filterStatus: bool('filter-status'),
    });
  } catch (error) {
    if (error instanceof RangeError) throw new ConfigError(`response profile: ${error.message}.`);
    throw error;
  }
  const rateGiven = given('error-rate');
  let errorRate: number | undefined;
  if (rateGiven) {
    errorRate = Number(rateGiven.value);
    if (!/^\d*\.?\d+$/.test(String(rateGiven.value)) || errorRate > 1) bad(rateGiven, 'a number from 0 to 1');
  }
  const rawBehaviour: Record<string, unknown> = {
    delayMs: int('delay', 0, 600_000), jitterMs: int('jitter', 0, 600_000), status: int('status', 200, 599),
    retryAfter: int('retry-after', 0, 86_400), errorRate, fault: given('fault') ? choice('fault', '') : undefined,
  };
  const behaviour = checkBehaviour(Object.fromEntries(Object.entries(rawBehaviour).filter(([, v]) => v !== undefined)));
  const fixtures = str('fixtures');
  const watch = bool('watch');
  if (watch && fixtures === undefined) throw new ConfigError('--watch needs --fixtures PATH (there is nothing to watch for generated markets).');
  return Object.freeze({
    port: int('port', 0, 65_535) ?? 4010,
    host: str('host') ?? '127.0.0.1',
    fixtures,
    watch,
    seed: int('seed', 0, Number.MAX_SAFE_INTEGER) ?? 1,
    count: int('count', 0, MAX_COUNT) ?? 100,
    clock: clock ? String(clock.value) : todayUtc(now),
    quiet: bool('quiet'),
    logFormat: choice('log-format', 'auto') as LogFormat | 'auto',
    profile,
    behaviour,
    rules: readRules(given('behaviours')),
    globalFaults: parseMarketFaults(given('market-fault')),
    admin: choice('admin', 'on') === 'on',
    adminToken: str('admin-token'),
    journalSize: int('journal-size', 0, 100_000) ?? 1000,
    journalBytes: int('journal-bytes', 1024, 1_073_741_824) ?? 33_554_432,
    journalHeaders: choice('journal-headers', 'redacted') as 'redacted' | 'full',
    allowedHosts: parseHostList(given('allowed-hosts')),
    shutdownGraceMs: int('shutdown-grace', 0, 600_000) ?? 5000,
    cors: choice('cors', 'on') === 'on',
  });
}

function parseHostList(g: { value: unknown; source: string } | undefined): string[] {
  if (!g) return [];
  const items = (Array.isArray(g.value) ? g.value : [g.value]).flatMap((v) => String(v).split(',')).map((h) => h.trim()).filter(Boolean);
  for (const item of items) {
    if (!/^(\*|\.?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*)$/.test(item)) throw new ConfigError(`${g.source}: expected host names such as market-stub, .ci.internal or *, found ${JSON.stringify(item)}.`);
  }
  return items;
}

function parseMarketFaults(g: { value: unknown; source: string } | undefined): GlobalDomainFault[] {
  if (!g) return [];
  const items = (Array.isArray(g.value) ? g.value : [g.value]).flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean);
  return items.map((item) => {
    const [name, rateText = '1'] = item.split('=');
    const rate = Number(rateText);
    if (!DOMAIN_FAULTS.includes(name as DomainFault) || !/^\d*\.?\d+$/.test(rateText) || rate > 1) {
      throw new ConfigError(`${g.source}: expected NAME=RATE with NAME one of ${DOMAIN_FAULTS.join(', ')} and RATE from 0 to 1, found ${JSON.stringify(item)}.`);
    }
    return { fault: name as DomainFault, rate };
  });
}

function readRules(g: { value: unknown; source: string } | undefined): BehaviourRuleInput[] {
  if (!g) return [];
  const file = String(g.value);
  let data: unknown;
  try {
    data = JSON.parse(readRegularFileSync(file, 4 * 1024 * 1024));
  } catch (error) {
    throw new ConfigError(`${g.source}: cannot read behaviour rules from ${file} (${(error as Error).message}).`);
  }
  if (!Array.isArray(data)) throw new ConfigError(`${g.source}: ${file} must hold a JSON array of rules, found ${typeof data}.`);
  data.forEach((rule: unknown, i) => {
    const r = rule as { behaviour?: unknown; match?: unknown } | null;
    try {
      if (!r || typeof r !== 'object' || !r.match || typeof r.match !== 'object') throw new BehaviourError('match', 'an object');
      checkBehaviour(r.behaviour, 'behaviour');
    } catch (error) {
      throw new ConfigError(`${g.source}: ${file} /${i}: ${(error as Error).message}.`);
    }
  });
  return data as BehaviourRuleInput[];
}
