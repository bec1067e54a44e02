import type { CommandSpec } from './command-spec.js';

/**
 * Flags other tools use for an option market-stub names differently, per option: `--url` is
 * `--base-url` (Prism's and curl's habit). Too far from the real name for the edit-distance
 * suggestion, so listed here.
 */
const FLAG_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  '--base-url': ['--url', '--base', '--target', '--server', '--endpoint', '--host-url', '--api-url'],
  '--fixtures': ['--data', '--file', '--markets'],
  '--out': ['--output-dir', '--dir'],
};

/** `--base-url` for `--url` when the command has `--base-url`; undefined for no synonym it has. */
export function synonymFlag(flag: string, known: readonly string[]): string | undefined {
  return Object.entries(FLAG_SYNONYMS).find(([real, others]) => others.includes(flag) && known.includes(real))?.[0];
}

/**
 * What to say about an argument a command takes no positional for: a URL given bare to a
 * command with `--base-url` (`check http://…`) is meant as that option.
 * @returns the end of the refusal's sentence, or undefined for the generic wording.
 */
export function bareArgumentHint(command: CommandSpec, argument: string): string | undefined {
  if (!command.options.some((o) => o.flag === 'base-url') || !/^https?:\/\//i.test(argument)) return undefined;
  return `the deployment is given as --base-url ${argument}`;
}
