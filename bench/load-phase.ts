import path from 'node:path';
import { median } from './bench-stats.js';
import type { BenchOptions } from './bench-options.js';
import { ENDPOINTS, SERVER_NAMES, type BenchResults, type EndpointName, type RoundSample, type ServerName, type ServerRecord } from './bench-results.js';
import { BASELINE, CLI, log, NODE, ROOT } from './bench-context.js';
import { runLoad } from './load-run.js';
import { checkSameMarkets, inspectLog, runNodeOnce } from './server-checks.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

/** What the phases of one run share: the options, the results they fill in, the temporary directory and the servers running. */
export interface PhaseContext {
  options: BenchOptions;
  results: BenchResults;
  tmp: string;
  /** A command line with the temporary directory and the root shortened (for the results). */
  short(text: string): string;
  /** The command line of each server configuration on a port. */
  argsOf: Record<ServerName, (port: string) => string[]>;
  /** The fixtures file the baseline and stub-fixtures serve (written by the load phase). */
  fixtures: string;
  catalogArgs: string[];
  /** Servers started (stopped by the run's cleanup whatever happens). */
  servers: ServerProcess[];
  generator: 'wrk' | 'autocannon';
  warmupGenerator: 'wrk' | 'autocannon';
}

/** The command lines of the four configurations over one fixtures file in `tmp`. */
export function serverCommands(options: BenchOptions, tmp: string): Pick<PhaseContext, 'argsOf' | 'fixtures' | 'catalogArgs'> {
  const fixtures = path.join(tmp, `markets-${options.count}.json`);
  const catalogArgs = ['--count', String(options.count), '--seed', String(options.seed), '--clock', options.clock];
  const argsOf: Record<ServerName, (port: string) => string[]> = {
    baseline: (port) => [BASELINE, '--port', port, '--fixtures', fixtures],
    'stub-generated': (port) => [CLI, 'serve', '--port', port, ...catalogArgs],
    'stub-fixtures': (port) => [CLI, 'serve', '--port', port, '--fixtures', fixtures],
    'stub-quiet': (port) => [CLI, 'serve', '--port', port, ...catalogArgs, '--quiet'],
  };
  return { fixtures, catalogArgs, argsOf };
}

type Answered = Record<string, number>;
type Plan = (server: ServerProcess, endpoint: EndpointName, durationS: number) => Parameters<typeof runLoad>[0];

/**
 * The load phase: start the servers side by side (idle ones cost nothing), check they serve the
 * same bytes, warm up, run the measured rounds (servers in a rotating order), take medians, then
 * stop them and record what each logged.
 */
export async function runLoadPhase(ctx: PhaseContext): Promise<void> {
  const { options, servers } = ctx;
  await startServers(ctx);
  const answered: Answered = Object.fromEntries(SERVER_NAMES.map((n) => [n, 0]));
  const check = await checkSameMarkets(servers, options.checkEvery);
  for (const s of servers) answered[s.name] = check.requests / servers.length;
  const paths: Record<EndpointName, string[]> = { market: check.ids.map((id) => `/markets/${encodeURIComponent(id)}`), list: ['/markets'] };
  const plan: Plan = (server, endpoint, durationS) => ({ url: server.url, paths: paths[endpoint], durationS, connections: options.connections, pipelining: options.pipelining });
  if (options.warmupS > 0) {
    log(`bench: warm-up ${options.warmupS} s per server and endpoint…`);
    for (const server of servers) {
      for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
        answered[server.name] = (answered[server.name] ?? 0) + (await runLoad(plan(server, endpoint, options.warmupS), ctx.warmupGenerator)).requests;
      }
    }
  }
  const rounds = await loadRounds(ctx, plan, answered);
  summariseRounds(ctx, rounds);
  for (const server of servers) ctx.results.rssAfterLoad[server.name as ServerName] = server.memory();
  await Promise.all(servers.map((s) => s.stop()));
  await recordServers(ctx, answered);
}

