import { nearestName } from '../floor/nearest-name.js';
import { ConfigError, resolveOptions, type ResolvedOptions } from '../options/resolve-options.js';
import { EXIT, type CliIo } from './cli-io.js';
import { flagNames, type CommandSpec } from './command-spec.js';
import { COMMANDS } from './commands.js';
import { readCommandLine } from './read-command-line.js';
import { helpWidth, renderHelp } from './render-help.js';
import { packageVersion } from '../floor/package-info.js';
import { CONFIG_SECTIONS } from '../config-file/config-schema.js';
import { loadConfigSection, locateConfigFile } from '../config-file/load-config-file.js';
import { CLI_HINT } from '../floor/cli-hint.js';
import { bareArgumentHint, synonymFlag } from './argument-hints.js';

/** What the command line asks for, before anything runs. */
export type Parsed =
  | { kind: 'output'; text: string }
  | { kind: 'refused'; message: string }
  | { kind: 'run'; command: CommandSpec; options: ResolvedOptions };

/**
 * Runs the market-stub command line and resolves to its exit code (0 ok, 1 failed check, 2 could
 * not run). Stages: read the line over the commands' option rows (readCommandLine; help pages are
 * rendered from the same rows, `io.columns` wide at most) → refuse unknown commands, flags and
 * extra arguments → resolve and validate every option (flag > environment > config file >
 * default) → load and run the command (its one lazy load). A refusal
 * prints one message on stderr, nothing on stdout, and returns 2 before any port is bound, file
 * written or request made. Never exits the process; `src/cli.ts` does
 * that with the returned code.
 */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly CommandSpec[] = COMMANDS): Promise<number> {
  const parsed = await parseCommandLine(argv, io, commands);
  switch (parsed.kind) {
    case 'output':
      io.stdout(parsed.text);
      return EXIT.ok;
    case 'refused':
      io.stderr(`${parsed.message}\n`);
      return EXIT.couldNotRun;
    case 'run': {
      const runner = await parsed.command.load();
      return runner.run(parsed.options, io);
    }
  }
}

/** What the command line asks for (exported for the reader's tests): output, a refusal, or a command to run with its resolved options. */
export async function parseCommandLine(argv: readonly string[], io: CliIo, commands: readonly CommandSpec[]): Promise<Parsed> {
  const read = readCommandLine(argv, commands);
  if (read.kind === 'help') return { kind: 'output', text: renderHelp(commands, read.command, helpWidth(io.columns)) };
  if (read.kind === 'version') return { kind: 'output', text: `${packageVersion()}\n` };
  const { flags: args, unknown } = read;
  const [name, ...extra] = read.words;
  const names = commands.map((c) => c.name);
  if (name === undefined) return { kind: 'refused', message: `market-stub: name a command: ${names.join(', ')}. Run '${CLI_HINT} --help' for what each does.` };
  const command = commands.find((c) => c.name === name);
  if (!command) return { kind: 'refused', message: `market-stub: unknown command ${JSON.stringify(name)}${suggest(name, names)} The commands are ${names.join(', ')}.` };
  const prefix = `market-stub ${command.name}:`;
  const help = `Run '${CLI_HINT} ${command.name} --help' for the options.`;
  if (unknown.length > 0) {
    const known = flagNames(command);
    const lines = unknown.map((flag) => {
      const synonym = synonymFlag(flag, known);
      return `${flag}: unknown option${synonym ? `; did you mean ${synonym}?` : suggest(flag, known)}`;
    });
    return { kind: 'refused', message: `${prefix} ${lines.join(`\n${prefix} `)}\n${help}` };
  }
  if (extra.length > 0) return { kind: 'refused', message: `${prefix} unexpected argument ${JSON.stringify(extra[0])}; ${bareArgumentHint(command, String(extra[0])) ?? 'options are given as --name value'}. ${help}` };
  try {
    return { kind: 'run', command, options: await resolveWithConfigFile(command, args, io) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { kind: 'refused', message: `${prefix} ${error.problems.map((p) => p.message).join(`\n${prefix} `)}\n${help}` };
  }
}

/**
 * Resolves a command's options, with its section of the config file when it reads one (`serve`):
 * `--config`, `MARKET_STUB_CONFIG`, or market-stub.config.json in the working directory.
 * @throws ConfigError for a config file that cannot be read or breaks its schema, or bad values.
 */
async function resolveWithConfigFile(command: CommandSpec, args: Readonly<Record<string, unknown>>, io: CliIo): Promise<ResolvedOptions> {
  if (!Object.hasOwn(CONFIG_SECTIONS, command.name)) return resolveOptions(command.options, { flags: args, env: io.env });
  const location = locateConfigFile(args['config'], io.env, io.cwd ?? '.');
  if (!location) return resolveOptions(command.options, { flags: args, env: io.env });
  const resolved = resolveOptions(command.options, { flags: args, env: io.env, config: loadConfigSection(location, command.name) });
  if (location.origin !== 'working directory') return resolved;
  return { ...resolved, values: { ...resolved.values, config: location.file }, origins: { ...resolved.origins, config: 'working directory' } };
}

/** `; did you mean --port?` when a known name is near (floor/nearest-name.ts), else `.`: the end of a sentence either way. */
function suggest(given: string, known: readonly string[]): string {
  const near = nearestName(given, known);
  return near === undefined ? '.' : `; did you mean ${near}?`;
}
