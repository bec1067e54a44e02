import { checkBehaviour, ruleProblems } from '../behaviour/behaviour.js';
import { DEFAULT_JOURNAL_BYTES, MAX_CLOCK_RATE, MAX_JOURNAL_BYTES, MAX_JOURNAL_ENTRIES } from '../floor/limits.js';
import { planDeviations } from '../deviation/deviation-settings.js';
import { HOST_NAME } from '../floor/host-name.js';
import { MarketStubError, optionError, problemsError, relocate } from '../floor/market-stub-error.js';
import { checkFields, type FieldRule } from '../floor/option-fields.js';
import { BOOLEAN, choice, INSTANT, int, LIST, STEP } from '../floor/option-kind.js';
import type { ServeFlag } from '../floor/option-spec.js';
import { profileProblems } from './response-profile.js';
import { CATALOG_FIELDS } from '../catalog/catalog-options.js';
import type { MarketCatalog } from '../catalog/market-catalog.js';
import type { StubLogger } from '../floor/stub-logger.js';
import type { Behaviour, BehaviourRuleInput } from '../behaviour/behaviour.js';
import type { DeviationSetting } from '../deviation/deviation-settings.js';
import type { ResponseProfile } from './response-profile.js';

/** Everything a stub runtime is built from; only `catalog` is required. */
export interface RuntimeOptions {
  catalog: MarketCatalog;
  /** Seeds tick steps, jitter, error rates and which markets a shared deviation selects. @default 1 */
  seed?: number;
  profile?: Partial<ResponseProfile>;
  /** Behaviour for every market request (CLI/env `--delay`, `--fault`…). */
  behaviour?: Behaviour;
  /** Start-up rules per route or market (CLI `--behaviours FILE`). */
  rules?: readonly BehaviourRuleInput[];
  /**
   * Deviations from the contract to serve (src/deviation, the README's deviation table): each to
   * every market, a seeded share (`rate`), or named markets (`marketIds`); list deviations to the list.
   */
  deviations?: readonly DeviationSetting[];
  /** Ring-buffer size of the request journal, 0–100,000 entries. @default 1000 */
  journalSize?: number;
  /** Bytes the journal holds at most (entries dropped oldest first past it), 1 KiB–1 GiB. @default 33554432 (32 MiB) */
  journalBytes?: number;
  /** `redacted` (default): Authorization, Proxy-Authorization and Cookie values are journaled as `[redacted]`; `full` keeps them. */
  journalHeaders?: 'redacted' | 'full';
  /** Header names whose values the journal redacts besides the defaults (X-Api-Key, Cookie…: floor/secret-names.ts). */
  redactHeaders?: readonly string[];
  /** Query parameter names whose values the journal and the request log redact besides the defaults (token, api_key, signature…). */
  redactQuery?: readonly string[];
  /** Access-Control-Allow-Origin: * and preflight answers. @default true */
  cors?: boolean;
  /**
   * Every answer carries `Market-Stub-Explain` (docs/explain.md): the deviations, behaviours and
   * rules that shaped it, the profile and the stub instant, also in its journal entry. Off: only a
   * request with `Prefer: explain` is explained. @default false
   */
  explain?: boolean;
  /**
   * Where the stub clock starts: a YYYY-MM-DD date (that day at 00:00:00Z) or an RFC 3339 instant
   * (catalog/stub-clock.ts). Every answer's `Date` header is the clock's instant, so `market-stub
   * check` judges "past" as of it, and generated prices walk from it. @default today, 00:00:00Z
   */
  clock?: string;
  /** Stub seconds per real second, 0 (frozen: the default) to 31,536,000 (a year a second); 1 is real time, 3600 an hour a second. @default 0 */
  clockRate?: number;
  /**
   * Stub time per step of the price walk (catalog/price-walk.ts): an ISO 8601 duration without
   * years or months, PT1S to P366D. A walking market's price moves at most one cent a step; `tick(n)`
   * advances the clock n steps. @default 'PT1M'
   */
  priceStep?: string;
  /**
   * Which markets' prices walk with the clock: `generated` (the default: generated markets that no
   * admin call wrote), `all` (fixture and admin-written markets too), `off` (none; the clock still
   * moves). A market whose status is not "active", or that serves `stale-prices`, never walks.
   */
  priceWalk?: 'generated' | 'all' | 'off';
  /**
   * The lifecycle of generated markets (docs/lifecycle.md, catalog/market-lifecycle.ts): `off` (the
   * default: every status stays as generated), `generic` (active → closed → resolved) or `kalshi`
   * (initialized → active → closed → determined → finalized). Each generated market opens, closes on
   * its resolution date and resolves to prices 1 / 0 as the clock passes its seeded instants; markets
   * not yet open are not listed, resolved ones leave the list 7 days after their last stage. Fixture and
   * admin-written markets keep their status. @default 'off'
   */
  lifecycle?: 'off' | 'generic' | 'kalshi';
  /** Serve the admin API under /__stub. @default true */
  admin?: boolean;
  /** When set, admin requests need `Authorization: Bearer <token>`. */
  adminToken?: string;
  /**
   * Host names the admin API accepts besides IP addresses, `localhost` and `*.localhost` (DNS-rebinding
   * defence): exact names (`market-stub`), `.domain` for a domain and its subdomains, or `*` for any.
   */
  allowedHosts?: readonly string[];
  /** Request log (one line per request; a pino logger fits); none when omitted. */
  logger?: StubLogger;
  /** Where the cause of every 500 (one line with the stack) and start-up warnings go, also when there is no request log. @default console.error (stderr) */
  errorLog?: (line: string) => void;
}


