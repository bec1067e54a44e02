import { checkBehaviour, createBehaviourEngine, type BehaviourRuleInput } from '../behaviour/behaviour.js';
import { DOMAIN_FAULTS } from '../catalog/domain-faults.js';
import { planDeviations } from '../deviation/deviation-settings.js';
import { MarketStubError, optionError, relocate } from '../core/market-stub-error.js';
import { ERROR_SHAPES, PAGING_MODES } from '../http/response-profile.js';
import { expectedText, readTyped, type OptionKind } from './option-kind.js';
import { MAX_JOURNAL_BYTES, MAX_JOURNAL_ENTRIES } from '../journal/request-journal.js';
import { HOST_NAME } from '../http/admin/admin-access.js';
import { MAX_GRACE_MS } from '../server.js';

/** Largest generated catalog (markets are made on demand, so a large count costs nothing at start). */
export const MAX_COUNT = 100_000_000;
/** Largest request journal, in entries (a full scan of it stays a few milliseconds: reads never stall the server). */
export const MAX_JOURNAL_SIZE = MAX_JOURNAL_ENTRIES;

const int = (min: number, max: number): OptionKind => ({ type: 'integer', min, max });
const BOOLEAN: OptionKind = { type: 'boolean' };
const TEXT: OptionKind = { type: 'string' };

/** A field of an options object: a scalar kind, or a check of its own for structured values. */
type FieldRule = OptionKind | ((value: unknown, where: string, option: string) => void);

/** Scalar and structured fields every stub surface takes (startMarketStub, createApp's runtime options). */
const RUNTIME_FIELDS: Record<string, FieldRule> = {
  seed: int(0, Number.MAX_SAFE_INTEGER),
  profile: checkProfile,
  behaviour: (value, where, option) => relocateBehaviour(() => checkBehaviour(value, option), where),
  rules: checkRules,
  deviations: (value, where, option) => {
    planDeviations(value, where, option);
  },
  globalFaults: checkGlobalFaults,
  journalSize: int(0, MAX_JOURNAL_SIZE),
  journalBytes: int(1024, MAX_JOURNAL_BYTES),
  journalHeaders: { type: 'choice', choices: ['redacted', 'full'] },
  redactHeaders: checkNameList,
  redactQuery: checkNameList,
  cors: BOOLEAN,
  admin: BOOLEAN,
  adminToken: TEXT,
  allowedHosts: checkAllowedHosts,
  logger: checkLogger,
  errorLog: (value, where, option) => {
    if (typeof value !== 'function') throw optionError(where, option, 'a function (line: string) => void', value);
  },
};

/** redactHeaders / redactQuery: an array (empty allowed) of non-empty names. */
function checkNameList(value: unknown, where: string, option: string): void {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && name.trim() !== '' && !/[\s\0]/.test(name))) throw optionError(where, option, 'an array of header or query parameter names', value);
}

/** What `buildCatalog` takes (fixtures, markets given in code, or the generator's seed, count and clock). */
const CATALOG_FIELDS: Record<string, FieldRule> = {
  seed: int(0, Number.MAX_SAFE_INTEGER),
  count: int(0, MAX_COUNT),
  clock: { type: 'date' },
  fixtures: { type: 'path' },
  markets: (value, where, option) => {
    if (!Array.isArray(value)) throw optionError(where, option, 'an array of markets', value);
  },
};

/** startMarketStub's fields: the runtime's and the catalog's, plus where to listen. */
const STUB_FIELDS: Record<string, FieldRule> = {
  ...RUNTIME_FIELDS,
  ...CATALOG_FIELDS,
  port: int(0, 65_535),
  host: TEXT,
  watch: BOOLEAN,
  shutdownGraceMs: int(0, MAX_GRACE_MS),
};

/** Fields whose values are secrets: messages name them but never show what was given. */
const SECRET_FIELDS = new Set(['adminToken']);

/**
 * Checks the options of `startMarketStub` before anything starts: every field's type and range,
 * unknown fields (a typo such as `cuont`), and combinations (`watch` needs `fixtures`; `fixtures`
 * and `markets` exclude each other).
 * @throws MarketStubError OPTION_INVALID naming `where` and the field:
 *   `startMarketStub: clock: expected a YYYY-MM-DD calendar date, found "2026-13-01"`.
 */
export function checkStubOptions(options: unknown, where = 'startMarketStub'): void {
  checkFields(options, STUB_FIELDS, where);
  const o = options as Record<string, unknown>;
  if (o['watch'] === true && o['fixtures'] === undefined) throw optionError(where, 'watch', 'a fixtures path to watch (watch applies to fixtures only)', true);
  checkCatalogCombination(o, where);
}

/**
 * Checks the runtime options of `createApp` (or `createStubRuntime`): a catalog plus the runtime fields.
 * @throws MarketStubError OPTION_INVALID
 */
export function checkRuntimeOptions(options: unknown, where = 'createApp'): void {
  checkFields(options, { ...RUNTIME_FIELDS, catalog: checkCatalog }, where);
  if ((options as Record<string, unknown>)['catalog'] === undefined) throw optionError(where, 'catalog', 'a catalog from buildCatalog()', undefined);
}

