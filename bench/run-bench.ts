// `npm run bench`: market-stub against a bare node:http baseline in one run.
// Prints the ratio table, writes bench/results/latest.json and (full runs) bench/RESULTS.md.
// Exit code 0 when the harness ran (missed goals are results, not failures); 1 when it could not
// measure (build failed, a server did not start, a load run had errors); 2 on bad options.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBenchOptions, type BenchOptions } from './bench-options.js';
import { computeFigures, computeGoals, type BenchResults } from './bench-results.js';
import { POLL_INTERVAL_MS } from './cold-start.js';
import { display, log, ROOT } from './bench-context.js';
import { ensureBuild } from './ensure-build.js';
import { describeMachine } from './machine-info.js';
import { runMicroBenchmarks } from './micro-benchmarks.js';
import { renderResultsMarkdown, renderTable } from './render-report.js';
import { renderCheckerFigures, runCheckerBench } from './check-bench.js';
import { runLoadPhase, serverCommands, type PhaseContext } from './load-phase.js';
import { runColdStarts, runListPhases, runScalePhase } from './start-phases.js';
import { wrkAvailable, wrkVersion } from './wrk-run.js';
import { killTrackedChildren, onHarnessExit } from './tracked-children.js';

/** The load generators: wrk runs whole seconds, so the measured runs use it when their duration is one; a fractional warm-up (unmeasured) then runs with autocannon. */
function chooseGenerators(options: BenchOptions): Pick<PhaseContext, 'generator' | 'warmupGenerator'> {
  const wholeSeconds = Number.isInteger(options.durationS);
  if (options.loadGenerator === 'wrk' && !wrkAvailable()) throw new Error('--load-generator wrk: wrk is not installed (Debian: apt-get install wrk).');
  if (options.loadGenerator === 'wrk' && !wholeSeconds) throw new Error('--load-generator wrk: wrk runs whole seconds; give --duration in whole seconds.');
  const generator: 'wrk' | 'autocannon' = options.loadGenerator === 'autocannon' || (options.loadGenerator === 'auto' && (!wholeSeconds || !wrkAvailable())) ? 'autocannon' : 'wrk';
  return { generator, warmupGenerator: generator === 'wrk' && Number.isInteger(options.warmupS) ? 'wrk' : 'autocannon' };
}

/** The results before any phase ran: the machine, the build and the settings. */
function emptyResults(options: BenchOptions, generator: PhaseContext['generator']): BenchResults {
  return {
    schemaVersion: 2,
    mode: options.microOnly ? 'micro-only' : options.mode,
    startedAt: new Date().toISOString(),
    elapsedS: 0,
    machine: describeMachine(ROOT),
    build: ensureBuild(ROOT, { allowBuild: options.allowBuild, force: options.forceBuild, log }),
    settings: {
      count: options.count, seed: options.seed, clock: options.clock, rounds: options.rounds, durationS: options.durationS, warmupS: options.warmupS,
      connections: options.connections, pipelining: options.pipelining, coldStartSamples: options.coldStartSamples, coldStartPollMs: POLL_INTERVAL_MS,
      scaleCount: options.scaleCount, scaleTimeoutS: options.scaleTimeoutS,
      loadGenerator: generator === 'wrk' ? `${wrkVersion()} (one thread, a separate process)` : 'autocannon 8 (programmatic API, in the harness process)',
    },
    servers: {}, load: {}, rssAfterLoad: {}, coldStart: {}, scale: null, helpStart: null, firstList: null, stream: null, checker: [], micro: null, figures: [], goals: [],
  };
}

/** The phases a run's options ask for, in order: load, cold starts, scale, lists, checker, micro-benchmarks. */
async function runPhases(ctx: PhaseContext): Promise<void> {
  const { options } = ctx;
  if (!options.microOnly) {
    await runLoadPhase(ctx);
    await runColdStarts(ctx);
    await runScalePhase(ctx);
    await runListPhases(ctx);
  }
  // The checker's budgets: full sizes in a full run, small ones with --quick; not in --smoke.
  if (!options.microOnly && options.mode !== 'smoke') {
    ctx.results.checker = await runCheckerBench({ root: ROOT, quick: options.mode === 'quick', log });
  }
  if (options.micro || options.microOnly) {
    log('bench: micro-benchmarks…');
    ctx.results.micro = await runMicroBenchmarks({
      root: ROOT, generationCount: options.generationCount, validationCount: options.validationCount, startProcesses: options.startProcesses,
      warmStarts: options.warmStarts, importSamples: options.importSamples, timeoutMs: 60_000,
    });
  }
}

/** The whole run; returns the results (also written to disk). */
async function run(options: BenchOptions): Promise<BenchResults> {
  const t0 = performance.now();
  // The options are checked (wrk present, whole seconds) before the build and the temporary directory.
  const generators = chooseGenerators(options);
  const results = emptyResults(options, generators.generator);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'market-stub-bench-'));
  const removeTmp = () => rmSync(tmp, { recursive: true, force: true });
  const forgetCleanup = options.keepTemp ? () => false : onHarnessExit(removeTmp);
  const short = (text: string) => text.split(tmp).join('$TMP').split(`${ROOT}${path.sep}`).join('');
  const ctx: PhaseContext = { options, results, tmp, short, ...serverCommands(options, tmp), servers: [], ...generators };
  try {
    await runPhases(ctx);
  } finally {
    await Promise.all(ctx.servers.map((s) => s.stop()));
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
