import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unknownFlags, type CommandSpec } from '../../src/cli/command-spec.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { readSimpleCommandLine, type CommandLineArgs } from '../../src/cli/simple-command-line.js';
import { readWithYargs } from '../../src/cli/yargs-command-line.js';
import { ConfigError, resolveOptions } from '../../src/options/resolve-options.js';

// Plain command lines are read with util.parseArgs so that running a command never
// loads yargs. The two readers must never disagree: wherever the simple one reads a line, yargs
// reads it to the same options, the same positional words and the same unknown flags.

/** What run-cli does with parsed arguments, as a comparable value. */
function outcome(command: CommandSpec, args: CommandLineArgs): unknown {
  const words = args._.map(String);
  let resolved: unknown;
  try {
    resolved = resolveOptions(command.options, { flags: args, env: {} });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    resolved = error.message;
  }
  return { words, unknown: unknownFlags(command, args), resolved };
}

async function yargsOutcome(command: CommandSpec, argv: string[]): Promise<unknown> {
  const read = await readWithYargs(argv, COMMANDS);
  return read.kind === 'args' ? outcome(command, read.args) : read;
}

const byName = (name: string) => COMMANDS.find((c) => c.name === name) as CommandSpec;

describe('the simple command-line reader', () => {
  it.each([
    ['serve'],
    ['serve', '--port', '0', '--count', '1000', '--seed', '1', '--clock', '2026-01-01'],
    ['serve', '--port=0', '--fixtures', 'fixtures', '--quiet'],
    ['serve', '--quiet', '--watch', '--fixtures', 'fixtures'],
    ['generate', '--count', '3', '--out', 'out.json'],
    ['validate', 'fixtures'],
    ['check', '--base-url', 'http://127.0.0.1:4010', '--all', '--format', 'junit'],
  ])('reads %j as yargs does, without yargs', async (...argv) => {
    const command = byName(argv[0] as string);
    const args = readSimpleCommandLine(argv, COMMANDS);
    expect(args).toBeDefined();
    expect(outcome(command, args as CommandLineArgs)).toEqual(await yargsOutcome(command, argv));
  });

  it.each([
    [['--help']], [['serve', '--help']], [['--version']], [['serve', '-h']], [[]], [['serve', '--prot', '1']],
    [['serve', '--port', '1', '--port', '2']], [['serve', '--no-cors']], [['serve', '--quiet', 'true']], [['serve', '--clock', '-1']],
    [['serve', '--', '--port']], [['serve', 'extra']], [['check', '--header', 'A: 1', '--header', 'B: 2']], [['serv']], [['serve', '--port']],
  ])('leaves %j to yargs', (argv) => {
    expect(readSimpleCommandLine(argv, COMMANDS)).toBeUndefined();
  });

  it('agrees with yargs on every line it reads (generated lines over every command\'s options)', async () => {
    const values = ['0', '1', '4010', '-1', '1.5', 'true', 'false', 'yes', 'abc', 'a b', 'x=y', '2026-01-01', 'http://127.0.0.1:1', '--', '', 'fixtures', '1e3', '0x10'];
    const line = fc.constantFrom(...COMMANDS).chain((command) => {
      const flags = [...command.options.filter((o) => !o.positional).map((o) => o.flag), 'nope'];
      const token = fc.oneof(
        fc.constantFrom(...flags).map((f) => `--${f}`),
        fc.tuple(fc.constantFrom(...flags), fc.constantFrom(...values)).map(([f, v]) => `--${f}=${v}`),
        fc.constantFrom(...values),
        fc.constantFrom('--nope', '-p', '--no-quiet', '--help', '--maxMarkets', '-1'),
      );
      return fc.array(token, { maxLength: 6 }).map((tokens) => ({ command, argv: [command.name, ...tokens] }));
    });
    let read = 0;
    await fc.assert(fc.asyncProperty(line, async ({ command, argv }) => {
      const args = readSimpleCommandLine(argv, COMMANDS);
      if (!args) return;
      read += 1;
      expect(outcome(command, args)).toEqual(await yargsOutcome(command, argv));
    }), { numRuns: 600 });
    // The property means something only if the simple reader reads a fair share of the lines.
    expect(read).toBeGreaterThan(50);
    // 600 yargs parses are CPU-bound: room for a machine shared with other test files running in parallel.
  }, 120_000);
});
