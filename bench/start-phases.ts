import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './bench-stats.js';
import { SERVER_NAMES } from './bench-results.js';
import { CLI, log, NODE, ROOT } from './bench-context.js';
import { timeColdStart, type ColdStartSpec } from './cold-start.js';
import { freePort } from './http-get.js';
import { timeHelp } from './help-start.js';
import { runFirstList, runStream } from './list-scale.js';
import type { PhaseContext } from './load-phase.js';
import { readProcessMemory } from './process-usage.js';
import { runScaleCheck, type ExpectedMarket } from './scale-check.js';

/** Cold start: the configurations interleaved, one start at a time; a configuration that fails once is not started again. */
export async function runColdStarts(ctx: Pick<PhaseContext, 'options' | 'results' | 'argsOf'>): Promise<void> {
  const { options, results } = ctx;
  log(`bench: cold starts ×${options.coldStartSamples}…`);
  const coldTimeoutMs = 30_000;
  for (const name of SERVER_NAMES) results.coldStart[name] = { samplesMs: [], rssMb: [], medianMs: null };
  for (let i = 0; i < options.coldStartSamples; i++) {
    for (const name of SERVER_NAMES) {
      const figures = results.coldStart[name];
      if (!figures || figures.failure) continue;
      const port = await freePort();
      const spec: ColdStartSpec = { command: NODE, args: ctx.argsOf[name](String(port)), cwd: ROOT, port, path: '/markets' };
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
}

/** The scale check: `serve --count N` bounded in time, its first, middle and last markets fetched. */
export async function runScalePhase(ctx: Pick<PhaseContext, 'options' | 'results'>): Promise<void> {
  const { options } = ctx;
  if (options.scaleCount <= 0) return;
  log(`bench: scale check, serve --count ${options.scaleCount} (bounded at ${options.scaleTimeoutS} s)…`);
  const { generateMarket } = (await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href)) as {
    generateMarket(index: number, o: { seed: number; clock: string }): { market_id: string };
  };
  const indices = [...new Set([0, 1, Math.floor(options.scaleCount / 2), options.scaleCount - 1])].filter((k) => k < options.scaleCount);
  const markets: ExpectedMarket[] = indices.map((index) => ({ index, marketId: generateMarket(index, { seed: options.seed, clock: options.clock }).market_id }));
  ctx.results.scale = await runScaleCheck({
    node: NODE, cliPath: CLI, cwd: ROOT, count: options.scaleCount, seed: options.seed, clock: options.clock, markets, timeoutMs: options.scaleTimeoutS * 1000,
  });
}

/** `--help` against `node -e 0`, and the large lists: spawn to the first complete GET /markets, and a list streamed whole. */
export async function runListPhases(ctx: Pick<PhaseContext, 'options' | 'results'>): Promise<void> {
  const { options, results } = ctx;
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
