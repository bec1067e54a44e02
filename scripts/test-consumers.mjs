// Runs the consumer projects of test/consumers/ against the packed package, as a user gets it:
//
//   npm run test:consumers                 every consumer
//   npm run test:consumers -- jest-cjs     only the named ones
//
// Packs the repository once (`npm pack`, whose prepack builds dist/), then for each consumer:
// copies its folder to a temporary directory outside the repository (so nothing resolves from
// the repository's node_modules), installs the tarball and the consumer's devDependencies there
// (npm's cache first, no lockfile), checks that market-stub came with no install script, and
// runs the consumer's `npm test`. A consumer's package.json may say more:
//
//   "engines": { "node": ">=22.12" }        run its install and test on a Node that satisfies it: the
//                                           running one, else Node 24 from the npm registry
//                                           (scripts/node-runtimes.mjs; only ">=X[.Y[.Z]]" is read)
//   "marketStub": { "base": "msw-jsdom" }   start from that consumer's files, then copy this folder's
//                                           over them (a variant: other versions, the same tests)
//   "marketStub": { "needs": "container" }  needs a container engine and MARKET_STUB_IMAGE: run only
//                                           when named (.ci/container-test.sh does), left out of "every consumer"
//
// Bounded: each step has a time limit (STEP_LIMIT_MS) and the
// whole run one more (RUN_LIMIT_MS). Last line: "consumers: N passed, N failed". Exit 0 when
// every consumer passed, 1 otherwise, 2 when the package could not be packed.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNodeRuntime } from './node-runtimes.mjs';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const CONSUMERS = path.join(ROOT, 'test/consumers');
/** One install or test step; a cold npm cache needs most of it for Jest's install. */
const STEP_LIMIT_MS = 240_000;
/** The whole run: pack, then every consumer's install and test. */
const RUN_LIMIT_MS = 900_000;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The Node major a consumer runs on when the running Node is below its `engines.node`. */
const NEWER_NODE_MAJOR = 24;
/** npm scripts that would run in a consumer's install: the package must declare none. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

const started = performance.now();
const log = (line) => process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}\n`);

/**
 * Runs a command to completion; resolves with its exit code, its stdout and the combined output
 * (the last 20,000 characters). Killed (with its process group) when it outlives `limitMs` or the run's limit.
 */
function run(command, args, { cwd, env = {}, limitMs = STEP_LIMIT_MS }) {
  return new Promise((resolve) => {
    const remaining = RUN_LIMIT_MS - (performance.now() - started);
    const limit = Math.max(1, Math.min(limitMs, remaining));
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let output = '';
    let stdout = '';
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString();
      keep(chunk);
    });
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, limit);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: timedOut ? null : code, output: timedOut ? `${output}\n(stopped after ${Math.round(limit / 1000)} s)` : output, stdout, signal });
    });
  });
}

/** A consumer's package.json. */
const manifest = (name) => JSON.parse(readFileSync(path.join(CONSUMERS, name, 'package.json'), 'utf8'));

/**
 * Consumer folders: every folder of test/consumers with a package.json, or the named ones. Those
 * marked `"marketStub": { "needs": "container" }` run only when named (they need an engine and an image).
 */
function consumers(names) {
  const all = readdirSync(CONSUMERS, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(path.join(CONSUMERS, d.name, 'package.json'))).map((d) => d.name);
  const unknown = names.filter((n) => !all.includes(n));
  if (unknown.length > 0) throw new Error(`no consumer named ${unknown.join(', ')} in test/consumers (there are: ${all.join(', ')})`);
  if (names.length > 0) return names;
  const needEngine = all.filter((n) => manifest(n).marketStub?.needs === 'container');
  if (needEngine.length > 0) log(`left out (need a container engine; .ci/container-test.sh runs them): ${needEngine.join(', ')}`);
  return all.filter((n) => !needEngine.includes(n));
}

/** [major, minor, patch] of "v22.12.0" or "22.12". */
const versionParts = (v) => v.replace(/^v/, '').split('.').map(Number).concat([0, 0, 0]).slice(0, 3);

/**
 * The PATH folder of a Node that satisfies the consumer's `engines.node` (null: the running one does).
 * Reads only the form ">=X[.Y[.Z]]"; any other range is an error naming the consumer.
 */
