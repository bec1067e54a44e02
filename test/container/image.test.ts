// The Docker image, built and run for real with podman (or docker): `npm run test:container`,
// or `.ci/container-test.sh` which prepares podman first. Not part of `npm test`.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { startMarketStub } from '../../src/stub.js';
import { createContainerEngine, type CommandResult, type ContainerEngine } from './container-engine.js';
import { freePort } from './free-port.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUN_ID = `${process.pid}-${randomBytes(3).toString('hex')}`;
const TAG = `localhost/market-stub-container-test:${RUN_ID}`;
/** The path the README documents for a pipeline's own fixtures. */
const FIXTURES_MOUNT = '/fixtures';
/** The catalog the main container is configured with, by environment only. */
const CATALOG = { MARKET_STUB_SEED: '7', MARKET_STUB_COUNT: '25', MARKET_STUB_CLOCK: '2026-01-01' };
/** The admin token the main container runs with (the README's advice for an image bound to 0.0.0.0). */
const ADMIN_TOKEN = `ct-${randomBytes(12).toString('hex')}`;
/** The warning the image prints at start when the admin API is on without a token. */
const NO_TOKEN_WARNING = /^the admin API \(\/__stub\) is on without a token and http:\/\/0\.0\.0\.0:\d+ is reachable beyond this machine: .*MARKET_STUB_ADMIN_TOKEN.*--admin off\)\.$/;

/**
 * The no-token warnings in a container's stdout: serve's warnings go to the request log when there
 * is one (JSON lines when piped, as in a container), stderr only with --quiet, never both.
 */
function noTokenWarnings(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level?: number; msg?: string }).filter((entry) => entry.level === 40 && NO_TOKEN_WARNING.test(entry.msg ?? '')).map((entry) => entry.msg ?? '');
}
/** The Dockerfile's default NODE_IMAGE, as podman and docker name it. */
const BASE_IMAGE = 'docker.io/library/node:24-bookworm-slim';
const STOP_LIMIT_MS = 2_000;
const HEALTHY_LIMIT_MS = 30_000;

let engine: ContainerEngine | undefined;
let imageBuilt = false;
const containers = new Set<string>();
let workDir: string | undefined;
const figures: string[] = [];

/** The main container: generated catalog configured by environment, image defaults otherwise. */
let main: { name: string; port: number; url: string } | undefined;
/** The container serving the fixtures directory mounted at /fixtures. */
let mounted: { name: string; port: number; url: string } | undefined;
let mountedMarkets: Record<string, unknown>[] = [];

function report(figure: string): void {
  figures.push(figure);
  console.log(`[container] ${figure}`);
}

function needImage(): ContainerEngine {
  if (!engine || !imageBuilt) throw new Error('The image was not built; see the first test of this file.');
  return engine;
}

function containerName(role: string): string {
  const name = `market-stub-ct-${RUN_ID}-${role}`;
  containers.add(name);
  return name;
}

async function scratchDir(name: string): Promise<string> {
  workDir ??= await mkdtemp(path.join(tmpdir(), 'market-stub-ct-'));
  // mkdtemp makes 0700 dirs; the container reads mounts as uid 1000 (node).
  await chmod(workDir, 0o755);
  const dir = path.join(workDir, name);
  await mkdir(dir, { mode: 0o755 });
  await chmod(dir, 0o755);
  return dir;
}

async function writeFixture(dir: string, file: string, text: string): Promise<void> {
  await writeFile(path.join(dir, file), text, { mode: 0o644 });
  await chmod(path.join(dir, file), 0o644);
}

function describeResult(what: string, result: CommandResult): string {
  return `${what}: exit ${result.code} after ${Math.round(result.ms)} ms\nstdout: ${result.stdout.slice(-3_000)}\nstderr: ${result.stderr.slice(-3_000)}`;
}

async function inspectImage(e: ContainerEngine): Promise<Record<string, unknown>> {
  const result = await e.run(['image', 'inspect', TAG]);
  expect(result.code, describeResult('image inspect', result)).toBe(0);
  const parsed = JSON.parse(result.stdout) as Record<string, unknown>[];
  const first = parsed[0];
  if (!first) throw new Error(`image inspect ${TAG} returned no image`);
  return first;
}

