import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { HELP_PAGE_WIDTHS, type HelpPages } from '../../src/cli/help-pages.js';
import { readWithYargs } from '../../src/cli/yargs-command-line.js';
import { runCliProcess } from '../support/cli-process.js';

// `--help` prints pages yargs rendered at build time (dist/help-pages.json) instead of
// loading yargs. They must be exactly what yargs prints from the current code.
const pages = JSON.parse(readFileSync(new URL('../../dist/help-pages.json', import.meta.url), 'utf8')) as HelpPages;

describe('pre-rendered help pages', () => {
  it.each(HELP_PAGE_WIDTHS.flatMap((width) => ['', ...COMMANDS.map((c) => c.name)].map((command) => [width, command] as const)))('width %i, %j: the page is what yargs renders', async (width, command) => {
    const read = await readWithYargs(command ? [command, '--help'] : ['--help'], COMMANDS, width);
    expect(read.kind).toBe('output');
    expect(pages[String(width)]?.[command], 'npm run build writes dist/help-pages.json').toBe(read.kind === 'output' ? read.text : undefined);
  });

  it('name the program, never a placeholder yargs left unexpanded ($0 in an example description)', () => {
    for (const [width, byCommand] of Object.entries(pages)) {
      for (const [command, page] of Object.entries(byCommand)) expect(page, `width ${width}, ${JSON.stringify(command)}`).not.toContain('$0');
    }
  });

  it('a process prints the page for its width, and yargs still answers what has no page', async () => {
    const serve = await runCliProcess(['serve', '--help']);
    expect(serve.code).toBe(0);
    expect(serve.stdout).toBe(pages['100']?.['serve']);
    const typo = await runCliProcess(['serv', '--help']);
    expect(typo.code).toBe(0); // yargs: an unknown command with --help prints the top-level help
    expect(typo.stdout).toContain('Commands:');
  });
});
