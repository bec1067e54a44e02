// `npm run bench:compare` end to end at the smallest size: this build compared with itself (the
// same dist/cli.cjs as --base-cli), so it runs without a second checkout. It asserts the tool
// measured every server and printed every ratio, never what the figures are (no timing assertions).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runBenchScript } from './run-script.js';

const runCompare = (args: string[]) => runBenchScript('bench/compare-builds.ts', args, 90_000);

/** The rows of the table under `### title…`: server name → its cells. */
function rowsUnder(stdout: string, title: string): Map<string, string[]> {
  const section = stdout.split('### ').find((s) => s.startsWith(title)) ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| server'));
  return new Map(rows.map((line) => {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    return [cells[0] ?? '', cells.slice(1)];
  }));
}

describe('bench:compare (this build against another, interleaved)', () => {
  it('measures CPU per request, req/s, p99 and cold start of both builds, logged and --quiet, with their ratios', { timeout: 120_000 }, async () => {
    const cli = path.join(ROOT, 'dist/cli.cjs');
    const { code, stdout, stderr } = await runCompare(['--base-cli', cli, '--rounds', '1', '--duration', '0.2', '--cold-starts', '1', '--count', '50']);
    expect(code, stderr).toBe(0);
    for (const title of ['GET /markets/{id}: server CPU per request', 'GET /markets/{id}: requests per second', 'GET /markets/{id}: p99 latency', 'Cold start']) {
      const rows = rowsUnder(stdout, title);
      expect([...rows.keys()], title).toEqual(['baseline', 'base', 'this', 'base --quiet', 'this --quiet']);
      for (const [server, [value, toBaseline, toBase]] of rows) {
        expect(Number(value?.replaceAll(',', '')), `${title} ${server}`).toBeGreaterThan(0);
        expect(toBaseline, `${title} ${server}`).toMatch(/^\d+\.\d\d×$/);
        if (server.startsWith('this')) expect(toBase, `${title} ${server}`).toMatch(/^\d+\.\d\d×$/);
        else expect(toBase, `${title} ${server}`).toBe('');
      }
    }
  });

  it('refuses to run without --base-cli or with one that does not exist, saying what to do', { timeout: 60_000 }, async () => {
    const missing = await runCompare([]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--base-cli is required');
    expect(missing.stderr).toContain('Usage: npm run bench:compare');
    const absent = await runCompare(['--base-cli', path.join(ROOT, 'no-such-build/cli.cjs'), '--rounds', '1', '--duration', '0.2', '--cold-starts', '0', '--count', '10']);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain(`bench:compare: --base-cli ${path.join(ROOT, 'no-such-build/cli.cjs')}: no such file; build the other checkout first`);
    expect(absent.stdout).toBe('');
  });
});
