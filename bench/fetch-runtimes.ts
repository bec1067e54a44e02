// `npm run bench:runtimes [-- --quick]`: the cost of market-stub/fetch under Bun and Deno, each
// against a bare handler on the same runtime, served by the same native server, answering the same
// targets with the same pre-serialised bytes (bench/runtimes/fetch-bench-server.mjs serves both).
// autocannon (in Node) loads each side on 127.0.0.1; rounds alternate the sides (the order swapped
// every round). The verdict is the paired ratio of the server's CPU time per request (user + system
// of the runtime's process, all threads, from /proc/PID/stat, over the 2xx answers of the run): the
// median over rounds of stub ÷ bare, the handler's cost per request as a multiple of the bare one's.
// Goal: ≤ 1.5×. The paired ratio of req/s (bare ÷ stub) is printed beside it: on 2 shared cores
// with the load generator in the same box it says as much about the scheduler as about the handler.
// Also in process: both handlers called directly on the same runtime (no server, no client), CPU µs
// per request (process.cpuUsage in the runtime), paired the same way.
// Routes: GET /markets/{id} over every market in turn, and GET /markets (100 markets).
// Writes bench/results/fetch-runtimes.json. Exit 0 when it measured (a missed goal is a result),
// 1 when it could not (a runtime did not start, a request failed).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensurePackages } from '../scripts/node-runtimes.mjs';
import { bundleServer, freePort, RUNTIME_PACKAGES, startProcess, waitForReady, type ServerProcess } from '../scripts/runtime-exchange.mjs';
import { median } from './bench-stats.js';
import { readProcessCpuSeconds } from './process-usage.js';
import { ensureBuild } from './ensure-build.js';
import { runLoad } from './load-run.js';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 3 : 7;
/**
 * In-process rounds per side. Each round long enough to hold several of the engine's periodic
 * collections: with rounds of 2,000 requests under Deno, the round a collection fell in cost ~5 µs a
 * request more, whichever side it was, and the paired ratio of a run swung between 1.08× and 1.93×;
 * with 10,000 it stayed within 1.11–1.23× over three runs.
 */
const IN_PROCESS_ROUNDS = QUICK ? 9 : 21;
const DURATION_S = QUICK ? 1.5 : 4;
const CONNECTIONS = 10;
/** Requests per side per round when the handlers are called directly. */
const IN_PROCESS_REQUESTS = QUICK ? 10_000 : 20_000;
const GOAL = 1.5;
const OPTIONS = { seed: 1, count: 100, clock: '2026-01-01' };
const RUNTIMES = ['bun', 'deno'] as const;
type Runtime = (typeof RUNTIMES)[number];

interface InProcessFigures {
  route: string;
  stubUs: number[];
  bareUs: number[];
  /** Median over rounds of stub ÷ bare µs per request in that round. */
  paired: number;
}