/**
 * Checks the options of `buildCatalog`.
 * @throws MarketStubError OPTION_INVALID
 */
export function checkCatalogOptions(options: unknown, where = 'buildCatalog'): void {
  checkFields(options, CATALOG_FIELDS, where);
  checkCatalogCombination(options as Record<string, unknown>, where);
}

function checkCatalogCombination(o: Record<string, unknown>, where: string): void {
  if (o['fixtures'] !== undefined && o['markets'] !== undefined) throw optionError(where, 'markets', 'either fixtures or markets, not both', 'both given');
}

function checkFields(options: unknown, fields: Record<string, FieldRule>, where: string): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw optionError(where, 'options', 'an object of options', options);
  for (const [key, value] of Object.entries(options)) {
    const rule = fields[key];
    if (!rule) throw optionError(where, key, `a known option (${Object.keys(fields).sort().join(', ')})`, key);
    if (value === undefined) continue;
    if (typeof rule === 'function') {
      rule(value, where, key);
      continue;
    }
    const read = readTyped(rule, value);
    if (!read.ok) throw optionError(where, key, read.expected, SECRET_FIELDS.has(key) ? '(not shown)' : value);
  }
}

const PROFILE_FIELDS: Record<string, OptionKind> = {
  envelope: TEXT,
  paging: { type: 'choice', choices: PAGING_MODES },
  pageSize: int(1, 1_000_000),
  maxPageSize: int(1, 1_000_000),
  errors: { type: 'choice', choices: ERROR_SHAPES },
  filterStatus: BOOLEAN,
};

function checkProfile(value: unknown, where: string, option: string): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw optionError(where, option, 'an object such as {"envelope":"markets","paging":"cursor"}', value);
  const profile = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(profile)) {
    const kind = PROFILE_FIELDS[key];
    if (!kind) throw optionError(where, `${option}.${key}`, `a known field (${Object.keys(PROFILE_FIELDS).join(', ')})`, key);
    if (field === undefined) continue;
    const read = readTyped(kind, field);
    if (!read.ok) throw optionError(where, `${option}.${key}`, read.expected, field);
  }
  if (typeof profile['envelope'] === 'string' && !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(profile['envelope'])) {
    throw optionError(where, `${option}.envelope`, '"bare" or a key such as "markets" (letters, digits, _; at most 64)', profile['envelope']);
  }
  const pageSize = (profile['pageSize'] as number | undefined) ?? 100;
  const maxPageSize = (profile['maxPageSize'] as number | undefined) ?? 1000;
  if (pageSize > maxPageSize) throw optionError(where, `${option}.pageSize`, `an integer from 1 to ${option}.maxPageSize (${maxPageSize})`, pageSize);
}

/** allowedHosts: at most 100 host names (`market-stub`), `.domain` entries or `*`. */
function checkAllowedHosts(value: unknown, where: string, option: string): void {
  if (!Array.isArray(value) || value.length > 100) throw optionError(where, option, 'an array of at most 100 host names', value);
  value.forEach((host: unknown, i) => {
    if (typeof host !== 'string' || host.length > 253 || !HOST_NAME.test(host)) throw optionError(where, `${option}[${i}]`, 'a host name such as "market-stub", ".ci.internal" or "*"', host);
  });
}

function checkRules(value: unknown, where: string, option: string): void {
  if (!Array.isArray(value)) throw optionError(where, option, 'an array of rules {match, behaviour, times?, id?}', value);
  value.forEach((rule: unknown, i) => {
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) throw optionError(where, `${option}[${i}]`, 'a rule {match, behaviour, times?, id?}', rule);
    // The engine's own checks, on a scratch engine: one definition of what a valid rule is. The
    // engine names a rule `rule` or `rule ID`; here it is `rules[i]`.
    try {
      createBehaviourEngine({ seed: 1, rules: [rule as BehaviourRuleInput] });
    } catch (error) {
      if (!(error instanceof MarketStubError) || error.option === undefined) throw error;
      const init = { code: error.code, where, option: error.option.replace(/^rule( [^.]+)?/, `${option}[${i}]`), expected: error.expected ?? 'a valid rule' };
      throw new MarketStubError(error.found === undefined ? init : { ...init, foundText: error.found });
    }
  });
}

function checkGlobalFaults(value: unknown, where: string, option: string): void {
  if (!Array.isArray(value)) throw optionError(where, option, 'an array of {fault, rate}', value);
  const kind: OptionKind = { type: 'choice', choices: DOMAIN_FAULTS };
  value.forEach((entry: unknown, i) => {
    const e = entry as { fault?: unknown; rate?: unknown } | null;
    if (e === null || typeof e !== 'object') throw optionError(where, `${option}[${i}]`, 'an object {fault, rate}', entry);
    if (!readTyped(kind, e.fault).ok) throw optionError(where, `${option}[${i}].fault`, expectedText(kind), e.fault);
    if (!readTyped({ type: 'number', min: 0, max: 1 }, e.rate).ok) throw optionError(where, `${option}[${i}].rate`, 'a number from 0 to 1', e.rate);
  });
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
