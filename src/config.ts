import { isCalendarDate, todayUtc } from './catalog/market-rules.js';
import type { LogFormat } from './logger.js';

/** Resolved, validated options of `market-stub serve`. */
export interface ServeConfig {
  readonly port: number;
  readonly host: string;
  /** Fixture file or directory; when set, the generated catalog options are ignored. */
  readonly fixtures: string | undefined;
  readonly seed: number;
  readonly count: number;
  /** YYYY-MM-DD (UTC). */
  readonly clock: string;
  readonly quiet: boolean;
  readonly logFormat: LogFormat;
}

/** A bad option value; `message` says which option, where it came from, what was expected and found. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Kind = 'port' | 'host' | 'path' | 'seed' | 'count' | 'date' | 'boolean' | 'log-format';

/** One serve option as data: its flag, environment variables (first wins), default and kind. */
export interface OptionSpec {
  flag: keyof ServeConfig;
  cli: string;
  env: readonly string[];
  kind: Kind;
  describe: string;
  defaultText: string;
}

/** Largest generated catalog; ids and indices stay exact integers well below this. */
export const MAX_COUNT = 100_000_000;

export const SERVE_OPTIONS: readonly OptionSpec[] = [
  { flag: 'port', cli: 'port', env: ['MARKET_STUB_PORT', 'PORT'], kind: 'port', describe: 'TCP port to listen on; 0 picks a free port', defaultText: '4010' },
  { flag: 'host', cli: 'host', env: ['MARKET_STUB_HOST', 'HOST'], kind: 'host', describe: 'Interface address to bind (0.0.0.0 in containers)', defaultText: '127.0.0.1' },
  { flag: 'fixtures', cli: 'fixtures', env: ['MARKET_STUB_FIXTURES'], kind: 'path', describe: 'Serve the markets in this JSON file or directory of JSON files instead of generated ones', defaultText: 'none: generated markets' },
  { flag: 'seed', cli: 'seed', env: ['MARKET_STUB_SEED'], kind: 'seed', describe: 'Seed of the generated catalog (integer ≥ 0)', defaultText: '1' },
  { flag: 'count', cli: 'count', env: ['MARKET_STUB_COUNT'], kind: 'count', describe: 'Number of generated markets', defaultText: '100' },
  { flag: 'clock', cli: 'clock', env: ['MARKET_STUB_CLOCK'], kind: 'date', describe: 'Clock date YYYY-MM-DD (UTC); resolution dates fall 1–730 days after it', defaultText: 'today (UTC)' },
  { flag: 'quiet', cli: 'quiet', env: ['MARKET_STUB_QUIET'], kind: 'boolean', describe: 'No request log lines (the ready line stays)', defaultText: 'false' },
  { flag: 'logFormat', cli: 'log-format', env: ['MARKET_STUB_LOG_FORMAT'], kind: 'log-format', describe: 'Log lines as text or json', defaultText: 'text' },
];

/** Raw values as the CLI parser saw them (strings, or booleans for switches); undefined when not given. */
export type RawFlags = Partial<Record<string, string | number | boolean | undefined>>;

/**
 * Resolves `serve` options with precedence flags > environment (MARKET_STUB_*, then plain PORT /
 * HOST for containers) > defaults, validates every value and returns a frozen config.
 * @throws ConfigError naming the option and its source (`--port`, `MARKET_STUB_PORT`…) on a bad value.
 */
export function resolveServeConfig(flags: RawFlags, env: Readonly<Record<string, string | undefined>>, now: Date = new Date()): ServeConfig {
  const pick = (spec: OptionSpec): { value: string | number | boolean; source: string } | undefined => {
    const fromFlag = flags[spec.cli] ?? flags[spec.flag];
    if (fromFlag !== undefined) return { value: fromFlag, source: `--${spec.cli}` };
    for (const name of spec.env) {
      const v = env[name];
      if (v !== undefined && v !== '') return { value: v, source: name };
    }
    return undefined;
  };
  const get = (flag: keyof ServeConfig) => {
    const spec = SERVE_OPTIONS.find((s) => s.flag === flag);
    if (!spec) throw new Error(`unknown option ${flag}`);
    return { spec, given: pick(spec) };
  };
  const integer = (flag: keyof ServeConfig, min: number, max: number, fallback: number): number => {
    const { given } = get(flag);
    if (!given) return fallback;
    const text = String(given.value).trim();
    const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new ConfigError(`${given.source}: expected an integer from ${min} to ${max}, found ${JSON.stringify(given.value)}.`);
    }
    return n;
  };
  const bool = (flag: keyof ServeConfig): boolean => {
    const { given } = get(flag);
    if (!given) return false;
    if (typeof given.value === 'boolean') return given.value;
    const text = String(given.value).toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(text)) return true;
    if (['0', 'false', 'no', 'off'].includes(text)) return false;
    throw new ConfigError(`${given.source}: expected true or false, found ${JSON.stringify(given.value)}.`);
  };
  const host = get('host').given;
  const fixtures = get('fixtures').given;
  const clockGiven = get('clock').given;
  if (clockGiven && !isCalendarDate(String(clockGiven.value))) {
    throw new ConfigError(`${clockGiven.source}: expected a calendar date YYYY-MM-DD, found ${JSON.stringify(clockGiven.value)}.`);
  }
  const logGiven = get('logFormat').given;
  if (logGiven && logGiven.value !== 'text' && logGiven.value !== 'json') {
    throw new ConfigError(`${logGiven.source}: expected text or json, found ${JSON.stringify(logGiven.value)}.`);
  }
  if (host && String(host.value).trim() === '') throw new ConfigError(`${host.source}: expected an interface address, found an empty string.`);
  return Object.freeze({
    port: integer('port', 0, 65_535, 4010),
    host: host ? String(host.value) : '127.0.0.1',
    fixtures: fixtures ? String(fixtures.value) : undefined,
    seed: integer('seed', 0, Number.MAX_SAFE_INTEGER, 1),
    count: integer('count', 0, MAX_COUNT, 100),
    clock: clockGiven ? String(clockGiven.value) : todayUtc(now),
    quiet: bool('quiet'),
    logFormat: (logGiven?.value as LogFormat | undefined) ?? 'text',
  });
}
