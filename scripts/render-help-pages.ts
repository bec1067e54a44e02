// Renders every `--help` page with yargs, at each width the CLI prints pre-rendered pages for, as
// JSON on stdout: scripts/build.mjs writes it to dist/help-pages.json. Run from the sources
// (node --import tsx), so the pages are the very ones readWithYargs prints.
import { COMMANDS } from '../src/cli/commands.js';
import { HELP_PAGE_WIDTHS, type HelpPages } from '../src/cli/help-pages.js';
import { readWithYargs } from '../src/cli/yargs-command-line.js';

/** Every help page (top level `''` and each command) at every pre-rendered width. */
export async function renderHelpPages(): Promise<HelpPages> {
  const pages: HelpPages = {};
  for (const width of HELP_PAGE_WIDTHS) {
    const byCommand: Record<string, string> = {};
    for (const command of ['', ...COMMANDS.map((c) => c.name)]) {
      const read = await readWithYargs(command ? [command, '--help'] : ['--help'], COMMANDS, width);
      if (read.kind !== 'output') throw new Error(`yargs printed no help for ${JSON.stringify(command)} at width ${width}`);
      byCommand[command] = read.text;
    }
    pages[String(width)] = byCommand;
  }
  return pages;
}

process.stdout.write(JSON.stringify(await renderHelpPages()));
