// market-stub/fetch on the JavaScript runtimes beside Node: Bun (Bun.serve), Deno (Deno.serve)
// and workerd (a module worker), each taken from the npm registry as the package that carries its
// binary, each serving the handler with its own native server on 127.0.0.1.
//
//   npm run test:runtimes                      bun, deno and workerd
//   npm run test:runtimes -- deno workerd      only the named ones
//
// Needs `npm run build` (dist/fetch.js, dist/cli.cjs). For each runtime: bundles its server file of
// test/runtimes/ with the package's Fetch entry (esbuild, platform 'browser': a Node built-in fails
// the bundle), starts it, runs `market-stub check --base-url` against it (must exit 0), and compares
// status, headers and body bytes of the list, an item, /healthz, /openapi.json, a 404, a 405 and a
// CORS preflight with `market-stub serve` (node:http) given the same options; then stops it by its
// pid; then sends FUZZ_COUNT odd requests as raw bytes (scripts/raw-request-fuzz.mjs: relative
// and absolute targets, CONNECT, no Host, userinfo in Host…), the node:http reference first, and
// fails a runtime that answers any with a 5xx. Bounded: each runtime has RUNTIME_LIMIT_MS. Last line: "runtimes: N passed, N failed".
// Exit 0 when every runtime passed, 1 otherwise, 2 when the build is missing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePackages } from './node-runtimes.mjs';
import { fuzzRawRequests } from './raw-request-fuzz.mjs';
import { bundleServer, compareExchanges, freePort, RUNTIME_PACKAGES, startProcess, waitForReady } from './runtime-exchange.mjs';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const CLI = path.join(ROOT, 'dist/cli.cjs');
/** The Fetch entry bundled into each server: the built package's (MARKET_STUB_FETCH_ENTRY: another build's). */
const FETCH_ENTRY = path.resolve(process.env.MARKET_STUB_FETCH_ENTRY ?? path.join(ROOT, 'dist/fetch.js'));
/** The options both sides serve: createFetchHandler's and `serve`'s flags alike. */
const OPTIONS = { seed: 7, count: 5, clock: '2026-01-01' };
/** Start, check, compare and stop one runtime. */
const RUNTIME_LIMIT_MS = 90_000;
/** Odd requests sent as raw bytes to each server (scripts/raw-request-fuzz.mjs). */
const FUZZ_COUNT = 341;
/** workerd's compatibility date: no later than the pinned workerd's own date. */
const WORKERD_COMPATIBILITY_DATE = '2026-11-01';

const started = performance.now();
const log = (line) => process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}\n`);

/** The workerd config: one module worker, one socket on 127.0.0.1:port, the options as a text binding. */
function workerdConfig(bundle, port) {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .stubWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const stubWorker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "${path.basename(bundle)}") ],
  compatibilityDate = "${WORKERD_COMPATIBILITY_DATE}",
  bindings = [ (name = "MARKET_STUB_FETCH_OPTIONS", text = ${JSON.stringify(JSON.stringify(OPTIONS))}) ],
);
`;
}

/** How to start each runtime on `port` with `bundle`: [command, args, env]. */
const LAUNCHERS = {
  bun: (bin, bundle, port) => [bin, [bundle], { PORT: String(port), MARKET_STUB_FETCH_OPTIONS: JSON.stringify(OPTIONS) }],
  deno: (bin, bundle, port) => [bin, ['run', '--no-prompt', `--allow-net=127.0.0.1:${port}`, '--allow-env=PORT,MARKET_STUB_FETCH_OPTIONS', bundle], { PORT: String(port), MARKET_STUB_FETCH_OPTIONS: JSON.stringify(OPTIONS), NO_COLOR: '1' }],
  workerd: (bin, bundle, port) => {
    const config = path.join(path.dirname(bundle), 'workerd.capnp');
    writeFileSync(config, workerdConfig(bundle, port));
    return [bin, ['serve', config], {}];
  },
};
const SERVER_FILES = { bun: 'bun-server.mjs', deno: 'deno-server.mjs', workerd: 'workerd-worker.mjs' };

/** Runs `market-stub check` against `url`; resolves with null when it exits 0, else its output. */
function runCheck(url) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'check', '--base-url', url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? null : `market-stub check exited ${code ?? 'on a signal (60 s limit)'}:\n${output.slice(-4000)}`);
    });
  });
}

