import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { readCommandLine } from '../../src/cli/read-command-line.js';
import { parseCommandLine, type Parsed } from '../../src/cli/run-cli.js';

// One reader (util.parseArgs over the option rows) reads every command line. command-lines.json
// holds 600 lines as the 0.3 CLI (util.parseArgs for plain lines, yargs for the rest, at 3bb1b4a)
// read them: a help page, the version, a refusal's exact wording, or the command with the values
// its flags gave. Lines whose reading changed on purpose are below, each with the reason.

const io: CliIo = { stdout: () => undefined, stderr: () => undefined, env: {}, cwd: '/nonexistent', isTTY: false, signal: new AbortController().signal, stdoutStream: process.stdout };
type Recorded = { help: string } | { version: true } | { refused: string } | { run: string; given: Record<string, unknown> };
const recorded = JSON.parse(readFileSync(new URL('./command-lines.json', import.meta.url), 'utf8')) as [string[], Recorded][];

/** A reading as command-lines.json records it: the help page's first line, the values flags gave (not defaults). */
function compact(parsed: Parsed): Recorded {
  if (parsed.kind === 'output') return parsed.text.startsWith('market-stub ') ? { help: parsed.text.split('\n')[0] ?? '' } : { version: true };
  if (parsed.kind === 'refused') return { refused: parsed.message };
  const values = parsed.options.values as Record<string, unknown>;
  const origins = parsed.options.origins as Record<string, string | undefined>;
  return { run: parsed.command.name, given: Object.fromEntries(Object.entries(values).filter(([key]) => origins[key] !== 'default')) };
}

const read = async (argv: string[]) => compact(await parseCommandLine(argv, io, COMMANDS));

describe('the command-line reader', () => {
  it(`reads ${recorded.length} recorded lines as the 0.3 CLI did`, async () => {
    expect(recorded.length).toBe(600);
    for (const [argv, expected] of recorded) expect(await read(argv), JSON.stringify(argv)).toEqual(expected);
  });

  it.each([
    // yargs turned number-like words into numbers: a refusal quoted "1000" for 1e3, "16" for 0x10.
    [['serve', '1e3'], { refused: `market-stub serve: unexpected argument "1e3"; options are given as --name value. Run 'npx market-stub serve --help' for the options.` }],
    [['serve', '0x10'], { refused: `market-stub serve: unexpected argument "0x10"; options are given as --name value. Run 'npx market-stub serve --help' for the options.` }],
    // yargs also listed a camelCase copy: `---x` was refused as ---x and -x.
    [['serve', '---x'], { refused: "market-stub serve: ---x: unknown option.\nRun 'npx market-stub serve --help' for the options." }],
    // yargs made any text of a boolean flag true or false; it is read by the row's kind like every other value.
    [['serve', '--watch=-'], { refused: `market-stub serve: --watch: expected true or false, found "-".\nRun 'npx market-stub serve --help' for the options.` }],
    // After `--` every word is an argument: yargs still read a flag there.
    [['generate', '--', '--port='], { refused: `market-stub generate: unexpected argument "--port="; options are given as --name value. Run 'npx market-stub generate --help' for the options.` }],
    [['validate', '--', 'x'], { refused: `market-stub validate: unexpected argument "x"; options are given as --name value. Run 'npx market-stub validate --help' for the options.` }],
  ] as const)('%j: read on purpose differently from 0.3', async (argv, expected) => {
    expect(await read([...argv])).toEqual(expected);
  });

  it('gives each flag its value as text, repeated flags as lists, positional words as typed', () => {
    expect(readCommandLine(['check', '--header', 'A: 1', '--header=B: 2', '--all', '--max-markets', '-1', 'extra'], COMMANDS)).toEqual({
      kind: 'command', words: ['check', 'extra'], flags: { header: ['A: 1', 'B: 2'], all: true, 'max-markets': '-1' }, unknown: [],
    });
    expect(readCommandLine(['serve', '--quiet', 'false', '--no-watch', '--maxPageSize', '5', '--port', '--prot', 'x', '-p'], COMMANDS)).toEqual({
      kind: 'command', words: ['serve'], flags: { quiet: false, watch: false, 'max-page-size': '5', port: '' }, unknown: ['--prot', '-p'],
    });
    expect(readCommandLine(['validate', 'fixtures', 'more'], COMMANDS)).toMatchObject({ words: ['validate', 'more'], flags: { path: 'fixtures' } });
    expect(readCommandLine(['--help', 'check'], COMMANDS)).toEqual({ kind: 'help', command: COMMANDS.find((c) => c.name === 'check') });
  });

  it('never throws, and every refusal says what to run next (generated lines over every command\'s flags)', async () => {
    const values = ['0', '-1', '1.5', 'true', 'a b', 'x=y', '--', '', '-', 'serve', '\u0000', '--=', '-abc', '--no-', '--__proto__', '--constructor=1'];
    const line = fc.array(fc.oneof(
      fc.constantFrom(...COMMANDS.flatMap((c) => c.options.map((o) => `--${o.flag}`)), ...COMMANDS.map((c) => c.name)),
      fc.constantFrom(...values),
      fc.string({ maxLength: 8 }),
    ), { maxLength: 8 });
    await fc.assert(fc.asyncProperty(line, async (argv) => {
      const parsed = await parseCommandLine(argv, io, COMMANDS);
      if (parsed.kind === 'refused') expect(parsed.message).toMatch(/--help' for (the options|what each does)\.$|The commands are .*\.$|--name value\. Run '.*' for the options\.$/);
    }), { numRuns: 400 });
  });
});