interface RouteFigures {
  runtime: string;
  route: string;
  stubReqPerSec: number[];
  bareReqPerSec: number[];
  /** Server CPU µs per 2xx answer, per round (null where there is no /proc). */
  stubCpuUs: (number | null)[];
  bareCpuUs: (number | null)[];
  /** Median over rounds of stub ÷ bare server CPU µs per request in that round (null without /proc): the verdict. */
  paired: number | null;
  /** Median over rounds of bare ÷ stub req/s in that round. */
  pairedReqPerSec: number;
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** The bench server bundled with market-stub/fetch for `runtime`, and the arguments that run it. */
async function benchCommand(runtime: Runtime, bins: string, work: string): Promise<{ bin: string; args: string[]; cwd: string }> {
  const bundle = await bundleServer(path.join(ROOT, 'bench/runtimes/fetch-bench-server.mjs'), path.resolve(process.env['MARKET_STUB_FETCH_ENTRY'] ?? path.join(ROOT, 'dist/fetch.js')), mkdtempSync(path.join(work, `${runtime}-`)));
  const args = runtime === 'bun' ? [bundle] : ['run', '--no-prompt', '--allow-net=127.0.0.1', '--allow-env', bundle];
  return { bin: path.join(bins, runtime), args, cwd: path.dirname(bundle) };
}

/** Starts the bench server on `runtime`: the handler on one port, the bare handler on another. */
async function startBenchServer(runtime: Runtime, bins: string, work: string): Promise<{ server: ServerProcess; stubUrl: string; bareUrl: string }> {
  const { bin, args, cwd } = await benchCommand(runtime, bins, work);
  const [stubPort, barePort] = [await freePort(), await freePort()];
  const env = { STUB_PORT: String(stubPort), BARE_PORT: String(barePort), MARKET_STUB_FETCH_OPTIONS: JSON.stringify(OPTIONS), NO_COLOR: '1' };
  const server = startProcess(bin, args, { cwd, env });
  const stubUrl = `http://127.0.0.1:${stubPort}`;
  const bareUrl = `http://127.0.0.1:${barePort}`;
  for (const url of [stubUrl, bareUrl]) {
    const problem = await waitForReady(url, server, 30_000);
    if (problem !== null) {
      await server.stop();
      throw new Error(`${runtime}: ${problem}`);
    }
  }
  return { server, stubUrl, bareUrl };
}

/** Both handlers called directly on `runtime` (no server, no client): µs per request, paired by round. */
async function measureInProcess(runtime: Runtime, bins: string, work: string): Promise<InProcessFigures[]> {
  const { bin, args, cwd } = await benchCommand(runtime, bins, work);
  const env = { ...process.env, IN_PROCESS: `${IN_PROCESS_ROUNDS}x${IN_PROCESS_REQUESTS}`, MARKET_STUB_FETCH_OPTIONS: JSON.stringify(OPTIONS), NO_COLOR: '1' };
  const { stdout } = await execFileAsync(bin, args, { cwd, env, timeout: 600_000, maxBuffer: 1 << 20 });
  const rounds = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, { stubUs: number[]; bareUs: number[] }>;
  const version = `${runtime} ${RUNTIME_PACKAGES[runtime].split('@')[1] ?? ''}`;
  return Object.entries(rounds).map(([route, f]) => ({ route: `${version}: ${route === 'list' ? 'GET /markets' : 'GET /markets/{id}'}`, ...f, paired: median(f.stubUs.map((us, i) => us / (f.bareUs[i] ?? us))) }));
}

/** One load run: req/s, and the server's CPU µs per 2xx answer (null without /proc). */
interface SideRun {
  reqPerSec: number;
  cpuUs: number | null;
}

/** Rounds alternating stub and bare on one route; each side warmed up first. `pid`: the server's process. */
async function measureRoute(runtime: Runtime, route: string, paths: string[], server: { pid: number; stubUrl: string; bareUrl: string }): Promise<RouteFigures> {
  const load = async (url: string, durationS: number): Promise<SideRun> => {
    const before = readProcessCpuSeconds(server.pid);
    const sample = await runLoad({ url, paths, durationS, connections: CONNECTIONS, pipelining: 1 });
    const after = readProcessCpuSeconds(server.pid);
    return { reqPerSec: sample.reqPerSec, cpuUs: before === null || after === null ? null : ((after - before) * 1e6) / sample.requests };
  };
  await load(server.stubUrl, 1);
  await load(server.bareUrl, 1);
  const stub: SideRun[] = [];
  const bare: SideRun[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      stub.push(await load(server.stubUrl, DURATION_S));
      bare.push(await load(server.bareUrl, DURATION_S));
    } else {
      bare.push(await load(server.bareUrl, DURATION_S));
      stub.push(await load(server.stubUrl, DURATION_S));
    }
  }
  const cpuRatios = stub.flatMap((s, i) => (s.cpuUs === null || !bare[i]?.cpuUs ? [] : [s.cpuUs / bare[i].cpuUs]));
  return {
    runtime, route,
    stubReqPerSec: stub.map((s) => s.reqPerSec), bareReqPerSec: bare.map((s) => s.reqPerSec),
    stubCpuUs: stub.map((s) => s.cpuUs), bareCpuUs: bare.map((s) => s.cpuUs),
    paired: cpuRatios.length === ROUNDS ? median(cpuRatios) : null,
    pairedReqPerSec: median(stub.map((s, i) => (bare[i]?.reqPerSec ?? 0) / s.reqPerSec)),
  };
}

