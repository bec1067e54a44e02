import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { wrapText } from '../../src/cli/help-layout.js';
import { helpWidth, renderHelp } from '../../src/cli/render-help.js';
import { runCliProcess } from '../support/cli-process.js';

// `--help` pages are rendered from the option rows when asked for. help-pages.json holds every page
// as the 0.3 CLI printed it (yargs 18.2.0 with cliui 9 at 3bb1b4a) at 40, 60, 80, 100 (a piped
// stdout) and 110 columns (the widest): the rendering must not move by a character. A deliberate change of layout updates
// that file; a changed row (description, default, variable) changes the pages, and the file with it.
// One such change since 0.3: serve's `Server:` heading lists the options the library also takes
// (port, host, shutdown-grace, cors) before serve's own (src/options/tables/serve-options.ts).
const pages = JSON.parse(readFileSync(new URL('./help-pages.json', import.meta.url), 'utf8')) as Record<string, Record<string, string>>;
const cases = Object.entries(pages).flatMap(([width, byCommand]) => Object.keys(byCommand).map((command) => [Number(width), command] as const));

describe('help pages rendered from the option rows', () => {
  it.each(cases)('width %i, %j: the page the 0.3 CLI printed', (width, command) => {
    expect(renderHelp(COMMANDS, COMMANDS.find((c) => c.name === command), width)).toBe(pages[String(width)]?.[command]);
  });

  it('covers every command, and names the program where an example says $0', () => {
    expect(Object.keys(pages['100'] ?? {})).toEqual(['', ...COMMANDS.map((c) => c.name)]);
    for (const width of [40, 100]) for (const command of [undefined, ...COMMANDS]) expect(renderHelp(COMMANDS, command, width)).not.toContain('$0');
  });

  it('wraps to the terminal, at most 110 columns; 100 when stdout is no terminal', () => {
    expect([helpWidth(undefined), helpWidth(80), helpWidth(200)]).toEqual([100, 80, 110]);
    for (const line of renderHelp(COMMANDS, COMMANDS[0], 60).split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('wraps any text within its column, cutting only words longer than a line, keeping every character', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }).map((t) => t.replace(/\r/g, '')), fc.integer({ min: 1, max: 60 }), (text, columns) => {
      const lines = wrapText(text, columns);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
      expect(lines.join('').replace(/\s/g, '')).toBe(text.normalize().replace(/\s/g, ''));
    }), { numRuns: 500 });
    expect(wrapText('aaaaaaa bb', 3)).toEqual(['aaa', 'aaa', 'a', 'bb']);
    expect(wrapText('   ', 5)).toEqual(['']);
  });

  it('a process prints the page, exit 0; an unknown command with --help gets the top-level page', async () => {
    const serve = await runCliProcess(['serve', '--help']);
    expect(serve.code).toBe(0);
    expect(serve.stderr).toBe('');
    expect(serve.stdout).toBe(pages['100']?.['serve']);
    const typo = await runCliProcess(['serv', '--help']);
    expect(typo.code).toBe(0);
    expect(typo.stdout).toBe(pages['100']?.['']);
    const version = await runCliProcess(['serve', '--port', '1', '--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