/** Writes the fixtures file and starts the four servers (stub-generated needs no file, so it starts while the file is written). */
async function startServers(ctx: PhaseContext): Promise<void> {
  log(`bench: writing the fixtures file and starting ${SERVER_NAMES.join(', ')} (${ctx.options.count} markets)…`);
  const start = (name: ServerName) =>
    startServerProcess({ name, command: NODE, args: ctx.argsOf[name]('0'), stdoutFile: path.join(ctx.tmp, `${name}.stdout.log`), cwd: ROOT }, 30_000);
  const generated = start('stub-generated');
  generated.catch(() => undefined); // awaited below; this only keeps an early failure from being unhandled
  await runNodeOnce([CLI, 'generate', ...ctx.catalogArgs, '--out', ctx.fixtures]);
  const [baseline, fromFixtures, quiet] = await Promise.all([start('baseline'), start('stub-fixtures'), start('stub-quiet')]);
  ctx.servers.push(baseline, await generated, fromFixtures, quiet);
}

/** The measured rounds: each endpoint on each server in turn, the order rotating by round; server CPU per request read around each run. */
async function loadRounds(ctx: PhaseContext, plan: Plan, answered: Answered): Promise<Record<EndpointName, Record<string, RoundSample[]>>> {
  const { options, servers } = ctx;
  const rounds: Record<EndpointName, Record<string, RoundSample[]>> = { market: {}, list: {} };
  for (let round = 1; round <= options.rounds; round++) {
    log(`bench: round ${round}/${options.rounds}…`);
    const order = servers.map((_, i) => servers[(i + round - 1) % servers.length] as ServerProcess);
    for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
      for (const server of order) {
        const cpuBefore = server.cpuSeconds();
        const sample = await runLoad(plan(server, endpoint, options.durationS), ctx.generator);
        const cpuAfter = server.cpuSeconds();
        const cpu = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
        answered[server.name] = (answered[server.name] ?? 0) + sample.requests;
        (rounds[endpoint][server.name] ??= []).push({
          ...sample, round,
          cpuUsPerReq: cpu === null ? null : (cpu * 1e6) / sample.requests,
          serverCpuPct: cpu === null ? null : (cpu / sample.durationS) * 100,
        });
      }
    }
  }
  return rounds;
}

/** Each server's rounds and their medians, per endpoint, into the results. */
function summariseRounds(ctx: PhaseContext, rounds: Record<EndpointName, Record<string, RoundSample[]>>): void {
  for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
    const perServer: NonNullable<BenchResults['load'][EndpointName]> = {};
    for (const server of ctx.servers) {
      const rs = rounds[endpoint][server.name] ?? [];
      const nullableMedian = (pick: (r: RoundSample) => number | null) => {
        const vs = rs.map(pick).filter((v): v is number => v !== null);
        return vs.length > 0 ? median(vs) : null;
      };
      perServer[server.name as ServerName] = {
        rounds: rs,
        median: {
          reqPerSec: median(rs.map((r) => r.reqPerSec)), p50Ms: median(rs.map((r) => r.p50Ms)), p99Ms: median(rs.map((r) => r.p99Ms)),
          cpuUsPerReq: nullableMedian((r) => r.cpuUsPerReq), serverCpuPct: nullableMedian((r) => r.serverCpuPct),
        },
      };
    }
    ctx.results.load[endpoint] = perServer;
  }
}

/** What each stopped server was started with, logged and answered. */
async function recordServers(ctx: PhaseContext, answered: Answered): Promise<void> {
  for (const server of ctx.servers) {
    const info = await inspectLog(server.stdoutFile);
    const record: ServerRecord = {
      command: ctx.short(`node ${ctx.argsOf[server.name as ServerName]('0').join(' ')}`),
      stdout: `appended to $TMP/${server.name}.stdout.log (${(info.bytes / 2 ** 20).toFixed(1)} MB)`,
      logLines: info.lines,
      logBytes: info.bytes,
      sampleLogLine: info.sample,
      requestsAnswered: answered[server.name] ?? 0,
    };
    ctx.results.servers[server.name as ServerName] = record;
  }
}
