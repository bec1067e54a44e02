import { readFileSync } from 'node:fs';

/**
 * `--help` pages rendered by yargs when the package is built (scripts/render-help-pages.ts writes
 * dist/help-pages.json), so `market-stub --help` and `market-stub <command> --help` print without
 * loading yargs and the command tables: `--help` is meant to stay under 2× `node -e 0`, and
 * yargs' import alone costs more than that. Keyed by wrapping width, then by command (`''` for the
 * top-level page).
 */
export type HelpPages = Record<string, Record<string, string>>;

/** The widths pages are rendered for: a piped stdout (100) and a terminal of 110 columns or more. */
export const HELP_PAGE_WIDTHS = [100, 110] as const;

/** The width yargs wraps help to: the terminal's, at most 110 columns; 100 when stdout is not a terminal. */
export function helpWidth(columns: number | undefined): number {
  return Math.min(110, columns ?? 100);
}

/**
 * The text to print for a plain help or version request (`--help`, `<command> --help`,
 * `--version`), from the pages built beside the CLI; undefined for anything else, or when no page
 * was built for this width (a narrow terminal, or running from the sources): the caller then reads
 * the line with yargs as usual, which prints the same text.
 */
export function prerenderedOutput(argv: readonly string[], width: number, pagesFile: URL, version: string): string | undefined {
  if (argv.length === 1 && argv[0] === '--version') return `${version}\n`;
  const command = argv.length === 1 && argv[0] === '--help' ? '' : argv.length === 2 && argv[1] === '--help' ? argv[0] : undefined;
  if (command === undefined) return undefined;
  let pages: HelpPages;
  try {
    pages = JSON.parse(readFileSync(pagesFile, 'utf8')) as HelpPages;
  } catch {
    return undefined;
  }
  // An unknown command has no page: yargs words that refusal.
  return Object.hasOwn(pages[String(width)] ?? {}, command) ? pages[String(width)]?.[command] : undefined;
}