/** Starts, checks, compares and stops one runtime; resolves with the problems found (empty: passed). */
async function testRuntime(name, bin, reference, work) {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  const bundle = await bundleServer(path.join(ROOT, 'test/runtimes', SERVER_FILES[name]), FETCH_ENTRY, dir);
  const port = await freePort();
  const [command, args, env] = LAUNCHERS[name](bin, bundle, port);
  const server = startProcess(command, args, { cwd: dir, env });
  try {
    const url = `http://127.0.0.1:${port}`;
    const ready = await waitForReady(url, server, 20_000);
    if (ready !== null) return [ready];
    log(`${name}: answering on ${url}; market-stub check…`);
    const checked = await runCheck(url);
    const problems = await compareExchanges(reference, url);
    const fuzzed = await fuzzProblems(name, url);
    return [...(checked === null ? [] : [checked]), ...problems, ...fuzzed];
  } finally {
    await server.stop();
  }
}

/** The raw-socket fuzz of one server: a problem per 5xx answer (none: it passed), its statuses logged. */
async function fuzzProblems(name, url) {
  const { statuses, fivexx, refused } = await fuzzRawRequests(url, { count: FUZZ_COUNT });
  log(`${name}: ${FUZZ_COUNT} odd requests as raw bytes: ${Object.entries(statuses).map(([s, n]) => `${s} ×${n}`).join(', ')}${refused.length > 0 ? `; ${refused.length} kinds of 5xx from the runtime's own server, not the handler (plain text), e.g. ${refused.slice(0, 3).join('; ')}` : ''}`);
  return fivexx.map((line) => `answered ${line}`);
}

/** Resolves to `promise`, or to a problem when it outlives `ms`. */
function bounded(promise, ms, what) {
  let timer;
  const limit = new Promise((resolve) => (timer = setTimeout(() => resolve([`${what} took longer than ${ms / 1000} s`]), ms)));
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

async function main(names) {
  const unknown = names.filter((n) => !(n in RUNTIME_PACKAGES));
  if (unknown.length > 0) throw new Error(`unknown runtime ${unknown.join(', ')} (there are: ${Object.keys(RUNTIME_PACKAGES).join(', ')})`);
  if (!existsSync(FETCH_ENTRY) || !existsSync(CLI)) {
    process.stderr.write(`test-runtimes: ${path.relative(ROOT, FETCH_ENTRY)} or dist/cli.cjs is missing: run npm run build first\n`);
    return 2;
  }
  const selected = names.length > 0 ? names : Object.keys(RUNTIME_PACKAGES);
  const bins = ensurePackages('fetch-runtimes', Object.values(RUNTIME_PACKAGES));
  const work = mkdtempSync(path.join(tmpdir(), 'market-stub-runtimes-'));
  const port = await freePort();
  const flags = Object.entries(OPTIONS).flatMap(([k, v]) => [`--${k}`, String(v)]);
  const reference = startProcess(process.execPath, [CLI, 'serve', '--port', String(port), '--quiet', ...flags], { cwd: work, env: {} });
  let passed = 0;
  let failed = 0;
  try {
    const refUrl = `http://127.0.0.1:${port}`;
    const ready = await waitForReady(refUrl, reference, 20_000);
    if (ready !== null) throw new Error(`market-stub serve (the node:http reference): ${ready}`);
    const referenceFuzz = await fuzzProblems('node:http (reference)', refUrl);
    if (referenceFuzz.length > 0) failed++;
    for (const name of selected) {
      log(`${name} (${RUNTIME_PACKAGES[name]}): bundling test/runtimes/${SERVER_FILES[name]} with market-stub/fetch, starting it…`);
      const problems = await bounded(testRuntime(name, path.join(bins, name), refUrl, work).catch((error) => [error.stack ?? String(error)]), RUNTIME_LIMIT_MS, name);
      if (problems.length === 0) passed++;
      else failed++;
      log(problems.length === 0 ? `${name}: passed (check exit 0; same status, headers and bytes as node:http)` : `${name}: FAILED\n  ${problems.join('\n  ')}`);
    }
  } finally {
    await reference.stop();
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`runtimes: ${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`test-runtimes: ${error.message}\n`);
    return 1;
  });
}