/**
 * Scalar and structured fields every stub surface takes (startMarketStub, createApp's runtime options):
 * one check per RuntimeOptions field, held to the interface both ways (`satisfies`: a field without
 * its check, or a check without its field, does not compile).
 */
export const RUNTIME_FIELDS = {
  seed: int(0, Number.MAX_SAFE_INTEGER),
  profile: checkProfile,
  behaviour: (value, where, option) => relocateBehaviour(() => checkBehaviour(value, option), where),
  rules: checkRules,
  deviations: (value, where, option) => {
    planDeviations(value, where, option);
  },
  journalSize: int(0, MAX_JOURNAL_ENTRIES),
  journalBytes: int(1024, MAX_JOURNAL_BYTES),
  journalHeaders: choice('redacted', 'full'),
  redactHeaders: checkNameList,
  redactQuery: checkNameList,
  cors: BOOLEAN,
  explain: BOOLEAN,
  clock: INSTANT,
  clockRate: { type: 'number', min: 0, max: MAX_CLOCK_RATE },
  priceStep: STEP,
  priceWalk: choice('generated', 'all', 'off'),
  lifecycle: choice('off', 'generic', 'kalshi'),
  admin: BOOLEAN,
  adminToken: { type: 'token' },
  allowedHosts: checkAllowedHosts,
  logger: checkLogger,
  errorLog: (value, where, option) => {
    if (typeof value !== 'function') throw optionError(where, option, 'a function (line: string) => void', value);
  },
} satisfies Record<Exclude<keyof RuntimeOptions, 'catalog'>, FieldRule>;

/**
 * The `market-stub serve` flags of the runtime options it takes (ServeFlag, floor/option-spec.ts):
 * flag, variables, default and help beside the field's doc (RuntimeOptions) and check
 * (RUNTIME_FIELDS). options/tables/serve-options.ts makes each a serve row feeding that field; a
 * flag without `kind` reads the field's own kind. Headings are literals (ServeGroup holds them to
 * SERVE_GROUPS) and the one call is marked pure, so a bundle that never reads these flags (the MSW
 * and Fetch handlers) leaves them out.
 */
export const RUNTIME_SERVE_FLAGS = {
  clockRate: { flag: 'clock-rate', env: ['MARKET_STUB_CLOCK_RATE'], default: 0, describe: 'Stub seconds per real second: 0 frozen, 1 real time, 3600 an hour a second (POST /__stub/clock moves it too)', group: 'Data:' },
  priceStep: { flag: 'price-step', env: ['MARKET_STUB_PRICE_STEP'], default: 'PT1M', describe: 'Stub time per step of the price walk (at most one cent a step); an ISO 8601 duration, PT1S to P366D', group: 'Data:' },
  priceWalk: { flag: 'price-walk', env: ['MARKET_STUB_PRICE_WALK'], default: 'generated', describe: 'Whose prices walk with the clock: generated markets no admin call wrote, all (fixtures and admin-written too), or off', group: 'Data:' },
  lifecycle: { flag: 'lifecycle', env: ['MARKET_STUB_LIFECYCLE'], default: 'off', describe: 'Generated markets open, close and resolve as the clock passes seeded instants: generic (active, closed, resolved), kalshi (initialized, active, closed, determined, finalized), or off (docs/lifecycle.md)', group: 'Data:' },
  cors: { flag: 'cors', env: ['MARKET_STUB_CORS'], kind: /* @__PURE__ */ choice('on', 'off'), default: 'on', describe: 'Access-Control-Allow-Origin: * and preflight answers', group: 'Server:' },
  explain: { flag: 'explain', env: ['MARKET_STUB_EXPLAIN'], kind: /* @__PURE__ */ choice('on', 'off'), default: 'off', describe: 'Every answer carries Market-Stub-Explain: the deviations, behaviours and rules that shaped it, the profile and the stub instant (docs/explain.md); off: only requests with Prefer: explain', group: 'Runtime control:' },
  admin: { flag: 'admin', env: ['MARKET_STUB_ADMIN'], kind: /* @__PURE__ */ choice('on', 'off'), default: 'on', describe: 'The admin API under /__stub', group: 'Runtime control:' },
  adminToken: { flag: 'admin-token', env: ['MARKET_STUB_ADMIN_TOKEN'], secret: true, defaultText: 'none', describe: 'Require Authorization: Bearer TOKEN on the admin API (printable ASCII, no space at either end)', group: 'Runtime control:' },
  journalSize: { flag: 'journal-size', env: ['MARKET_STUB_JOURNAL_SIZE'], default: 1000, describe: 'Requests kept in the journal (ring buffer)', group: 'Runtime control:' },
  journalBytes: { flag: 'journal-bytes', env: ['MARKET_STUB_JOURNAL_BYTES'], default: DEFAULT_JOURNAL_BYTES, describe: 'Bytes the journal holds at most (oldest entries dropped first)', group: 'Runtime control:' },
  journalHeaders: { flag: 'journal-headers', env: ['MARKET_STUB_JOURNAL_HEADERS'], default: 'redacted', describe: 'Journal secret header and query values (Authorization, Cookie, X-Api-Key, token=…: docs/networks.md) as [redacted], or in full', group: 'Runtime control:' },
  redactHeaders: { flag: 'redact-header', key: 'redactHeaders', env: ['MARKET_STUB_REDACT_HEADER'], kind: LIST, defaultText: 'the default list', describe: 'Also redact this request header\'s values in the journal (repeat or comma-separate); adds to Authorization, Cookie, X-Api-Key, X-Auth-Token… (docs/networks.md)', group: 'Runtime control:' },
  redactQuery: { flag: 'redact-query', env: ['MARKET_STUB_REDACT_QUERY'], kind: LIST, defaultText: 'the default list', describe: 'Also redact this query parameter\'s values in the journal and request log (repeat or comma-separate); adds to token, access_token, api_key, signature… (docs/networks.md)', group: 'Runtime control:' },
  allowedHosts: { flag: 'allowed-hosts', env: ['MARKET_STUB_ALLOWED_HOSTS'], kind: LIST, defaultText: 'none', describe: 'Host names the admin API accepts besides IP addresses and localhost (DNS-rebinding defence): NAME, .DOMAIN, or * for any; repeat or comma-separate', group: 'Runtime control:' },
} as const satisfies { readonly [K in keyof RuntimeOptions]?: ServeFlag };

