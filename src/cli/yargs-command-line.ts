import { packageVersion } from '../core/package-info.js';
import { commandUsage, declareOptions, type CommandSpec } from './command-spec.js';
import type { CommandLineArgs } from './simple-command-line.js';
import { helpWidth } from './help-pages.js';
import { CLI_HINT } from '../core/cli-hint.js';

/** What yargs made of a command line: text to print (help, version), a refusal, or the parsed arguments. */
export type YargsReading =
  | { kind: 'output'; text: string }
  | { kind: 'refused'; message: string }
  | { kind: 'args'; args: CommandLineArgs };

/**
 * Reads a command line with yargs, which every command declares its options to (help lines,
 * `--version`, and the wording of parse failures). Prints nothing itself and never exits.
 * `width` is the help's wrapping width (helpWidth of the terminal by default).
 */
export async function readWithYargs(argv: readonly string[], commands: readonly CommandSpec[], width = helpWidth(process.stdout.columns)): Promise<YargsReading> {
  // yargs (ESM only) loads from node_modules when a line needs it: the CLI bundle is CommonJS and
  // does not carry it (scripts/build.mjs), and a plain command line never gets here.
  const { default: yargs } = await import('yargs');
  let failure: string | undefined;
  let output = '';
  let parser = yargs([...argv])
    .scriptName('market-stub')
    .usage('$0 <command> [options]\n\nStub server and contract checker for the Prediction Market Data Service.')
    .env(false)
    .help()
    .version(packageVersion())
    .wrap(width)
    .exitProcess(false)
    .fail((message, error) => {
      failure = error?.message ?? message;
    });
  for (const command of commands) parser = parser.command(commandUsage(command), command.describe, (y) => declareOptions(y, command));
  const args = (await parser.parseAsync([...argv], {}, (_error, _argv, out) => {
    output = out;
  })) as CommandLineArgs;
  if (failure !== undefined) return { kind: 'refused', message: `market-stub: ${failure}. Run '${CLI_HINT} --help' for the commands.` };
  if (output) return { kind: 'output', text: `${output}\n` };
  return { kind: 'args', args };
}