function nodeFor(name) {
  const range = manifest(name).engines?.node;
  if (range === undefined) return null;
  const floor = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim())?.[1];
  if (floor === undefined) throw new Error(`test/consumers/${name}/package.json: engines.node must read ">=X[.Y[.Z]]", found "${range}"`);
  const satisfies = (version) => {
    const [a, b] = [versionParts(version), versionParts(floor)];
    const i = a.findIndex((part, k) => part !== b[k]);
    return i === -1 || a[i] > b[i];
  };
  if (satisfies(process.version)) return null;
  const runtime = ensureNodeRuntime(NEWER_NODE_MAJOR);
  if (!satisfies(runtime.version)) throw new Error(`${name} needs Node ${range}; neither this Node (${process.version}) nor ${runtime.version} satisfies it`);
  return runtime;
}

/** `npm pack` into `dir`; returns the tarball's absolute path. */
async function pack(dir) {
  const r = await run(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: ROOT });
  if (r.code !== 0) throw new Error(`npm pack failed (exit ${r.code}):\n${r.output}`);
  // stdout holds prepack's output (the build), then the JSON array npm prints on lines of its own.
  const [packed] = JSON.parse(r.stdout.slice(r.stdout.search(/^\[$/m)));
  log(`packed ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} KiB (${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked)`);
  return path.join(dir, packed.filename);
}

/**
 * Copies the consumer to `dir` over its `marketStub.base` (and that one's base, and so on: at most
 * four deep, no cycle), node_modules left out, so each folder's files replace its base's.
 */
function copyConsumer(name, dir) {
  const chain = [name];
  for (let base = manifest(name).marketStub?.base; base !== undefined; base = manifest(base).marketStub?.base) {
    if (!existsSync(path.join(CONSUMERS, base, 'package.json'))) throw new Error(`${chain.at(-1)}: marketStub.base names ${base}, which is not a consumer in test/consumers`);
    if (chain.includes(base) || chain.length > 4) throw new Error(`${name}: marketStub.base goes round or deeper than 4 (${[...chain, base].join(' → ')})`);
    chain.push(base);
  }
  for (const from of chain.reverse()) {
    cpSync(path.join(CONSUMERS, from), dir, { recursive: true, filter: (src) => !src.split(path.sep).includes('node_modules') });
  }
}

/** Installs and tests one consumer in a copy under `work`; returns null when it passed, else why. */
async function testConsumer(name, tarball, work) {
  const dir = path.join(work, name);
  copyConsumer(name, dir);
  const runtime = nodeFor(name);
  // npm's own shebang is `env node`: with that Node first on PATH, npm, the install and the test all run on it.
  const env = runtime === null ? {} : { PATH: `${runtime.binDir}${path.delimiter}${process.env.PATH ?? ''}` };
  if (runtime !== null) log(`${name}: on Node ${runtime.version} (engines.node ${manifest(name).engines.node})`);
  const install = await run(NPM, ['install', '--no-save', '--no-package-lock', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: dir, env });
  if (install.code !== 0) return `npm install failed (exit ${install.code}):\n${install.output}`;
  const installed = JSON.parse(readFileSync(path.join(dir, 'node_modules/market-stub/package.json'), 'utf8'));
  const scripts = INSTALL_SCRIPTS.filter((s) => installed.scripts?.[s] !== undefined);
  if (scripts.length > 0) return `market-stub declares install scripts a consumer would run: ${scripts.join(', ')}`;
  const test = await run(NPM, ['test'], { cwd: dir, env: { ...env, CI: 'true', NO_COLOR: '1' } });
  if (test.code !== 0) return `npm test failed (exit ${test.code ?? 'timeout'}):\n${test.output}`;
  log(`${name}: ${summaryLine(test.output)}`);
  return null;
}

/** The runner's own count line, for the log (vitest, jest, node --test's tap and spec reporters, tsc). */
function summaryLine(output) {
  const lines = output.split('\n').map((l) => l.trim());
  const found = lines.filter((l) => /^(Tests:|Tests\s|# (pass|fail)|ℹ (pass|fail)|types:)/.test(l));
  return found.length > 0 ? found.join('; ') : 'passed';
}

async function main() {
  const names = consumers(process.argv.slice(2));
  const work = mkdtempSync(path.join(tmpdir(), 'market-stub-consumers-'));
  let tarball;
  try {
    try {
      tarball = await pack(work);
    } catch (error) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    let passed = 0;
    let failed = 0;
    for (const name of names) {
      log(`${name}: installing the tarball and its devDependencies, then npm test…`);
      const problem = await testConsumer(name, tarball, work).catch((error) => error.message);
      if (problem === null) passed++;
      else {
        failed++;
        process.stdout.write(`${name}: FAILED: ${problem}\n`);
      }
    }
    process.stdout.write(`consumers: ${passed} passed, ${failed} failed\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
