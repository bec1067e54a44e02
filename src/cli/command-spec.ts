import type { Argv } from 'yargs';
import { typeLabel } from '../core/option-kind.js';
import { flagName, optionKey, type AnyOptionValues, type OptionSpec, type OptionTable, type ResolvedOptions } from '../options/resolve-options.js';
import type { CliIo } from './cli-io.js';

/** What runs a command once its options are resolved and valid. */
export interface CommandRunner<V extends object = AnyOptionValues> {
  /** Runs the command; resolves to its exit code (0, 1, 2). Never exits the process. */
  run(options: ResolvedOptions<V>, io: CliIo): Promise<number>;
}

/**
 * One command as data: its name, options and examples (read eagerly for `--help` and
 * validation) and the module that runs it (loaded only when the command runs, so `--help` and
 * the other commands never pay its import cost). `V` is the values of its option table
 * (src/options/tables/): the runner reads them typed.
 */
export interface CommandSpec<V extends object = AnyOptionValues> {
  name: string;
  describe: string;
  options: OptionTable<V>;
  /** `[command line, what it does]`; `$0` is `market-stub`. */
  examples: readonly (readonly [string, string])[];
  load(): Promise<CommandRunner<V>>;
}

/** yargs' command string: `validate [path]` for a command with a positional option. */
export function commandUsage(spec: CommandSpec): string {
  const positionals = spec.options.filter((o) => o.positional).map((o) => `[${o.flag}]`);
  return [spec.name, ...positionals].join(' ');
}

/**
 * Declares a command's options on yargs for parsing and help only: every value is parsed as
 * text (booleans as booleans) and validated afterwards by resolveOptions, so a bad value,
 * choice or missing option gets the same message on every surface. Help lines carry the kind,
 * environment variables and default (`[integer] [env: MARKET_STUB_PORT, PORT] [default: 4010]`).
 */
export function declareOptions(y: Argv, spec: CommandSpec): Argv {
  // yargs ≥ 17.7 has usageConfiguration; @types/yargs 17 does not declare it yet.
  let out = (y as Argv & { usageConfiguration(config: { 'hide-types': boolean }): Argv }).usageConfiguration({ 'hide-types': true });
  for (const option of spec.options) {
    if (option.positional) {
      out = out.positional(option.flag, { type: 'string', describe: describeOption(option) });
      continue;
    }
    out = out.option(option.flag, {
      describe: describeOption(option),
      type: option.kind.type === 'boolean' ? 'boolean' : 'string',
      ...(option.group ? { group: option.group } : {}),
    });
  }
  for (const [line, what] of spec.examples) out = out.example(line, what);
  return out;
}

/** One help line: description, kind, environment variables, default or `[required]`. */
export function describeOption(option: OptionSpec): string {
  const parts = [option.describe, typeLabel(option.kind)];
  if (option.env?.length) parts.push(`[env: ${option.env.join(', ')}]`);
  if (option.required !== undefined) parts.push('[required]');
  else {
    const shown = option.defaultText ?? (option.default === undefined ? undefined : Array.isArray(option.default) ? option.default.join(',') : String(option.default));
    if (shown !== undefined) parts.push(`[default: ${shown}]`);
  }
  return parts.join(' ');
}

/** Every spelling yargs may produce for the command's options (`max-markets`, `maxMarkets`). */
export function knownKeys(spec: CommandSpec): Set<string> {
  const keys = new Set(['_', '$0', 'help', 'version']);
  for (const option of spec.options) {
    keys.add(option.flag);
    keys.add(optionKey(option));
    keys.add(option.flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()));
  }
  return keys;
}

/** The flags as the user typed them (`--prot`), leaving out yargs' camelCase copies. */
export function unknownFlags(spec: CommandSpec, argv: Readonly<Record<string, unknown>>): string[] {
  const known = knownKeys(spec);
  const unknown = Object.keys(argv).filter((k) => !known.has(k));
  const kebab = new Set(unknown.filter((k) => k.includes('-')).map((k) => k.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())));
  return unknown.filter((k) => !kebab.has(k)).map((k) => (k.length === 1 ? `-${k}` : `--${k}`));
}

/** The option names a user can type for a command, for suggestions. */
export function flagNames(spec: CommandSpec): string[] {
  return spec.options.filter((o) => !o.positional).map(flagName);
}
