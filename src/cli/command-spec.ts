import { typeLabel } from '../floor/option-kind.js';
import { flagName, type AnyOptionValues, type OptionTable, type ResolvedOptions } from '../options/resolve-options.js';
import type { OptionSpec } from '../floor/option-spec.js';
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

/** The command as its help's usage line names it: `validate [path]` for a command with a positional option. */
export function commandUsage(spec: CommandSpec): string {
  const positionals = spec.options.filter((o) => o.positional).map((o) => `[${o.flag}]`);
  return [spec.name, ...positionals].join(' ');
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

/** The option names a user can type for a command, for suggestions. */
export function flagNames(spec: CommandSpec): string[] {
  return spec.options.filter((o) => !o.positional).map(flagName);
}
