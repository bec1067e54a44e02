import { expectedText, readText, readTyped, type OptionValue } from '../floor/option-kind.js';
import type { LocatedProblem } from '../floor/located-problem.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import type { OptionSpec } from '../floor/option-spec.js';

declare const VALUES: unique symbol;

/**
 * A command's option table: its rows, read as plain `OptionSpec`s (help, yargs, the config file's
 * schema iterate them), carrying the type of its resolved values for resolveOptions and the command
 * that runs with them. Made by optionTable (option-values.ts).
 */
export type OptionTable<V extends object> = readonly OptionSpec[] & { readonly [VALUES]?: V };

/** Where values come from, highest precedence first: flags, environment, config file (typed JSON). */
export interface OptionSources {
  /** Parsed command line (keys as typed, kebab-case). */
  flags: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string | undefined>>;
  /** A config file's section for this command: typed values by key, and how to name where a key sits. */
  config?: ConfigSection;
}

/** A command's section of a config file, already checked against its JSON Schema. */
export interface ConfigSection {
  /** Typed values by option key (relative paths already resolved against the file's folder). */
  values: Readonly<Record<string, unknown>>;
  /** `market-stub.config.json /serve/port`: where a key sits, for messages and `--print-config`. */
  origin: (key: string) => string;
  /** The file as named (`market-stub.config.json`, or the `--config` value). */
  file: string;
}

/** Resolved values of a table not known at compile time: any key, any kind. */
export type AnyOptionValues = Readonly<Record<string, OptionValue | undefined>>;

/**
 * Every option's value (undefined when not set and without default) and where it came from.
 * `V` types the values from the command's table (`OptionValues<typeof SERVE_OPTIONS>`, option-values.ts):
 * `values.port` is a number, and a key the table lacks does not compile.
 */
export interface ResolvedOptions<V extends object = AnyOptionValues> {
  readonly values: V;
  /** `--port`, `MARKET_STUB_PORT`, `market-stub.config.json /serve/port`, `default`, by option key. */
  readonly origins: { readonly [K in keyof V]?: string };
  /** The config file section the values were resolved with, when there was one (for what has no flag: serve's inline rules). */
  readonly config?: ConfigSection;
}

/**
 * One bad value, as a located problem (floor/located-problem.ts) that also names the option the way
 * the user gave it. `pointer` is the RFC 6901 pointer into the config file when the value came from
 * one (`/serve/port`), else `''` (a flag's or a variable's whole value); `found` is the JSON text of
 * what was given, `nothing (missing)`, or `not shown (it may be a secret)`.
 */
export interface OptionProblem extends LocatedProblem {
  /** The option as given: `--port`, `PORT`, `market-stub.config.json /serve/port`. */
  option: string;
}

/** `found` of a problem whose value is not shown. */
const NOT_SHOWN = 'not shown (it may be a secret)';
/** `found` of a problem about a value nobody gave. */
export const MISSING = 'nothing (missing)';

/**
 * Bad options of a command: the MarketStubError OPTION_INVALID (the one error of a bad option on
 * every surface) whose `findings` are every problem found, each naming its option as the user gave
 * it (`problems`: the same list, typed with `option`). The CLI prints the message (one line per
 * problem) and exits 2 before anything starts.
 */
export class ConfigError extends MarketStubError {
  readonly problems: readonly OptionProblem[];
  constructor(problems: readonly OptionProblem[] | string) {
    const list = typeof problems === 'string' ? [{ option: '', pointer: '', expected: '', found: '', message: problems }] : problems;
    super({ code: 'OPTION_INVALID', where: 'market-stub', message: list.map((p) => p.message).join('\n'), findings: list });
    this.name = 'ConfigError';
    this.problems = list;
  }
}

/** The key of an option in config files and results. */
export function optionKey(spec: OptionSpec): string {
  return spec.key ?? spec.flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** `--port`, or `<path>` for a positional. */
export function flagName(spec: OptionSpec): string {
  return spec.positional ? `<${spec.flag}>` : `--${spec.flag}`;
}

/**
 * Resolves a command's options with precedence flag > environment > config file > default,
 * reading each value with its kind (one reader per kind for every surface).
 * @throws ConfigError listing every bad or missing value, each naming where it came from.
 */
export function resolveOptions<V extends object = AnyOptionValues>(specs: OptionTable<V>, sources: OptionSources): ResolvedOptions<V> {
  const values: Record<string, OptionValue | undefined> = {};
  const origins: Record<string, string> = {};
  const problems: OptionProblem[] = [];
  for (const spec of specs) {
    const key = optionKey(spec);
    const given = findGiven(spec, sources);
    if (!given) {
      if (spec.required !== undefined) problems.push(missing(spec));
      values[key] = spec.default;
      origins[key] = 'default';
      continue;
    }
    const read = given.typed ? readTyped(spec.kind, given.value) : readText(spec.kind, given.value, given.origin === flagName(spec));
    if (read.ok) {
      values[key] = read.value;
      origins[key] = given.origin;
    } else {
      problems.push(spec.secret ? problem(given.origin, read.expected, undefined, 'The value is not shown: it may be a secret.') : problem(given.origin, read.expected, given.value));
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  // Each key was set above from its row, with a value its kind read (or its default): the shape the table's type describes (option-values.ts).
  const typed = values as V;
  return sources.config ? { values: typed, origins, config: sources.config } : { values: typed, origins };
}

/**
 * A problem about an option value, worded as every surface words it: `ORIGIN: expected …, found "…".`
 * `found` undefined is a value not shown (a secret), unless `foundText` gives it as text; `pointer` locates it in a config file.
 */
export function problem(option: string, expected: string, found: unknown, hint = '', pointer = '', foundText?: string): OptionProblem {
  const shown = foundText ?? (found === undefined ? undefined : JSON.stringify(Array.isArray(found) && found.length === 1 ? found[0] : found));
  const tail = shown === undefined ? '' : `, found ${shown}`;
  return { option, pointer, expected, found: shown ?? NOT_SHOWN, message: `${option}: expected ${expected}${tail}.${hint ? ` ${hint}` : ''}` };
}

function missing(spec: OptionSpec): OptionProblem {
  const name = flagName(spec);
  const env = spec.env?.[0];
  return {
    option: name,
    pointer: '',
    expected: spec.required ?? expectedText(spec.kind),
    found: MISSING,
    message: `${name}: required: ${spec.required}${env ? `, or set ${env}` : ''}.`,
  };
}

function findGiven(spec: OptionSpec, sources: OptionSources): { value: unknown; origin: string; typed: boolean } | undefined {
  const key = optionKey(spec);
  const flag = sources.flags[spec.flag] ?? sources.flags[key];
  if (flag !== undefined && !(Array.isArray(flag) && flag.length === 0)) return { value: flag, origin: flagName(spec), typed: false };
  for (const name of spec.env ?? []) {
    const value = sources.env[name];
    if (value !== undefined && value !== '') return { value, origin: name, typed: false };
  }
  const config = sources.config;
  if (config && !spec.cliOnly && config.values[key] !== undefined) return { value: config.values[key], origin: config.origin(key), typed: true };
  return undefined;
}