async function imageEnv(e: ContainerEngine): Promise<Record<string, string>> {
  const config = (await inspectImage(e))['Config'] as { Env?: string[] };
  return Object.fromEntries((config.Env ?? []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}

async function containerState(e: ContainerEngine, name: string): Promise<{ status: string; exitCode: number }> {
  const result = await e.run(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', name]);
  const [status = 'unknown', code = '-1'] = result.stdout.trim().split(' ');
  return { status, exitCode: Number(code) };
}

async function logsOf(e: ContainerEngine, name: string): Promise<{ stdout: string; stderr: string }> {
  const result = await e.run(['logs', name]);
  return { stdout: result.stdout, stderr: result.stderr };
}

/** Polls until GET url answers 200; resolves with the ms since `since`, or undefined past the deadline. */
async function firstAnswer(url: string, since: number, deadline: number): Promise<number | undefined> {
  while (performance.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

/**
 * `<engine> run -d` on the host network, then polls the HEALTHCHECK until it passes. Measures the
 * time from starting `run` to the first 200 on /healthz from the host and to the first passing
 * health check (cold start to healthy). Fails with the container's logs if it exits first.
 */
async function startHealthy(e: ContainerEngine, role: string, env: Record<string, string>, extra: readonly string[] = []): Promise<{ name: string; port: number; url: string }> {
  const name = containerName(role);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const envArgs = Object.entries({ PORT: String(port), ...env }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const t0 = performance.now();
  const deadline = t0 + HEALTHY_LIMIT_MS;
  const answered = firstAnswer(`${url}/healthz`, t0, deadline);
  const started = await e.run(['run', '-d', '--name', name, '--network=host', ...envArgs, ...extra, TAG]);
  expect(started.code, describeResult(`${e.name} run ${name}`, started)).toBe(0);
  let healthyMs: number | undefined;
  while (performance.now() < deadline) {
    if (await e.checkHealth(name)) {
      healthyMs = performance.now() - t0;
      break;
    }
    const state = await containerState(e, name);
    if (state.status !== 'running' && state.status !== 'created') {
      const logs = await logsOf(e, name);
      throw new Error(`${name} is ${state.status} (exit ${state.exitCode}) before turning healthy.\nlogs stdout: ${logs.stdout}\nlogs stderr: ${logs.stderr}`);
    }
  }
  const answerMs = await answered;
  expect(healthyMs, `${name} did not turn healthy within ${HEALTHY_LIMIT_MS} ms`).toBeDefined();
  report(`${role}: '${e.name} run -d' returned after ${Math.round(started.ms)} ms; first 200 on /healthz from the host after ${answerMs === undefined ? 'never' : Math.round(answerMs)} ms; cold start to healthy ('${e.name} healthcheck run' passes) ${Math.round(healthyMs ?? 0)} ms`);
  return { name, port, url };
}

/** `<engine> stop` and the exit it produced; asserts exit 0 within STOP_LIMIT_MS. */
async function stopGracefully(e: ContainerEngine, role: string, name: string, warned = false): Promise<void> {
  const stopped = await e.run(['stop', name], { timeoutMs: 30_000 });
  expect(stopped.code, describeResult(`${e.name} stop ${name}`, stopped)).toBe(0);
  const state = await containerState(e, name);
  report(`${role}: '${e.name} stop' to exit ${Math.round(stopped.ms)} ms, exit code ${state.exitCode}`);
  expect(state.status).toBe('exited');
  expect(state.exitCode, `exit code after ${e.name} stop (137 means SIGTERM was ignored and the engine killed it)`).toBe(0);
  expect(stopped.ms).toBeLessThan(STOP_LIMIT_MS);
  const logs = await logsOf(e, name);
  expect(noTokenWarnings(logs.stdout), 'the no-token warning, once, in the request log').toHaveLength(warned ? 1 : 0);
  expect(logs.stderr.split('\n').filter(Boolean), 'nothing on stderr during a normal run and stop').toEqual([]);
}

/**
 * Runs the image with a bad configuration, waits for it to exit and returns the exit code and
 * `logs`; alongside, what the CLI (`runCli`, in this process, with the same environment as the
 * container) prints for the same configuration.
 */
async function badConfiguration(e: ContainerEngine, role: string, env: Record<string, string>, cliEnv: Record<string, string>, extra: readonly string[] = []) {
  const name = containerName(role);
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const started = await e.run(['run', '-d', '--name', name, '--network=host', ...envArgs, ...extra, TAG]);
  expect(started.code, describeResult(`${e.name} run ${name}`, started)).toBe(0);
  const waited = await e.run(['wait', name], { timeoutMs: 30_000 });
  expect(waited.code, describeResult(`${e.name} wait ${name}`, waited)).toBe(0);
  const state = await containerState(e, name);
  const logs = await logsOf(e, name);
  report(`${role}: exited with code ${state.exitCode} (${Math.round(started.ms + waited.ms)} ms after '${e.name} run'); '${e.name} logs' stderr:\n${logs.stderr.trimEnd()}`);

  let cliStderr = '';
  const cliStdout = new PassThrough();
  const aborted = new AbortController();
  // Already aborted: were the configuration accepted after all, serve would close at once, not hang.
  aborted.abort();
  const cliCode = await runCli(['serve'], {
    stdout: () => undefined,
    stderr: (text) => (cliStderr += text),
    env: { ...(await imageEnv(e)), ...cliEnv },
    isTTY: false,
    signal: aborted.signal,
    stdoutStream: cliStdout,
  });
  return { state, logs, cliCode, cliStderr };
}

describe(`docker/Dockerfile, built and run (${TAG})`, () => {
  afterAll(async () => {
    if (engine) {
      for (const name of containers) await engine.run(['rm', '-f', '-t', '0', name]);
      if (imageBuilt) await engine.run(['rmi', '-f', TAG]);
      const left = await engine.run(['ps', '-a', '--filter', `name=market-stub-ct-${RUN_ID}`, '--format', '{{.Names}}']);
      if (left.stdout.trim()) console.log(`[container] left behind: ${left.stdout.trim()}`);
    }
    if (workDir) await rm(workDir, { recursive: true, force: true });
    const file = process.env['MARKET_STUB_CONTAINER_FIGURES'];
    if (file) await writeFile(file, figures.map((f) => `${f}\n`).join(''));
  });

  it('builds from the project root with -f docker/Dockerfile', async () => {
    engine = await createContainerEngine();
    const built = await engine.run(['build', '-f', 'docker/Dockerfile', '-t', TAG, ROOT], { timeoutMs: 600_000 });
    const hint = engine.name === 'podman' ? "\nOn a machine without a registry: 'source ../shared/container/env.sh && ../shared/container/ensure-base.sh' first, or run .ci/container-test.sh." : '';
    expect(built.code, `${describeResult(`${engine.name} build`, built)}${hint}`).toBe(0);
    imageBuilt = true;
    report(`engine: ${engine.name}; image build ${(built.ms / 1000).toFixed(1)} s (layer cache may apply)`);
  }, 620_000);

  it('runs as node with HOST/PORT defaults, port 4010, a node health check, SIGTERM and the CLI as entrypoint', async () => {
    const e = needImage();
    const image = await inspectImage(e);
    const config = image['Config'] as Record<string, unknown>;
    expect(config['User']).toBe('node');
    expect(config['Env']).toEqual(expect.arrayContaining(['HOST=0.0.0.0', 'PORT=4010', 'NODE_ENV=production']));
    expect(Object.keys((config['ExposedPorts'] ?? {}) as object)).toEqual(['4010/tcp']);
    expect(config['StopSignal']).toBe('SIGTERM');
    expect(config['Entrypoint']).toEqual(['node', '/app/dist/cli.cjs']);
    expect(config['Cmd']).toEqual(['serve']);
    // podman reports it beside Config, docker inside; an OCI-format build silently drops it.
    const health = (image['Healthcheck'] ?? config['Healthcheck']) as { Test?: string[] } | undefined;
    expect(health?.Test).toEqual(['CMD', 'node', '/app/docker/healthcheck.mjs']);
  });

  it('holds production dependencies only: no dev dependencies, tests, sources or npm cache; reports its size', async () => {
    const e = needImage();
    const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages).filter(([key, info]) => key.startsWith('node_modules/') && info.dev).map(([key]) => key);
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    // A devDependency that a production dependency needs too is not dev-only in the lock (and is in
    // the image, as it must be): @opentelemetry/api (prom-client's), hono and @hono/node-server (the
    // MCP SDK's). Named exactly, so a new one is a decision; every other devDependency is dev-only.
    const alsoProduction = Object.keys(pkg.devDependencies).filter((d) => lock.packages[`node_modules/${d}`]?.dev !== true).sort();
    expect(alsoProduction).toEqual(['@hono/node-server', '@opentelemetry/api', 'hono']);
    expect(devOnly).toEqual(expect.arrayContaining(Object.keys(pkg.devDependencies).filter((d) => !alsoProduction.includes(d)).map((d) => `node_modules/${d}`)));
    const prod = Object.keys(pkg.dependencies).map((d) => `node_modules/${d}`);
    // As root, so that /root/.npm is visible too; one line per finding.
    const script = [
      'cd /app',
      'echo "app: $(ls -A /app | sort | tr "\\n" " ")"',
      'for p in "$@"; do case "$p" in prod:*) [ -e "/app/${p#prod:}" ] || echo "missing: ${p#prod:}";; *) [ -e "/app/$p" ] && echo "dev: $p";; esac; done',
      'find / -xdev -type d \\( -name _cacache -o -name .npm \\) 2>/dev/null | sed "s/^/cache: /"',
      'ls -A /tmp | sed "s/^/tmp: /"',
      "find /app -path /app/node_modules -prune -o \\( -name '*.test.*' -o -name '*.spec.*' -o -name test -o -name __tests__ -o -name '*.ts' ! -name '*.d.ts' \\) -print | sed 's/^/test: /'",
      'true',
    ].join('\n');
    const name = containerName('contents');
    const listed = await e.run(['run', '--rm', '--name', name, '--user', 'root', '--entrypoint', 'sh', TAG, '-c', script, 'sh', ...devOnly, ...prod.map((p) => `prod:${p}`)]);
    expect(listed.code, describeResult('contents listing', listed)).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines.find((l) => l.startsWith('app: '))).toBe('app: dist docker fixtures node_modules package.json schemas ');
    expect(lines.filter((l) => l.startsWith('dev: ')), 'dev-only packages of package-lock.json found in the image').toEqual([]);
    expect(lines.filter((l) => l.startsWith('missing: ')), 'production dependencies missing').toEqual([]);
    expect(lines.filter((l) => l.startsWith('cache: ')), 'npm cache').toEqual([]);
    // /tmp as the base image left it: the stand-in base holds npm's node-compile-cache from its own build.
    const baseTmp = await e.run(['run', '--rm', '--name', containerName('base-tmp'), '--entrypoint', 'sh', BASE_IMAGE, '-c', 'ls -A /tmp | sed "s/^/tmp: /"']);
    expect(baseTmp.code, describeResult('base image /tmp', baseTmp)).toBe(0);
    const inheritedTmp = baseTmp.stdout.trim().split('\n').filter(Boolean);
    expect(lines.filter((l) => l.startsWith('tmp: ') && !inheritedTmp.includes(l)), 'files the build left in /tmp').toEqual([]);
    expect(lines.filter((l) => l.startsWith('test: ')), 'test or source files').toEqual([]);

    const sizes = await e.run(['image', 'inspect', '--format', '{{.Size}}', TAG]);
    const base = await e.run(['image', 'inspect', '--format', '{{.Size}}', BASE_IMAGE]);
    const size = Number(sizes.stdout.trim());
    const baseSize = Number(base.stdout.trim());
    expect(size).toBeGreaterThan(0);
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    report(`image size ${mb(size)} (${size} bytes); base node:24-bookworm-slim ${base.code === 0 ? mb(baseSize) : 'unknown'}; added by the app ${base.code === 0 ? mb(size - baseSize) : 'unknown'}; ${devOnly.length} dev-only packages checked absent; /tmp inherited from the base: ${inheritedTmp.map((l) => l.slice(5)).join(', ') || 'empty'}`);
  });

  it('starts configured by environment only and turns healthy (cold start measured)', async () => {
    const e = needImage();
    main = await startHealthy(e, 'main', { ...CATALOG, MARKET_STUB_ADMIN_TOKEN: ADMIN_TOKEN });
    const logs = await logsOf(e, main.name);
    // HOST comes from the image (0.0.0.0); the catalog from MARKET_STUB_* variables.
    expect(logs.stdout).toContain(`market-stub listening on http://0.0.0.0:${main.port} serving generated: 25 markets (seed 7, clock 2026-01-01)`);
  }, 60_000);

  it('serves GET /markets and GET /markets/{market_id} byte for byte as the library does with the same seed and clock', async () => {
    if (!main) throw new Error('The main container is not running; see the test before.');
    const local = await startMarketStub({ port: 0, seed: 7, count: 25, clock: '2026-01-01' });
    try {
      const list = await fetch(`${main.url}/markets`);
      const listText = await list.text();
      expect(list.status).toBe(200);
      expect(list.headers.get('content-type')).toMatch(/^application\/json/);
      expect(listText).toBe(await (await fetch(`${local.url}/markets`)).text());
      const summaries = JSON.parse(listText) as { market_id: string }[];
      expect(summaries).toHaveLength(25);
      for (const summary of [summaries[0], summaries[12], summaries[24]]) {
        const id = encodeURIComponent(summary?.market_id ?? '');
        const one = await fetch(`${main.url}/markets/${id}`);
        const oneText = await one.text();
        expect(one.status).toBe(200);
        expect(oneText).toBe(await (await fetch(`${local.url}/markets/${id}`)).text());
        expect(JSON.parse(oneText)).toMatchObject({ ...summary, resolution_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
      }
      const unknown = await fetch(`${main.url}/markets/no-such-market`);
      await unknown.arrayBuffer();
      expect(unknown.status).toBe(404);
    } finally {
      await local.close();
    }
  });

  it('runs the server as the unprivileged user node', async () => {
    const e = needImage();
    if (!main) throw new Error('The main container is not running; see the tests before.');
    const who = await e.run(['exec', main.name, 'id', '-un']);
    expect(who.stdout.trim()).toBe('node');
    const nodeUid = (await e.run(['exec', main.name, 'id', '-u', 'node'])).stdout.trim();
    const status = await e.run(['exec', main.name, 'cat', '/proc/1/status']);
    const cmdline = await e.run(['exec', main.name, 'cat', '/proc/1/cmdline']);
    // Uid: real, effective, saved, filesystem: all of them node's, none 0.
    const uids = /^Uid:\s+(.*)$/m.exec(status.stdout)?.[1]?.trim().split(/\s+/);
    expect(nodeUid).toMatch(/^[1-9]\d*$/);
    expect(uids).toEqual([nodeUid, nodeUid, nodeUid, nodeUid]);
    expect(cmdline.stdout.split('\0').filter(Boolean)).toEqual(['node', '/app/dist/cli.cjs', 'serve']);
    report(`main: PID 1 is '${cmdline.stdout.split('\0').join(' ').trim()}' as uid ${nodeUid} (${who.stdout.trim()})`);
  });

  it(`serves a fixtures directory mounted at ${FIXTURES_MOUNT} (MARKET_STUB_FIXTURES)`, async () => {
    const e = needImage();
    const product = JSON.parse(await readFile(path.join(ROOT, 'fixtures', 'markets.json'), 'utf8')) as Record<string, unknown>[];
    // Ids no other catalog has, split over two files (served in file-name order).
    mountedMarkets = product.slice(0, 5).map((m, i) => ({ ...m, market_id: `pipeline-fixture-${i + 1}` }));
    const dir = await scratchDir('fixtures-good');
    await writeFixture(dir, 'a-first.json', `${JSON.stringify(mountedMarkets.slice(0, 2), null, 2)}\n`);
    await writeFixture(dir, 'b-second.json', `${JSON.stringify(mountedMarkets.slice(2), null, 2)}\n`);
    mounted = await startHealthy(e, 'fixtures', { MARKET_STUB_FIXTURES: FIXTURES_MOUNT }, ['-v', `${dir}:${FIXTURES_MOUNT}:ro,Z`]);
    const logs = await logsOf(e, mounted.name);
    expect(logs.stdout).toContain(`market-stub listening on http://0.0.0.0:${mounted.port} serving`);
    const list = (await (await fetch(`${mounted.url}/markets`)).json()) as unknown;
    expect(list).toEqual(mountedMarkets.map((m) => ({ market_id: m['market_id'], title: m['title'], status: m['status'], yes_price: m['yes_price'], no_price: m['no_price'] })));
    for (const market of [mountedMarkets[0], mountedMarkets[4]]) {
      const one = await fetch(`${mounted.url}/markets/${String(market?.['market_id'])}`);
      expect(one.status).toBe(200);
      expect(await one.json()).toEqual(market);
    }
  }, 60_000);

  it('MARKET_STUB_ADMIN_TOKEN guards the admin API (401 without it, 200 with it) and appears in no log; without it the image warns once at start', async () => {
    const e = needImage();
    if (!main || !mounted) throw new Error('The containers are not running; see the tests before.');
    const refused = await fetch(`${main.url}/__stub/requests`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    expect(await refused.json()).toMatchObject({ status: 401, error: 'unauthorized' });
    const wrong = await fetch(`${main.url}/__stub/reset`, { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' } });
    expect(wrong.status).toBe(401);
    const allowed = await fetch(`${main.url}/__stub/requests`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(allowed.status).toBe(200);
    const mainLogs = await logsOf(e, main.name);
    expect(mainLogs.stderr).toBe('');
    expect(mainLogs.stdout + mainLogs.stderr).not.toContain(ADMIN_TOKEN);
    const mountedLogs = await logsOf(e, mounted.name);
    const warnings = noTokenWarnings(mountedLogs.stdout);
    expect(warnings).toHaveLength(1);
    expect(mountedLogs.stderr).toBe('');
    report(`admin token: 401 without MARKET_STUB_ADMIN_TOKEN's value, 200 with it; without one the image says, in its log: ${(warnings[0] ?? '').slice(0, 120)}…`);
  }, 30_000);

  it('runs `check --base-url` through the image against the running container, exit 0', async () => {
    const e = needImage();
    if (!main) throw new Error('The main container is not running; see the tests before.');
    const name = containerName('check');
    const checked = await e.run(['run', '--rm', '--name', name, '--network=host', TAG, 'check', '--base-url', main.url], { timeoutMs: 120_000 });
    report(`check: '${e.name} run --rm IMAGE check --base-url ${main.url}' exit ${checked.code} after ${Math.round(checked.ms)} ms; last line: ${checked.stdout.trim().split('\n').at(-1) ?? ''}`);
    expect(checked.code, describeResult('check through the image', checked)).toBe(0);
  }, 130_000);

  it(`stops on SIGTERM ('stop') with exit code 0 within ${STOP_LIMIT_MS} ms`, async () => {
    const e = needImage();
    if (!main || !mounted) throw new Error('The containers are not running; see the tests before.');
    await stopGracefully(e, 'main', main.name);
    await stopGracefully(e, 'fixtures', mounted.name, true);
  }, 70_000);

  it('exits non-zero on PORT=abc with the CLI message in its logs', async () => {
    const e = needImage();
    const { state, logs, cliCode, cliStderr } = await badConfiguration(e, 'bad-port', { PORT: 'abc' }, { PORT: 'abc' });
    expect(state.status).toBe('exited');
    expect(state.exitCode).toBe(2);
    expect(cliCode).toBe(2);
    expect(logs.stderr).toContain('market-stub serve: PORT: expected an integer from 0 to 65535, found "abc".');
    expect(logs.stderr).toBe(cliStderr);
    expect(logs.stdout).toBe('');
  }, 60_000);

  it(`exits non-zero on a bad fixtures mount with the CLI message, one line per problem, in its logs`, async () => {
    const e = needImage();
    const dir = await scratchDir('fixtures-bad');
    await writeFixture(dir, 'broken.json', '[\n  {"market_id": "x",}\n]\n');
    await writeFixture(dir, 'string-price.json', `${JSON.stringify([{ market_id: 'x1', title: 'Price as a string', status: 'active', yes_price: '0.63', no_price: 0.37, resolution_date: '2026-12-31' }], null, 2)}\n`);
    const port = String(await freePort());
    const { state, logs, cliCode, cliStderr } = await badConfiguration(
      e, 'bad-fixtures', { PORT: port, MARKET_STUB_FIXTURES: FIXTURES_MOUNT }, { PORT: port, MARKET_STUB_FIXTURES: dir }, ['-v', `${dir}:${FIXTURES_MOUNT}:ro,Z`],
    );
    expect(state.status).toBe('exited');
    expect(state.exitCode).toBe(2);
    expect(cliCode).toBe(2);
    expect(logs.stderr).toContain(`${FIXTURES_MOUNT}/broken.json: expected valid JSON, found invalid JSON at line 2, column 21`);
    expect(logs.stderr).toContain(`${FIXTURES_MOUNT}/string-price.json: market [0] at /0/yes_price: expected number, found "0.63"`);
    // Same text as the CLI on the host, where the directory has its host path.
    expect(logs.stderr).toBe(cliStderr.split(dir).join(FIXTURES_MOUNT));
    expect(logs.stdout).toBe('');
  }, 60_000);
});
