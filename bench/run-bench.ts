// `npm run bench`: market-stub against a bare node:http baseline in one run (issue 6).
// Prints the ratio table, writes bench/results/latest.json and (full runs) bench/RESULTS.md.
// Exit code 0 when the harness ran (missed goals are results, not failures); 1 when it could not
// measure (build failed, a server did not start, a load run had errors); 2 on bad options.
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './bench-stats.js';
import { parseBenchOptions, type BenchOptions } from './bench-options.js';
import {
  computeFigures, computeGoals, ENDPOINTS, SERVER_NAMES,
  type BenchResults, type EndpointName, type RoundSample, type ServerName, type ServerRecord,
} from './bench-results.js';
import { POLL_INTERVAL_MS, timeColdStart, type ColdStartSpec } from './cold-start.js';
import { ensureBuild } from './ensure-build.js';
import { freePort, httpGet, keepAliveAgent } from './http-get.js';
import { runLoad } from './load-run.js';
import { describeMachine } from './machine-info.js';
import { runMicroBenchmarks } from './micro-benchmarks.js';
import { readProcessMemory } from './process-usage.js';
import { renderResultsMarkdown, renderTable } from './render-report.js';
import { runScaleCheck, type ExpectedMarket } from './scale-check.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { renderCheckerFigures, runCheckerBench } from './check-bench.js';
import { timeHelp } from './help-start.js';
import { runFirstList, runStream } from './list-scale.js';
import { wrkAvailable, wrkVersion } from './wrk-run.js';
import { killTrackedChildren, onHarnessExit, spawnTracked } from './tracked-children.js';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const NODE = process.execPath;
const CLI = path.join(ROOT, 'dist/cli.cjs');
const BASELINE = path.join(ROOT, 'bench/baseline-server.mjs');

const began = performance.now();
/** Progress on stderr, with the seconds since the harness began, so slow phases show. */
const log = (line: string) => process.stderr.write(`[${((performance.now() - began) / 1000).toFixed(1)} s] ${line}\n`);
const display = (file: string) => (file.startsWith(`${ROOT}${path.sep}`) ? path.relative(ROOT, file) : file);

/** Runs `node args…` to completion; resolves its stdout. @throws on a non-zero exit or after 60 s. */
async function runNodeOnce(args: readonly string[]): Promise<string> {
  const child = spawnTracked(NODE, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`node ${args.join(' ')} failed (exit ${code}): ${stderr.trim()}`);
  return stdout;
}

/** Counts lines of a file and returns one request log line (the second line: the first is the ready line). */
async function inspectLog(file: string): Promise<{ lines: number; bytes: number; sample: string | null }> {
  let lines = 0;
  let head = '';
  for await (const chunk of createReadStream(file)) {
    const buf = chunk as Buffer;
    if (head.length < 2_000) head += buf.toString('utf8', 0, Math.min(buf.length, 2_000));
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
  }
  return { lines, bytes: statSync(file).size, sample: head.split('\n')[1]?.trim() || null };
}

/** Checks that every server answers the list and the sampled ids with the same bytes as the baseline. */
async function checkSameMarkets(servers: readonly ServerProcess[], every: number): Promise<{ ids: string[]; requests: number }> {
  const agents = servers.map(() => keepAliveAgent());
  try {
    const lists = await Promise.all(servers.map((s, i) => httpGet(`${s.url}/markets`, { timeoutMs: 10_000, agent: agents[i] as ReturnType<typeof keepAliveAgent> })));
    const [reference, ...others] = lists;
    const ref = servers[0];
    if (!reference || !ref) throw new Error('no servers to check');
    lists.forEach((l, i) => {
      if (l.status !== 200) throw new Error(`${servers[i]?.name} answered GET /markets with ${l.status}: ${l.body.toString('utf8', 0, 300)}`);
    });
    others.forEach((l, i) => {
      if (!l.body.equals(reference.body)) throw new Error(`${servers[i + 1]?.name} and ${ref.name} answer GET /markets differently (${l.body.length} vs ${reference.body.length} bytes): they do not serve the same markets, so their figures cannot be compared.`);
    });
    const ids = (JSON.parse(reference.body.toString('utf8')) as { market_id: string }[]).map((m) => m.market_id);
    let requests = servers.length;
    for (let k = 0; k < ids.length; k += every) {
      const p = `/markets/${encodeURIComponent(ids[k] as string)}`;
      const bodies = await Promise.all(servers.map((s, i) => httpGet(`${s.url}${p}`, { timeoutMs: 10_000, agent: agents[i] as ReturnType<typeof keepAliveAgent> })));
      requests += servers.length;
      bodies.forEach((b, i) => {
        if (b.status !== 200 || !b.body.equals(bodies[0]?.body ?? Buffer.alloc(0))) {
          throw new Error(`${servers[i]?.name} answers GET ${p} with ${b.status} and ${b.body.length} bytes, ${ref.name} with ${bodies[0]?.status} and ${bodies[0]?.body.length} bytes: they do not serve the same market.`);
        }
      });
    }
    return { ids, requests };
  } finally {
    for (const a of agents) a.destroy();
  }
}

