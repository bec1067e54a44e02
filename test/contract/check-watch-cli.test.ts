// `market-stub check --watch`: rounds through the CLI, the state carried between runs (and refused
// when it is not this deployment's), JSON lines, the OpenMetrics file and endpoint checked by
// Prometheus' own promtool, SIGINT ending the watch with its summary.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { runCliInProcess } from './contract-report-helpers.js';
import { CLI } from '../support/cli-process.js';

const run = promisify(execFile);

/** promtool's path, or undefined (the tests that need it say why they skip; .ci/run installs it). */
async function findPromtool(): Promise<string | undefined> {
  try {
    await run('promtool', ['--version']);
    return 'promtool';
  } catch {
    return undefined;
  }
}

let stub: MarketStub;
let work: string;
let promtool: string | undefined;
beforeAll(async () => {
  // The stub's clock starts at this machine's time: a Date hours away would be clock-skew.
  stub = await startMarketStub({ seed: 7, count: 20, clock: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString() });
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-watch-cli-'));
  promtool = await findPromtool();
  if (!promtool) console.warn('promtool is not installed (Debian: apt-get install prometheus): the exposition is not checked by Prometheus here');
});
afterAll(async () => {
  await stub?.close();
  await rm(work, { recursive: true, force: true });
});

describe('check --watch', () => {
  it('takes --rounds rounds, a text line each, then the summary; exit 0', async () => {
    const result = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '100ms', '--rounds', '3']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.filter((l) => /^round \d+ \d{4}-\d\d-\d\dT[\d:.]+Z: 20 markets listed, 20 checked, 0 errors, 0 warnings; nothing over time$/.test(l))).toHaveLength(3);
    expect(result.stdout).toContain(`watched ${stub.url}: 3 rounds (1–3)`);
    expect(result.stdout).toMatch(/findings over time: none\nPASS \(exit 0\)\n$/);
  });

  it('carries its state across runs: a second run counts on and compares with the first', async () => {
    const state = path.join(work, 'state.json');
    const first = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '1s', '--rounds', '1', '--state', state]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`--state ${state} does not exist yet: the watch starts afresh and writes it after each round.`);
    const saved = JSON.parse(await readFile(state, 'utf8')) as { format: string; version: number; deployment: string; round: number; markets: unknown[] };
    expect(saved).toMatchObject({ format: 'market-stub watch state', version: 1, deployment: stub.url, round: 1 });
    expect(saved.markets).toHaveLength(20);
    const id = (await stub.catalog())[3]?.market_id as string;
    await stub.patchMarket(id, { status: 'resolved' });
    const second = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '1s', '--rounds', '1', '--state', state, '--format', 'jsonl']);
    await stub.patchMarket(id, { status: 'active' });
    const third = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '1s', '--rounds', '1', '--state', state, '--format', 'jsonl']);
    const lines = third.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(second.code, second.stderr).toBe(0);
    expect(lines[0]).toMatchObject({ type: 'round', round: 3, marketsListed: 20, exitCode: 0 });
    const regression = lines.find((l) => l['type'] === 'finding' && l['code'] === 'status-regression');
    expect(regression).toMatchObject({ over: 'time', round: 3, severity: 'warning', count: 1, examples: [{ marketId: id, found: 'resolved → active', seen: [{ round: 2, value: 'resolved' }, { round: 3, value: 'active' }] }] });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', rounds: 1, firstRound: 3, exitCode: 0, counts: { 'warning status-regression': 1 } });
    const strict = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '1s', '--rounds', '1', '--state', state, '--strict']);
    expect(strict.code, 'no new finding in round 4').toBe(0);
  });

  it('refuses a state of another deployment, and one that is not a state; sets aside another version', async () => {
    const state = path.join(work, 'other.json');
    await writeFile(state, JSON.stringify({ format: 'market-stub watch state', version: 1, deployment: 'https://api.example.com/v1', round: 9, instants: [], track: {}, markets: [] }));
    const other = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '1s', '--rounds', '1', '--state', state]);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(`market-stub check: --state: the state of another deployment ("https://api.example.com/v1", not "${stub.url}"); give each deployment its own state file. Give another --state file, or delete this one to start the watch afresh.\n`);
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ round: 9 });
    await writeFile(state, 'not json');
    const garbage = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '1s', '--rounds', '1', '--state', state]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain('--state: not a watch state (not JSON)');
    await writeFile(state, JSON.stringify({ format: 'market-stub watch state', version: 1, deployment: stub.url, round: 2, instants: [], track: {}, markets: [['m', { first: 1, seen: 'x' }]] }));
    const shape = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '1s', '--rounds', '1', '--state', state]);
    expect(shape.stderr).toContain('--state: /markets/0/1/seen is not a whole number');
    await writeFile(state, JSON.stringify({ format: 'market-stub watch state', version: 99, writtenBy: 'market-stub/9.0.0', deployment: stub.url }));
    const newer = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '1s', '--rounds', '1', '--state', state]);
    expect(newer.code, newer.stderr).toBe(0);
    expect(newer.stdout).toContain('note: --state is a watch state of version 99, not 1 (written by market-stub/9.0.0): set aside, the watch starts afresh and overwrites it');
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ version: 1, round: 1 });
  });

  it.each([
    [['--watch', '5'], '--watch "5": expected a duration with its unit from 100ms to 24h (30s, 5m, 1h).'],
    [['--watch', 'soon'], '--watch "soon": expected a duration with its unit'],
    [['--watch', '2d'], '--watch "2d": expected a duration with its unit'],
    [['--rounds', '2'], '--rounds belongs to a watch: add --watch INTERVAL (--watch 5m), or leave it out for one check.'],
    [['--state', 'x.json', '--metrics-file', 'm.prom'], '--state, --metrics-file belong to a watch'],
    [['--watch', '1m', '--format', 'junit'], '--format junit: a watch writes text, jsonl'],
    [['--watch', '1m', '--for', '1'], '--for "1": expected a duration'],
  ])('refuses %j before any request', async (args, message) => {
    const before = await stub.requestCount();
    const result = await runCliInProcess(['check', '--base-url', stub.url, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(await stub.requestCount()).toBe(before);
  });

  it('writes its metrics after each round in the text format promtool accepts, with the documented series', async (context) => {
    const file = path.join(work, 'watch.prom');
    const result = await runCliInProcess(['check', '--base-url', stub.url, '--watch', '100ms', '--rounds', '2', '--metrics-file', file]);
    expect(result.code, result.stderr).toBe(0);
    const text = await readFile(file, 'utf8');
    const deployment = `deployment="${stub.url}"`;
    expect(text).toContain(`market_stub_watch_rounds_total{${deployment},outcome="checked"} 2`);
    expect(text).toContain(`market_stub_watch_markets{${deployment},kind="listed"} 20`);
    expect(text).toMatch(new RegExp(`market_stub_watch_last_success_timestamp_seconds\\{${deployment.replace(/[.:/]/g, '\\$&')}\\} \\d{10}`));
    expect(text).toContain(`market_stub_watch_answer_seconds{quantile="0.99",${deployment},endpoint="GET /markets/{market_id}"}`);
    if (!promtool) return context.skip('promtool is not installed (Debian: apt-get install prometheus)');
    const checked = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(checked.stderr + checked.stdout, 'promtool check metrics').toBe('');
    expect(checked.status).toBe(0);
  });

  it('serves /metrics while it runs, and ends with its summary on SIGINT (exit of the worst round)', async () => {
    const child = spawn(process.execPath, [CLI, 'check', '--base-url', stub.url, '--watch', '200ms', '--metrics-port', '0', '--format', 'jsonl'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const until = async (test: () => boolean) => {
      for (let i = 0; i < 200 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await until(() => /metrics at (http:\S+)/.test(stderr) && (stdout.match(/"type":"round"/g) ?? []).length >= 2);
    const url = /metrics at (http:\S+)/.exec(stderr)?.[1] as string;
    const scraped = await fetch(url, { headers: { accept: 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' } });
    expect(scraped.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    const open = await scraped.text();
    expect(open).toMatch(/^# HELP market_stub_watch_rounds Rounds taken/);
    expect(open).toMatch(/\nmarket_stub_watch_rounds_total\{deployment="[^"]+",outcome="checked"\} [1-9]/);
    expect(open.endsWith('\n# EOF\n')).toBe(true);
    const plain = await fetch(url);
    expect(plain.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await plain.text();
    expect(text).toMatch(/^# HELP market_stub_watch_rounds_total Rounds taken/);
    if (promtool) expect(spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' }).status).toBe(0);
    expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    const last = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { type: string; rounds: number };
    expect(last.type).toBe('summary');
    expect(last.rounds).toBeGreaterThanOrEqual(2);
  });
});

describe('the documented alert rules (docker/watch/market-stub-watch.rules.yml)', () => {
  it('pass promtool check rules and name only series the watch exports', async (context) => {
    const file = new URL('../../docker/watch/market-stub-watch.rules.yml', import.meta.url).pathname;
    const rules = await readFile(file, 'utf8');
    const named = [...new Set(rules.match(/market_stub_watch_[a-z_]+/g) ?? [])].sort();
    const exported = ['market_stub_watch_answer_seconds', 'market_stub_watch_findings', 'market_stub_watch_last_success_timestamp_seconds', 'market_stub_watch_time_findings_total'];
    expect(named).toEqual(exported);
    if (!promtool) return context.skip('promtool is not installed (Debian: apt-get install prometheus)');
    const checked = spawnSync(promtool, ['check', 'rules', file], { encoding: 'utf8' });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toContain('SUCCESS: 4 rules found');
  });
});
