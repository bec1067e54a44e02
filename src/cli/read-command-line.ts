import { parseArgs } from 'node:util';
import type { CommandSpec } from './command-spec.js';

/**
 * What a command line asks for: a help page (of a command, or the top-level page when `command`
 * is undefined), the version, or a command with its flags. `words` are the positional words after
 * the flags were read (the command name first, when one was given), as typed; `flags` holds each
 * declared flag given (kebab-case, the row's `flag`) with its text, `true`/`false` for a boolean,
 * and an array of texts when it was given more than once; the positional option's word is under
 * its row's `flag` too. `unknown` lists flags the command does not declare, as typed (`--prot`, `-p`).
 */
export type CommandLineReading =
  | { kind: 'help'; command: CommandSpec | undefined }
  | { kind: 'version' }
  | { kind: 'command'; words: string[]; flags: Record<string, unknown>; unknown: string[] };

/** A flag read from the line: its name as declared (or as typed when undeclared), its value, and how it was typed. */
interface FlagToken {
  name: string;
  typed: string;
  value: string | boolean;
}

/** A number as a flag's value (`--clock -1`): a word starting with `-` that is still a value, not a flag. */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;
const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = { true: true, false: false };

/**
 * Reads a command line over the commands' option rows with Node's `util.parseArgs` (which splits
 * `--flag=value`, short groups `-abc` and the `--` terminator). The rules are those the CLI has
 * always had (test/cli/command-line.test.ts pins them): the command is the first positional word;
 * `--flag value` takes the next word as the value of a non-boolean flag unless it starts with `-`
 * (a negative number such as `-1` is still a value), and a bare non-boolean flag is `''`; a boolean
 * flag takes a following `true`/`false` word; `--no-flag` is `false`; camelCase spellings
 * (`--maxPageSize`) are the kebab-case flag; a flag given twice is an array of its values; words
 * after `--` are positional. `--help` anywhere before `--` asks for the page of the command named
 * (else the top-level page), else `--version` for the version (the last mention of either wins:
 * `--version false` is off). Never throws.
 */
export function readCommandLine(argv: readonly string[], commands: readonly CommandSpec[]): CommandLineReading {
  // First pass: nothing declared, so every flag may take a value (as an unknown flag does): the
  // first positional word left is the command.
  const name = readTokens(argv, undefined).words[0];
  const command = commands.find((c) => c.name === name);
  const { words, flags: tokens, terminated } = readTokens(argv, command);
  if (asked(tokens, 'help')) return { kind: 'help', command };
  if (asked(tokens, 'version')) return { kind: 'version' };
  const declared = new Set(command?.options.map((o) => o.flag));
  const positional = command?.options.find((o) => o.positional);
  const flags: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const token of tokens) {
    if (!declared.has(token.name) || token.name === positional?.flag) {
      if (!unknown.includes(token.typed) && token.name !== 'help' && token.name !== 'version') unknown.push(token.typed);
      continue;
    }
    const before = flags[token.name];
    flags[token.name] = before === undefined ? token.value : [...(Array.isArray(before) ? before : [before]), token.value];
  }
  // The command's one positional argument is its first word after the command name (before `--`).
  if (positional && words.length - terminated > 1) flags[positional.flag] = words.splice(1, 1)[0];
  return { kind: 'command', words, flags, unknown };
}

/**
 * The flags and positional words of `argv`, with values taken by the rules of readCommandLine for
 * `command`'s rows (no command: every flag but `--help`/`--version` may take a value).
 */
function readTokens(argv: readonly string[], command: CommandSpec | undefined): { words: string[]; flags: FlagToken[]; terminated: number } {
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true });
  const booleans = new Set(['help', 'version', ...(command?.options.filter((o) => o.kind.type === 'boolean').map((o) => o.flag) ?? [])]);
  const camel = new Map(command?.options.map((o) => [camelCase(o.flag), o.flag]));
  const words: string[] = [];
  const flags: FlagToken[] = [];
  let taken = -1; // the argv index of a word a flag took as its value
  let terminator = -1;
  for (const token of tokens) {
    if (token.index === taken) continue;
    if (token.kind === 'option-terminator') terminator = token.index;
    else if (token.kind === 'positional') words.push(token.value);
    else if (NEGATIVE_NUMBER.test(argv[token.index] ?? '')) {
      words.push(argv[token.index] ?? '');
      taken = token.index;
    }
    else if (!token.rawName.startsWith('--')) flags.push({ name: token.name, typed: token.rawName, value: true });
    else {
      const negated = token.value === undefined && /^no-./.test(token.name) ? token.name.slice(3) : undefined;
      const name = camel.get(negated ?? token.name) ?? negated ?? token.name;
      if (negated !== undefined) {
        flags.push({ name, typed: `--${negated}`, value: false });
        continue;
      }
      const next = argv[token.index + 1];
      const takesNext = token.value === undefined && next !== undefined && (booleans.has(name) ? Object.hasOwn(BOOLEAN_WORDS, next) : next !== '--' && (!next.startsWith('-') || NEGATIVE_NUMBER.test(next)));
      if (takesNext) taken = token.index + 1;
      const value = token.value ?? (booleans.has(name) ? (takesNext ? BOOLEAN_WORDS[next] === true : true) : takesNext ? next : '');
      flags.push({ name, typed: token.rawName, value });
    }
  }
  const terminated = terminator < 0 ? 0 : argv.length - terminator - 1;
  return { words, flags, terminated };
}

/** Whether `--help` (or `--version`) is on: its last mention wins (`--version false` is off). */
function asked(flags: readonly FlagToken[], name: 'help' | 'version'): boolean {
  const last = flags.filter((t) => t.name === name).at(-1)?.value;
  return last === true || last === 'true';
}

/** `max-page-size` → `maxPageSize`. */
function camelCase(flag: string): string {
  return flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