/** Every route on one runtime; the server stopped by its pid afterwards, whatever happened. */
async function measureRuntime(runtime: Runtime, bins: string, work: string): Promise<RouteFigures[]> {
  const { server, stubUrl, bareUrl } = await startBenchServer(runtime, bins, work);
  try {
    const list = (await (await fetch(`${stubUrl}/markets`)).json()) as { market_id: string }[];
    const items = list.map((m) => `/markets/${encodeURIComponent(m.market_id)}`);
    const version = `${runtime} ${RUNTIME_PACKAGES[runtime].split('@')[1] ?? ''}`;
    const at = { pid: server.pid, stubUrl, bareUrl };
    return [await measureRoute(runtime, `${version}: GET /markets/{id}`, items, at), await measureRoute(runtime, `${version}: GET /markets`, ['/markets'], at)];
  } finally {
    await server.stop();
  }
}

function servedTable(figures: RouteFigures[]): string {
  const us = (values: (number | null)[]): string => (values.every((v) => v !== null) ? median(values as number[]).toFixed(1) : 'n/a');
  const rows = figures.map((f) => `| ${f.route} | ${us(f.stubCpuUs)} | ${us(f.bareCpuUs)} | ${f.paired === null ? 'n/a (no /proc)' : `${f.paired.toFixed(2)}×`} | ${f.paired === null ? 'not measured' : f.paired <= GOAL ? 'met' : 'missed'} | ${Math.round(median(f.stubReqPerSec))} | ${Math.round(median(f.bareReqPerSec))} | ${f.pairedReqPerSec.toFixed(2)}× |`);
  return ['Served (the runtime\'s own server, autocannon in Node on 127.0.0.1; CPU: the server process\'s, per 2xx answer):', '', '| runtime: route | handler CPU µs/request (median) | bare CPU µs/request (median) | cost ratio (CPU, paired median) | goal ≤ 1.5× | handler req/s (median) | bare req/s (median) | req/s ratio bare ÷ handler (paired median) |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}

function inProcessTable(figures: InProcessFigures[]): string {
  const rows = figures.map((f) => `| ${f.route} | ${median(f.stubUs).toFixed(1)} | ${median(f.bareUs).toFixed(1)} | ${f.paired.toFixed(2)}× | ${f.paired <= GOAL ? 'met' : 'missed'} |`);
  return [`In process (fetch(Request) called directly, ${IN_PROCESS_ROUNDS} rounds of ${IN_PROCESS_REQUESTS} requests per side after 20,000 to warm up, body read; CPU time of the runtime's process):`, '', '| runtime: route | handler CPU µs/request (median) | bare CPU µs/request (median) | cost ratio (paired median) | goal ≤ 1.5× |', '|---|---|---|---|---|', ...rows].join('\n');
}

async function main(): Promise<number> {
  log(`bench:runtimes${QUICK ? ' --quick' : ''}: ${ROUNDS} rounds per served figure (${DURATION_S} s per side, ${CONNECTIONS} connections), ${IN_PROCESS_ROUNDS} in process; dist/ ${ensureBuild(ROOT, { allowBuild: true, force: false, log })}`);
  const bins = ensurePackages('fetch-runtimes', Object.values(RUNTIME_PACKAGES));
  const work = mkdtempSync(path.join(tmpdir(), 'market-stub-bench-runtimes-'));
  const served: RouteFigures[] = [];
  const inProcess: InProcessFigures[] = [];
  try {
    for (const runtime of RUNTIMES) {
      log(`${runtime}: measuring in process, then served…`);
      inProcess.push(...(await measureInProcess(runtime, bins, work)));
      served.push(...(await measureRuntime(runtime, bins, work)));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  log(`\n${inProcessTable(inProcess)}\n\n${servedTable(served)}`);
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(path.join(ROOT, 'bench/results/fetch-runtimes.json'), `${JSON.stringify({ quick: QUICK, options: OPTIONS, goal: GOAL, inProcess, served }, null, 2)}\n`);
  return 0;
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`bench:runtimes could not measure: ${(error as Error).stack ?? String(error)}\n`);
  return 1;
});