/** The whole run; returns the results (also written to disk). */
async function run(options: BenchOptions): Promise<BenchResults> {
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const machine = describeMachine(ROOT);
  const build = ensureBuild(ROOT, { allowBuild: options.allowBuild, force: options.forceBuild, log });
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'market-stub-bench-'));
  const removeTmp = () => rmSync(tmp, { recursive: true, force: true });
  const forgetCleanup = options.keepTemp ? () => false : onHarnessExit(removeTmp);
  const short = (text: string) => text.split(tmp).join('$TMP').split(`${ROOT}${path.sep}`).join('');
  // wrk runs whole seconds: the measured runs use it when their duration is one; a fractional
  // warm-up (unmeasured) then runs with autocannon.
  const wholeSeconds = Number.isInteger(options.durationS);
  if (options.loadGenerator === 'wrk' && !wrkAvailable()) throw new Error('--load-generator wrk: wrk is not installed (Debian: apt-get install wrk).');
  if (options.loadGenerator === 'wrk' && !wholeSeconds) throw new Error('--load-generator wrk: wrk runs whole seconds; give --duration in whole seconds.');
  const generator: 'wrk' | 'autocannon' = options.loadGenerator === 'autocannon' || (options.loadGenerator === 'auto' && (!wholeSeconds || !wrkAvailable())) ? 'autocannon' : 'wrk';
  const warmupGenerator = generator === 'wrk' && Number.isInteger(options.warmupS) ? 'wrk' : 'autocannon';
  const results: BenchResults = {
    schemaVersion: 2,
    mode: options.microOnly ? 'micro-only' : options.mode,
    startedAt,
    elapsedS: 0,
    machine,
    build,
    settings: {
      count: options.count, seed: options.seed, clock: options.clock, rounds: options.rounds, durationS: options.durationS, warmupS: options.warmupS,
      connections: options.connections, pipelining: options.pipelining, coldStartSamples: options.coldStartSamples, coldStartPollMs: POLL_INTERVAL_MS,
      scaleCount: options.scaleCount, scaleTimeoutS: options.scaleTimeoutS,
      loadGenerator: generator === 'wrk' ? `${wrkVersion()} (one thread, a separate process)` : 'autocannon 8 (programmatic API, in the harness process)',
    },
    servers: {},
    load: {},
    rssAfterLoad: {},
    coldStart: {},
    scale: null,
    helpStart: null,
    firstList: null,
    stream: null,
    checker: [],
    micro: null,
    figures: [],
    goals: [],
  };
  const servers: ServerProcess[] = [];
  try {
    if (!options.microOnly) {
      const fixtures = path.join(tmp, `markets-${options.count}.json`);
      const catalogArgs = ['--count', String(options.count), '--seed', String(options.seed), '--clock', options.clock];
      const argsOf: Record<ServerName, (port: string) => string[]> = {
        baseline: (port) => [BASELINE, '--port', port, '--fixtures', fixtures],
        'stub-generated': (port) => [CLI, 'serve', '--port', port, ...catalogArgs],
        'stub-fixtures': (port) => [CLI, 'serve', '--port', port, '--fixtures', fixtures],
        'stub-quiet': (port) => [CLI, 'serve', '--port', port, ...catalogArgs, '--quiet'],
      };

      // Load: all three servers run side by side (idle ones cost nothing) and are loaded in turn.
      log(`bench: writing the fixtures file and starting ${SERVER_NAMES.join(', ')} (${options.count} markets)…`);
      const start = (name: ServerName) =>
        startServerProcess({ name, command: NODE, args: argsOf[name]('0'), stdoutFile: path.join(tmp, `${name}.stdout.log`), cwd: ROOT }, 30_000);
      // stub-generated needs no fixtures file, so it starts while the file is written.
      const generated = start('stub-generated');
      generated.catch(() => undefined); // awaited below; this only keeps an early failure from being unhandled
      await runNodeOnce([CLI, 'generate', ...catalogArgs, '--out', fixtures]);
      const [baseline, fromFixtures, quiet] = await Promise.all([start('baseline'), start('stub-fixtures'), start('stub-quiet')]);
      servers.push(baseline, await generated, fromFixtures, quiet);
      const answered: Record<string, number> = Object.fromEntries(SERVER_NAMES.map((n) => [n, 0]));
      const check = await checkSameMarkets(servers, options.checkEvery);
      for (const s of servers) answered[s.name] = check.requests / servers.length;
      const paths: Record<EndpointName, string[]> = {
        market: check.ids.map((id) => `/markets/${encodeURIComponent(id)}`),
        list: ['/markets'],
      };
      const plan = (server: ServerProcess, endpoint: EndpointName, durationS: number) => ({
        url: server.url, paths: paths[endpoint], durationS, connections: options.connections, pipelining: options.pipelining,
      });
      if (options.warmupS > 0) {
        log(`bench: warm-up ${options.warmupS} s per server and endpoint…`);
        for (const server of servers) {
          for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
            answered[server.name] = (answered[server.name] ?? 0) + (await runLoad(plan(server, endpoint, options.warmupS), warmupGenerator)).requests;
          }
        }
      }
      const rounds: Record<EndpointName, Record<string, RoundSample[]>> = { market: {}, list: {} };
      for (let round = 1; round <= options.rounds; round++) {
        log(`bench: round ${round}/${options.rounds}…`);
        const order = servers.map((_, i) => servers[(i + round - 1) % servers.length] as ServerProcess);
        for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
          for (const server of order) {
            const cpuBefore = server.cpuSeconds();
            const sample = await runLoad(plan(server, endpoint, options.durationS), generator);
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
      for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
        const perServer: NonNullable<BenchResults['load'][EndpointName]> = {};
        for (const server of servers) {
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
        results.load[endpoint] = perServer;
      }
      for (const server of servers) results.rssAfterLoad[server.name as ServerName] = server.memory();
      await Promise.all(servers.map((s) => s.stop()));
      for (const server of servers) {
        const info = await inspectLog(server.stdoutFile);
        const record: ServerRecord = {
          command: short(`node ${argsOf[server.name as ServerName]('0').join(' ')}`),
          stdout: `appended to $TMP/${server.name}.stdout.log (${(info.bytes / 2 ** 20).toFixed(1)} MB)`,
          logLines: info.lines,
          logBytes: info.bytes,
          sampleLogLine: info.sample,
          requestsAnswered: answered[server.name] ?? 0,
        };
        results.servers[server.name as ServerName] = record;
      }

      // Cold start: the three configurations interleaved, one start at a time.
      log(`bench: cold starts ×${options.coldStartSamples}…`);
      const coldTimeoutMs = 30_000;
      for (const name of SERVER_NAMES) results.coldStart[name] = { samplesMs: [], rssMb: [], medianMs: null };
      for (let i = 0; i < options.coldStartSamples; i++) {
        for (const name of SERVER_NAMES) {
          const figures = results.coldStart[name];
          if (!figures || figures.failure) continue;
          const port = await freePort();
          const spec: ColdStartSpec = { command: NODE, args: argsOf[name](String(port)), cwd: ROOT, port, path: '/markets' };
          const outcome = await timeColdStart(spec, coldTimeoutMs);
          if (!outcome.ok) {
            figures.failure = outcome.reason;
            continue;
          }
          figures.samplesMs.push(outcome.ms);
          try {
            figures.rssMb.push(readProcessMemory(outcome.pid).rssMb);
          } finally {
            outcome.child.kill('SIGKILL');
            await new Promise((resolve) => (outcome.child.exitCode !== null || outcome.child.signalCode !== null ? resolve(null) : outcome.child.once('exit', resolve)));
          }
        }
      }
      for (const name of SERVER_NAMES) {
        const figures = results.coldStart[name];
        if (figures) figures.medianMs = figures.samplesMs.length > 0 ? median(figures.samplesMs) : null;
      }

      if (options.scaleCount > 0) {
        log(`bench: scale check, serve --count ${options.scaleCount} (bounded at ${options.scaleTimeoutS} s)…`);
        const { generateMarket } = (await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href)) as {
          generateMarket(index: number, o: { seed: number; clock: string }): { market_id: string };
        };
        const indices = [...new Set([0, 1, Math.floor(options.scaleCount / 2), options.scaleCount - 1])].filter((k) => k < options.scaleCount);
        const markets: ExpectedMarket[] = indices.map((index) => ({ index, marketId: generateMarket(index, { seed: options.seed, clock: options.clock }).market_id }));
        results.scale = await runScaleCheck({
          node: NODE, cliPath: CLI, cwd: ROOT, count: options.scaleCount, seed: options.seed, clock: options.clock, markets, timeoutMs: options.scaleTimeoutS * 1000,
        });
      }
    }

    if (!options.microOnly) {
      const listPlan = { node: NODE, cliPath: CLI, cwd: ROOT, seed: options.seed, clock: options.clock, firstListCount: options.firstListCount, streamCount: options.streamCount, timeoutMs: 60_000 };
      if (options.helpSamples > 0) {
        log(`bench: market-stub --help against node -e 0 ×${options.helpSamples}…`);
        results.helpStart = await timeHelp({ node: NODE, cliPath: CLI, cwd: ROOT, samples: options.helpSamples, timeoutMs: 30_000 });
      }
      if (options.firstListCount > 0) {
        log(`bench: serve --count ${options.firstListCount}, spawn to the first complete GET /markets…`);
        results.firstList = await runFirstList(listPlan);
      }
      if (options.streamCount > 0) {
        log(`bench: serve --count ${options.streamCount}, GET /markets streamed whole…`);
        results.stream = await runStream(listPlan);
      }
    }

    // The checker's budgets (issue 10): full sizes in a full run, small ones with --quick; not in --smoke.
    if (!options.microOnly && options.mode !== 'smoke') {
      results.checker = await runCheckerBench({ root: ROOT, quick: options.mode === 'quick', log });
    }

    if (options.micro || options.microOnly) {
      log('bench: micro-benchmarks…');
      results.micro = await runMicroBenchmarks({
        root: ROOT, generationCount: options.generationCount, validationCount: options.validationCount, startProcesses: options.startProcesses,
        warmStarts: options.warmStarts, importSamples: options.importSamples, timeoutMs: 60_000,
      });
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await killTrackedChildren();
    forgetCleanup();
    if (options.keepTemp) log(`bench: kept ${tmp}`);
    else removeTmp();
  }
  if (!options.microOnly) results.figures = computeFigures(results);
  results.goals = computeGoals(results).filter((g) => !options.microOnly || g.id === 'startStubMs' || g.id === 'importMs' || g.id === 'generationRate');
  results.elapsedS = (performance.now() - t0) / 1000;
  return results;
}

async function main(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(argv);
  } catch (error) {
    log((error as Error).message);
    return argv.includes('--help') || argv.includes('-h') ? 0 : 2;
  }
  let results: BenchResults;
  try {
    results = await run(options);
  } catch (error) {
    log(`bench: could not measure: ${(error as Error).message}`);
    return 1;
  }
  process.stdout.write(renderTable(results));
  if (results.checker.length > 0) process.stdout.write(renderCheckerFigures(results.checker));
  const jsonPath = path.resolve(ROOT, options.jsonPath ?? 'bench/results/latest.json');
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  log(`bench: wrote ${display(jsonPath)} (run took ${results.elapsedS.toFixed(1)} s)`);
  if (options.writeResults && !options.microOnly) {
    const mdPath = path.resolve(ROOT, options.resultsPath ?? 'bench/RESULTS.md');
    const command = options.mode === 'full' ? 'npm run bench' : `npm run bench -- --${options.mode} --write-results`;
    writeFileSync(mdPath, renderResultsMarkdown(results, command));
    log(`bench: wrote ${display(mdPath)}`);
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
