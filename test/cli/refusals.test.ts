import { existsSync, mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../support/cli-process.js';

// Every command refuses a mistyped flag, a missing required argument and a bad
// value with exit 2, one message on stderr, nothing on stdout, and nothing started: no port
// bound, no file written, no request made. Run as real processes, as a user runs them.

let requests = 0;
let deployment: Server;
let base = '';
const work = mkdtempSync(path.join(tmpdir(), 'market-stub-refusals-'));

beforeAll(async () => {
  deployment = createHttpServer((_req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => deployment.listen(0, '127.0.0.1', resolve));
  const address = deployment.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => deployment.close(() => resolve())));

/** True when nothing listens on `port` (we can bind it ourselves). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

type Case = [label: string, args: (port: number, out: string) => string[], message: RegExp];

const CASES: Case[] = [
  ['serve: mistyped flag', (port) => ['serve', '--prot', '4010', '--port', String(port)], /^market-stub serve: --prot: unknown option; did you mean --port\?\n/],
  ['serve: bad value', (port) => ['serve', '--port', String(port), '--count', '-1'], /^market-stub serve: --count: expected an integer from 0 to 100000000, found "-1"\.\n/],
  ['serve: bad choice', (port) => ['serve', '--port', String(port), '--paging', 'pages'], /^market-stub serve: --paging: expected one of none, offset, cursor, found "pages"\.\n/],
  ['serve: bad date', (port) => ['serve', '--port', String(port), '--clock', '2026-13-01'], /^market-stub serve: --clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-13-01"\.\n/],
  ['serve: instant before 1970', (port) => ['serve', '--port', String(port), '--clock', '1969-12-31T23:59:59Z'], /^market-stub serve: --clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "1969-12-31T23:59:59Z"\.\n/],
  ['serve: negative clock rate', (port) => ['serve', '--port', String(port), '--clock-rate', '-1'], /^market-stub serve: --clock-rate: expected a number from 0 to 31536000, found "-1"\.\n/],
  ['serve: absurd clock rate', (port) => ['serve', '--port', String(port), '--clock-rate', '1e12'], /^market-stub serve: --clock-rate: expected a number from 0 to 31536000, found "1e12"\.\n/],
  ['serve: extra argument', (port) => ['serve', 'fixtures', '--port', String(port)], /^market-stub serve: unexpected argument "fixtures"/],
  ['generate: mistyped flag', (_p, out) => ['generate', '--cuont', '5', '--out', out], /^market-stub generate: --cuont: unknown option; did you mean --count\?\n/],
  ['generate: bad value', (_p, out) => ['generate', '--seed', 'abc', '--out', out], /^market-stub generate: --seed: expected an integer from 0 to \d+, found "abc"\.\n/],
  ['validate: missing path', () => ['validate'], /^market-stub validate: <path>: required: a fixture JSON file or a directory of JSON files/],
  ['validate: mistyped flag', () => ['validate', 'fixtures', '--strcit'], /^market-stub validate: --strcit: unknown option\.\n/],
  ['check: missing base URL', () => ['check'], /^market-stub check: --base-url: required: /],
  ['check: mistyped flag', () => ['check', '--base-url', base, '--formt', 'json'], /^market-stub check: --formt: unknown option; did you mean --format\?\n/],
  ['check: bad choice', () => ['check', '--base-url', base, '--format', 'xml'], /^market-stub check: --format: expected one of text, json, jsonl, junit, html, markdown, sarif, found "xml"\.\n/],
  ['check: bad value', () => ['check', '--base-url', base, '--max-pages', '0'], /^market-stub check: --max-pages: expected an integer from 1 to 1000000, found "0"\.\n/],
  ['record: missing --out', () => ['record', '--base-url', base], /^market-stub record: --out: required: the fixture directory to write/],
  ['record: mistyped flag', (_p, out) => ['record', '--base-url', base, '--out', out, '--keep-invlaid'], /^market-stub record: --keep-invlaid: unknown option; did you mean --keep-invalid\?\n/],
  ['record: bad value', (_p, out) => ['record', '--base-url', base, '--out', out, '--timeout-ms', '1s'], /^market-stub record: --timeout-ms: expected an integer from 1 to 600000, found "1s"\.\n/],
  ['proxy: missing upstream', (port) => ['proxy', '--port', String(port)], /^market-stub proxy: --upstream: required: /],
  ['proxy: mistyped flag', (port) => ['proxy', '--upstream', base, '--port', String(port), '--recrod', 'x'], /^market-stub proxy: --recrod: unknown option; did you mean --record\?\n/],
  ['proxy: bad value', (port) => ['proxy', '--upstream', base, '--port', String(port), '--timeout-ms', '-5'], /^market-stub proxy: --timeout-ms: expected an integer from 1 to 600000, found "-5"\.\n/],
];

describe('every command refuses bad input before anything runs', () => {
  it.each(CASES)('%s: exit 2, one message on stderr, empty stdout, nothing started', async (_label, args, message) => {
    const port = await freePort();
    const out = path.join(work, `out-${port}`);
    const before = requests;
    const run = await runCliProcess(args(port, out), { timeoutMs: 10_000 });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/Run 'npx market-stub \w+ --help' for the options\.\n$|The commands are|options are given as/);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(requests).toBe(before);
    expect(existsSync(out)).toBe(false);
    expect(await portIsFree(port)).toBe(true);
  });

  it('lists every problem at once when several options are bad', async () => {
    const run = await runCliProcess(['serve', '--port', 'abc', '--count', 'many', '--errors', 'xml'], { timeoutMs: 10_000 });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n').filter((l) => l.startsWith('market-stub serve: '))).toEqual([
      'market-stub serve: --port: expected an integer from 0 to 65535, found "abc".',
      'market-stub serve: --count: expected an integer from 0 to 100000000, found "many".',
      'market-stub serve: --errors: expected one of default, problem, error-object, found "xml".',
    ]);
  });

  it('names an environment variable as the source when the bad value came from it', async () => {
    const run = await runCliProcess(['check', '--base-url', base], { env: { MARKET_STUB_CONCURRENCY: 'lots' }, timeoutMs: 10_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^market-stub check: MARKET_STUB_CONCURRENCY: expected an integer from 1 to 256, found "lots"\.\n/);
  });

  it('never echoes a --header value in a refusal', async () => {
    const run = await runCliProcess(['check', '--base-url', base, '--header', 'Bearer hunter2-secret-token'], { timeoutMs: 10_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--header #1');
    expect(run.stderr).not.toContain('hunter2');
    expect(requests).toBe(0);
  });

  it('unknown and missing commands: exit 2 with the list of commands', async () => {
    const typo = await runCliProcess(['serv'], { timeoutMs: 10_000 });
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toBe('market-stub: unknown command "serv"; did you mean serve? The commands are serve, generate, validate, check, record, proxy, mcp.\n');
    const none = await runCliProcess([], { timeoutMs: 10_000 });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^market-stub: name a command: serve, generate, validate, check, record, proxy, mcp\./);
  });
});

describe('help and version', () => {
  it('--help of every command lists its environment variables, numbers as numbers, and examples', async () => {
    for (const [command, env] of [['serve', 'MARKET_STUB_PORT, PORT'], ['generate', 'MARKET_STUB_SEED'], ['validate', 'MARKET_STUB_FIXTURES'], ['check', 'MARKET_STUB_BASE_URL'], ['record', 'MARKET_STUB_OUT'], ['proxy', 'MARKET_STUB_UPSTREAM']] as const) {
      const run = await runCliProcess([command, '--help'], { timeoutMs: 10_000 });
      expect(run.code, command).toBe(0);
      expect(run.stderr, command).toBe('');
      const help = run.stdout.replace(/\s+/g, ' ');
      expect(help, command).toContain(`[env: ${env}`);
      expect(help, command).toContain('Examples:');
      expect(help, command).not.toContain('[string] [default: "'); // no quoted numbers
    }
    const serve = (await runCliProcess(['serve', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(serve).toContain('--port TCP port to listen on; 0 picks a free port [integer] [env: MARKET_STUB_PORT, PORT] [default: 4010]');
  });

  it('--version prints market-stub\'s own version from any working directory', async () => {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'market-stub-cwd-'));
    const run = await runCliProcess(['--version'], { cwd: elsewhere, timeoutMs: 10_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });
});
