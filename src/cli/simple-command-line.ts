import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandSpec } from './command-spec.js';

/**
 * A command line read into yargs' shape: `_` holds the command name and any positional words,
 * every other key is a flag as typed (kebab-case) with its text, or `true` for a boolean flag.
 */
export type CommandLineArgs = Record<string, unknown> & { _: (string | number)[] };

/**
 * Reads the plain command lines people and scripts type most (`serve --port 0 --count 1000`) with
 * Node's own `util.parseArgs`, so running a command never loads yargs (about 30 ms of start-up on
 * 2 cores, measured with --cpu-prof). Only the unambiguous form is read: the command name first, then
 * declared flags of that command, each at most once, as `--flag value`, `--flag=value` or a bare
 * boolean `--flag` followed by another flag or the end, and at most the command's one positional
 * argument. Anything else (help, version, unknown or repeated flags, `--no-…`, short flags, values
 * that start with `-`, `--`) returns undefined, and the caller reads the line with yargs, which
 * words every refusal. Where both read a line, they read it the same
 * (test/cli/command-line.test.ts checks this over generated command lines).
 */
export function readSimpleCommandLine(argv: readonly string[], commands: readonly CommandSpec[]): CommandLineArgs | undefined {
  const [name, ...rest] = argv;
  const command = commands.find((c) => c.name === name);
  if (!command) return undefined;
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const option of command.options) {
    if (!option.positional) options[option.flag] = { type: option.kind.type === 'boolean' ? 'boolean' : 'string' };
  }
  let tokens;
  try {
    ({ tokens } = parseArgs({ args: rest, options, strict: true, allowPositionals: true, tokens: true }));
  } catch {
    return undefined; // unknown flag, missing value…: yargs words the refusal
  }
  const args: CommandLineArgs = { _: [command.name] };
  const positional = command.options.find((o) => o.positional);
  for (const [i, token] of tokens.entries()) {
    if (token.kind === 'option-terminator') return undefined;
    if (token.kind === 'positional') {
      if (!positional || positional.flag in args || token.value.startsWith('-')) return undefined;
      args[positional.flag] = token.value;
      continue;
    }
    if (!token.rawName.startsWith('--') || token.name in args) return undefined;
    if (token.value === undefined) {
      // yargs takes a following `true`/`false` word as the boolean's value: leave such lines to it.
      const next = tokens[i + 1];
      if (next && next.kind === 'positional') return undefined;
      args[token.name] = true;
      continue;
    }
    if (token.value === '' || token.value.startsWith('-')) return undefined;
    args[token.name] = token.value;
  }
  return args;
}
