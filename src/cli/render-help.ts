import { HelpLayout } from './help-layout.js';
import { commandUsage, describeOption, type CommandSpec } from './command-spec.js';

/** The program's name in usage lines and examples (`$0` in a command's examples). */
const PROGRAM = 'market-stub';
const SUMMARY = 'Stub server and contract checker for the Prediction Market Data Service.';
/** The heading of a command's positional argument, and of the flags every page has. */
const POSITIONALS = 'Positionals:';
const OPTIONS = 'Options:';
const HELP_AND_VERSION: readonly Row[] = [
  { name: '--help', text: 'Show help', type: '[boolean]' },
  { name: '--version', text: 'Show version number', type: '[boolean]' },
];

/** One line of a table: the left column (a flag, a command, an example), its text, and a right-aligned type (top-level page only). */
interface Row {
  name: string;
  text: string;
  type?: string;
}

/** The wrapping width of help: the terminal's, at most 110 columns; 100 when stdout is not a terminal. */
export function helpWidth(columns: number | undefined): number {
  return Math.min(110, columns ?? 100);
}

/**
 * The `--help` page of `command` (the top-level page, listing the commands, when undefined),
 * wrapped to `width` columns, ending in a newline. Rendered from the same rows the command line is
 * read with (each row's description, kind, variables and default: describeOption), laid out with
 * help-layout.ts in the layout the CLI has printed since 0.1 (test/cli/help-pages.test.ts holds the pages).
 */
export function renderHelp(commands: readonly CommandSpec[], command: CommandSpec | undefined, width: number): string {
  const ui = new HelpLayout(width);
  if (!command) {
    ui.div({ text: `${PROGRAM} <command> [options]\n\n${SUMMARY}` });
    ui.div();
    table(ui, 'Commands:', commands.map((c) => ({ name: `${PROGRAM} ${commandUsage(c)}`, text: c.describe })), width);
    table(ui, OPTIONS, HELP_AND_VERSION, width, true);
    return `${ui.toString().replace(/\s*$/, '')}\n`;
  }
  ui.div({ text: `${PROGRAM} ${commandUsage(command)}` });
  ui.div({ text: command.describe, padding: [1, 0, 0, 0] });
  ui.div();
  for (const [heading, rows] of optionGroups(command)) table(ui, heading, rows, width, false);
  const examples = command.examples.map(([line, what]) => ({ name: line.replace(/\$0/g, PROGRAM), text: what }));
  if (examples.length > 0) {
    ui.div({ text: 'Examples:' });
    const left = leftWidth(examples, width);
    for (const example of examples) ui.div({ text: example.name, padding: [0, 2, 0, 2], width: left }, { text: example.text });
    ui.div();
  }
  return `${ui.toString().replace(/\s*$/, '')}\n`;
}

/** A command's flags by help heading, headings in the order their first row appears; `Options:` (help, version) last. */
function optionGroups(command: CommandSpec): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const option of command.options) {
    const heading = option.positional ? POSITIONALS : (option.group ?? OPTIONS);
    const rows = groups.get(heading) ?? [];
    if (heading === OPTIONS && rows.length === 0) rows.push(...HELP_AND_VERSION);
    rows.push({ name: option.positional ? option.flag : `--${option.flag}`, text: describeOption(option) });
    groups.set(heading, rows);
  }
  if (!groups.has(OPTIONS)) groups.set(OPTIONS, [...HELP_AND_VERSION]);
  return groups;
}

/** The left column's width: its widest entry (code points: the rows are ASCII and Latin punctuation), at most half the page, plus padding. */
function leftWidth(rows: readonly Row[], width: number): number {
  return Math.min(Math.max(0, ...rows.map((r) => [...r.name].length)), Math.trunc(width * 0.5)) + 4;
}

/**
 * A heading, then two columns: the left (a command, a flag) as wide as leftWidth, the text wrapped
 * beside it and, with `types`, each row's type right-aligned after it; a blank line ends the table.
 */
function table(ui: HelpLayout, heading: string, rows: readonly Row[], width: number, types = false): void {
  ui.div({ text: heading });
  const left = leftWidth(rows, width);
  for (const row of rows) {
    ui.span({ text: row.name, padding: [0, 2, 0, 2], width: left }, { text: row.text });
    if (types && row.type) ui.div({ text: row.type, padding: [0, 0, 0, 2], alignRight: true });
    else ui.div();
  }
  ui.div();
}