/**
 * The fields of a stub built from data, with no file system or socket (createFetchHandler,
 * createMarketStubHandlers): the runtime fields, and the catalog's count, clock and markets.
 */
export const DATA_STUB_FIELDS = {
  ...RUNTIME_FIELDS,
  count: CATALOG_FIELDS.count,
  clock: CATALOG_FIELDS.clock,
  markets: CATALOG_FIELDS.markets,
} satisfies Record<string, FieldRule>;

/** redactHeaders / redactQuery: an array (empty allowed) of non-empty names. */
function checkNameList(value: unknown, where: string, option: string): void {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && name.trim() !== '' && !/[\s\0]/.test(name))) throw optionError(where, option, 'an array of header or query parameter names', value);
}

/**
 * Checks the runtime options of `createApp` (or `createStubRuntime`): a catalog plus the runtime fields.
 * @throws MarketStubError OPTION_INVALID
 */
export function checkRuntimeOptions(options: unknown, where = 'createApp'): void {
  checkFields(options, { ...RUNTIME_FIELDS, catalog: checkCatalog }, where);
  if ((options as Record<string, unknown>)['catalog'] === undefined) throw optionError(where, 'catalog', 'a catalog from buildCatalog()', undefined);
}

function checkProfile(value: unknown, where: string, option: string): void {
  const problems = profileProblems(value, (field) => `${option}.${field}`);
  if (problems.length > 0) throw problemsError(where, option, problems);
}

/** allowedHosts: at most 100 host names (`market-stub`), `.domain` entries or `*`. */
function checkAllowedHosts(value: unknown, where: string, option: string): void {
  if (!Array.isArray(value) || value.length > 100) throw optionError(where, option, 'an array of at most 100 host names', value);
  value.forEach((host: unknown, i) => {
    if (typeof host !== 'string' || host.length > 253 || !HOST_NAME.test(host)) throw optionError(where, `${option}[${i}]`, 'a host name such as "market-stub", ".ci.internal" or "*"', host);
  });
}

function checkRules(value: unknown, where: string, option: string): void {
  const problems = ruleProblems(value);
  if (problems.length > 0) throw problemsError(where, option, problems);
}


function checkLogger(value: unknown, where: string, option: string): void {
  const logger = value as Record<string, unknown> | null;
  const ok = logger !== null && typeof logger === 'object' && ['info', 'warn', 'error'].every((level) => typeof logger[level] === 'function');
  if (!ok) throw optionError(where, option, 'a logger with info, warn and error methods (a pino logger, or console)', value);
}

function checkCatalog(value: unknown, where: string, option: string): void {
  const catalog = value as Record<string, unknown> | null;
  const ok = catalog !== null && typeof catalog === 'object' && ['entry', 'entryAt', 'listBody'].every((m) => typeof catalog[m] === 'function') && Number.isSafeInteger(catalog['size']);
  if (!ok) throw optionError(where, option, 'a catalog from buildCatalog()', '(not a catalog)');
}

function relocateBehaviour<T>(fn: () => T, where: string): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof MarketStubError) throw relocate(error, where);
    throw error;
  }
}
