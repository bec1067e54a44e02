// Micro-benchmarks of the library, each in fresh Node processes (bench/micro-probe.mjs): market
// generation and validation rates, in-process startMarketStub to ready, and the entry's import time.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './bench-stats.js';
import { spawnTracked, stopChild } from './tracked-children.js';

/** Sizes of one micro-benchmark run. */
export interface MicroPlan {
  /** Repository root (holds dist/ and bench/). */
  root: string;
  /** Markets generated in the timed generation pass. */
  generationCount: number;
  /** Markets validated per pass. */
  validationCount: number;
  /** Fresh processes that each import the entry and call startMarketStub({ count: 100 }) once. */
  startProcesses: number;
  /** Further starts (and closes) in each of those processes. */
  warmStarts: number;
  /** Fresh processes timing `await import(entry)`. */
  importSamples: number;
  /** Limit for each probe process, ms. */
  timeoutMs: number;
}

export interface MicroFigures {
  /** The package entry measured, relative to the root: dist/index.js, or dist/stub.js before it exists. */
  entry: string;
  generation: { count: number; marketsPerSecond: number; ms: number };
  validation: { count: number; isMarketPerSecond: number; marketPerSecond: number; compileMs: number };
  startStub: { count: number; firstReadyMs: number[]; firstReadyMedianMs: number; warmReadyMedianMs: number | null; importMs: number[] };
  importTime: { samplesMs: number[]; medianMs: number };
}

/** The count of markets in the in-process start goal (startMarketStub({ count: 100 })). */
export const START_STUB_COUNT = 100;

/** Runs `node args…` in the repository root, bounded by `timeoutMs`, and returns its stdout. */
async function runNode(root: string, args: readonly string[], timeoutMs: number): Promise<string> {
  const child = spawnTracked(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr = (stderr + t).slice(-2_000)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopChild(child, 0);
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  if (timedOut) throw new Error(`node ${args.join(' ')} did not finish within ${timeoutMs} ms`);
  if (code !== 0) throw new Error(`node ${args.join(' ')} failed (exit ${code}): ${stderr.trim()}`);
  return stdout;
}

async function probe<T>(plan: MicroPlan, args: readonly string[]): Promise<T> {
  const out = await runNode(plan.root, [path.join(plan.root, 'bench/micro-probe.mjs'), ...args], plan.timeoutMs);
  return JSON.parse(out) as T;
}

/** dist/index.js when the build has it, else dist/stub.js (the entry before src/index.ts existed). */
export function packageEntry(root: string): string {
  return existsSync(path.join(root, 'dist/index.js')) ? 'dist/index.js' : 'dist/stub.js';
}

/**
 * Runs every micro-benchmark, one probe process at a time.
 * @throws Error when a probe fails (e.g. generated markets do not validate) or exceeds its time.
 */
export async function runMicroBenchmarks(plan: MicroPlan): Promise<MicroFigures> {
  const dist = path.join(plan.root, 'dist');
  const entry = packageEntry(plan.root);
  const entryPath = path.join(plan.root, entry);

  const importSamples: number[] = [];
  const importScript = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(entryPath).href)}); process.stdout.write(String(performance.now() - t));`;
  for (let i = 0; i < plan.importSamples; i++) {
    importSamples.push(Number(await runNode(plan.root, ['--input-type=module', '-e', importScript], plan.timeoutMs)));
  }

  const firstReady: number[] = [];
  const warm: number[] = [];
  const startImports: number[] = [];
  for (let i = 0; i < plan.startProcesses; i++) {
    const r = await probe<{ importMs: number; firstReadyMs: number; warmMs: number[] }>(plan, ['start-stub', entryPath, String(START_STUB_COUNT), String(plan.warmStarts)]);
    firstReady.push(r.firstReadyMs);
    startImports.push(r.importMs);
    warm.push(...r.warmMs);
  }

  const generation = await probe<{ count: number; ms: number; marketsPerSecond: number }>(plan, ['generation', dist, String(plan.generationCount)]);
  const validation = await probe<MicroFigures['validation']>(plan, ['validation', dist, String(plan.validationCount)]);

  return {
    entry,
    generation,
    validation,
    startStub: {
      count: START_STUB_COUNT,
      firstReadyMs: firstReady,
      firstReadyMedianMs: median(firstReady),
      warmReadyMedianMs: warm.length > 0 ? median(warm) : null,
      importMs: startImports,
    },
    importTime: { samplesMs: importSamples, medianMs: median(importSamples) },
  };
}
