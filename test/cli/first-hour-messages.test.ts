// One message per problem, worded for where the user is: a bad save under --watch is reported
// once, in one stream; mistaken check arguments get a suggestion; hints are runnable commands.
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServeProcess, type ServedProcess } from '../support/cli-process.js';
import { runCliInProcess } from '../contract/contract-report-helpers.js';

const MARKET = { market_id: 'a', title: 'Will a?', status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2099-01-01' };
const running: ServedProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

/** Serves a one-market fixture file with --watch, saves it broken the way editors do (write a temporary file, rename it over), and waits for the reload to settle. */
async function badSave(extra: string[]): Promise<{ stdout: string; stderr: string; file: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-watch-'));
  const file = path.join(dir, 'markets.json');
  writeFileSync(file, JSON.stringify([MARKET]));
  const stub = await startServeProcess(['--port', '0', '--fixtures', file, '--watch', ...extra]);
  running.push(stub);
  writeFileSync(path.join(dir, 'saving.tmp'), '[{"market_id": "a"');
  renameSync(path.join(dir, 'saving.tmp'), file);
  for (let i = 0; i < 100 && !/cannot be served/.test(stub.output().stdout + stub.output().stderr); i++) await new Promise((r) => setTimeout(r, 50));
  // Events of the same save (and the re-armed watch) arrive within a few debounce periods.
  await new Promise((r) => setTimeout(r, 1500));
  return { ...stub.output(), file };
}

const count = (text: string, what: string) => text.split(what).length - 1;

describe('--watch: one bad save, one message', () => {
  it('logging JSON: one JSON warning line, nothing on stderr, worded for watch mode', async () => {
    const { stdout, stderr, file } = await badSave([]);
    const warnings = stdout.split('\n').filter((l) => l.includes('cannot be served')).map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
    expect(warnings[0]?.msg).toContain(`Fixtures at ${file} cannot be served (1 problem)`);
    expect(warnings[0]?.msg).toContain('still serving the previous data');
    expect(warnings[0]?.msg).toContain('Fix the files listed and save: the stub reloads on the next save');
    expect(warnings[0]?.msg).not.toContain('re-run');
    expect(stderr).toBe('');
  });

  it('--quiet: the block once on stderr', async () => {
    const { stdout, stderr } = await badSave(['--quiet']);
    expect(count(stderr, 'cannot be served')).toBe(1);
    expect(stderr).toContain(`'npx market-stub validate `);
    expect(stdout).not.toContain('cannot be served');
  });
});

describe('check: arguments other tools would take', () => {
  it('--url gets "did you mean --base-url?"', async () => {
    const run = await runCliInProcess(['check', '--url', 'http://127.0.0.1:4010']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("market-stub check: --url: unknown option; did you mean --base-url?\nRun 'npx market-stub check --help' for the options.\n");
  });

  it('a bare URL is shown as the --base-url it should be', async () => {
    const run = await runCliInProcess(['check', 'http://127.0.0.1:4010/v1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("market-stub check: unexpected argument \"http://127.0.0.1:4010/v1\"; the deployment is given as --base-url http://127.0.0.1:4010/v1. Run 'npx market-stub check --help' for the options.\n");
  });

  it('a word that is no URL keeps the generic wording; serve has no --base-url to suggest', async () => {
    expect((await runCliInProcess(['check', 'staging'])).stderr).toContain('options are given as --name value');
    expect((await runCliInProcess(['serve', '--url', 'x'])).stderr).toMatch(/^market-stub serve: --url: unknown option\.\n/);
  });
});

describe('serve: options the others make ignored', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-ignored-'));
  writeFileSync(path.join(dir, 'markets.json'), JSON.stringify([MARKET]));
  writeFileSync(path.join(dir, 'market-stub.config.json'), JSON.stringify({ serve: { seed: 7, count: 250, fixtures: 'markets.json' } }));

  it('a config file with count and fixtures: one warning naming both, and the fixtures served', async () => {
    const stub = await startServeProcess(['--port', '0', '--config', path.join(dir, 'market-stub.config.json'), '--quiet']);
    running.push(stub);
    expect(stub.output().stderr).toBe(`market-stub serve: warning: count (${path.join(dir, 'market-stub.config.json')} /serve/count) is ignored: fixtures are served (${path.join(dir, 'market-stub.config.json')} /serve/fixtures); remove count, or fixtures to serve generated markets.\n`);
    expect(((await (await fetch(`${stub.url}/markets`)).json()) as unknown[]).length).toBe(1);
  });

  it('--count with --fixtures warns; --print-config marks count ignored; seed alone, or count without fixtures, does not', async () => {
    const file = path.join(dir, 'markets.json');
    const both = await runCliInProcess(['serve', '--port', '0', '--fixtures', file, '--count', '5', '--print-config']);
    expect(both.stdout).toMatch(/^ {2}count +5 +--count \(ignored: fixtures are served \(--fixtures\)\)$/m);
    expect((await runCliInProcess(['serve', '--fixtures', file, '--seed', '3', '--print-config'])).stdout).not.toContain('(ignored:');
    expect((await runCliInProcess(['serve', '--count', '5', '--print-config'])).stdout).not.toContain('(ignored:');
  });
});
