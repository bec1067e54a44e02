// The shape of a run's results (bench/results/latest.json) and the figures and goals derived from
// them: every comparative figure as a ratio to the baseline measured in the same run (issue 6).
import type { BenchMode, BenchOptions } from './bench-options.js';
import type { ColdStartFigures } from './cold-start.js';
import type { LoadSample } from './load-run.js';
import type { MachineInfo } from './machine-info.js';
import type { MicroFigures } from './micro-benchmarks.js';
import type { ProcessMemory } from './process-usage.js';
import type { ScaleCheckResult } from './scale-check.js';

export const SERVER_NAMES = ['baseline', 'stub-generated', 'stub-fixtures'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];
export const STUB_NAMES = ['stub-generated', 'stub-fixtures'] as const;
export type StubName = (typeof STUB_NAMES)[number];

export const ENDPOINTS = {
  market: 'GET /markets/{id}',
  list: 'GET /markets',
} as const;
export type EndpointName = keyof typeof ENDPOINTS;

/** One measured load run plus the server's CPU use during it. */
export interface RoundSample extends LoadSample {
  round: number;
  /** Server CPU time per 2xx response, µs (user + system); null without procfs. */
  cpuUsPerReq: number | null;
  /** Server CPU time over wall time, % of one core; below ~90 % the load generator set the pace. */
  serverCpuPct: number | null;
}

/** Medians over the rounds of one server on one endpoint. */
export interface LoadMedians {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerReq: number | null;
  serverCpuPct: number | null;
}

export interface ServerRecord {
  /** The command line, with the temp dir shortened to $TMP. */
  command: string;
  /** Where its stdout (request log) went. */
  stdout: string;
  /** Lines the server wrote to stdout (ready line + request log), counted after it stopped. */
  logLines: number | null;
  logBytes: number | null;
  /** One request log line as written, to show the format. */
  sampleLogLine: string | null;
  /** Requests the harness sent it that were answered (checks + warm-up + measured runs). */
  requestsAnswered: number;
}

/** A figure compared with the baseline. `ratio` is always stub ÷ baseline. */
export interface Figure {
  id: string;
  label: string;
  unit: string;
  better: 'higher' | 'lower';
  baseline: number | null;
  stubs: Record<StubName, { value: number | null; ratio: number | null; goal: RatioGoal | null }>;
}

/** A goal on a ratio: `ratio op limit`, e.g. req/s ratio ≥ 0.5. */
export interface RatioGoal {
  op: '>=' | '<=';
  limit: number;
  /** null when the figure is missing (a server failed to start). */
  pass: boolean | null;
}

/** A goal on an absolute value (library start, import time, scale). */
export interface AbsoluteGoal {
  id: string;
  label: string;
  value: number | null;
  unit: string;
  /** What is printed for the value, e.g. `12.3 ms` or `did not start within 20 s`. */
  display: string;
  target: string;
  /** null when not measured in this run (e.g. the scale check is skipped in smoke mode). */
  pass: boolean | null;
}

export interface BenchResults {
  schemaVersion: 1;
  /** The preset run, or `micro-only` for `npm run bench:micro`. */
  mode: BenchMode | 'micro-only';
  startedAt: string;
  elapsedS: number;
  machine: MachineInfo;
  build: string;
  settings: Pick<BenchOptions, 'count' | 'seed' | 'clock' | 'rounds' | 'durationS' | 'warmupS' | 'connections' | 'pipelining' | 'coldStartSamples' | 'scaleCount' | 'scaleTimeoutS'> & {
    coldStartPollMs: number;
    loadGenerator: string;
  };

  servers: Partial<Record<ServerName, ServerRecord>>;
  load: Partial<Record<EndpointName, Partial<Record<ServerName, { rounds: RoundSample[]; median: LoadMedians }>>>>;
  rssAfterLoad: Partial<Record<ServerName, ProcessMemory>>;
  coldStart: Partial<Record<ServerName, ColdStartFigures & { medianMs: number | null }>>;
  scale: ScaleCheckResult | null;
  micro: MicroFigures | null;
  figures: Figure[];
  goals: AbsoluteGoal[];
}

/** Issue 6's goals on ratios to the baseline, by figure id; figures without an entry have none. */
const RATIO_GOALS: Record<string, { op: '>=' | '<='; limit: number; only?: StubName }> = {
  'market.reqPerSec': { op: '>=', limit: 0.5 },
  'market.p99Ms': { op: '<=', limit: 2 },
  'list.reqPerSec': { op: '>=', limit: 0.8 },
  coldStartMs: { op: '<=', limit: 1.5, only: 'stub-generated' },
  rssAfterLoadMb: { op: '<=', limit: 2 },
};

function figure(id: string, label: string, unit: string, better: Figure['better'], pick: (server: ServerName) => number | null): Figure {
  const baseline = pick('baseline');
  const stubs = {} as Figure['stubs'];
  for (const name of STUB_NAMES) {
    const value = pick(name);
    const ratio = value !== null && baseline !== null && baseline > 0 ? value / baseline : null;
    const spec = RATIO_GOALS[id];
    const goal = spec && (!spec.only || spec.only === name) ? { op: spec.op, limit: spec.limit, pass: ratio === null ? null : spec.op === '>=' ? ratio >= spec.limit : ratio <= spec.limit } : null;
    stubs[name] = { value, ratio, goal };
  }
  return { id, label, unit, better, baseline, stubs };
}

/** The comparative figures of a run, in table order. */
export function computeFigures(results: Pick<BenchResults, 'load' | 'coldStart' | 'rssAfterLoad'>): Figure[] {
  const figures: Figure[] = [];
  for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
    const m = (server: ServerName) => results.load[endpoint]?.[server]?.median ?? null;
    const label = ENDPOINTS[endpoint];
    figures.push(
      figure(`${endpoint}.reqPerSec`, `${label} req/s`, 'req/s', 'higher', (s) => m(s)?.reqPerSec ?? null),
      figure(`${endpoint}.p50Ms`, `${label} p50`, 'ms', 'lower', (s) => m(s)?.p50Ms ?? null),
      figure(`${endpoint}.p99Ms`, `${label} p99`, 'ms', 'lower', (s) => m(s)?.p99Ms ?? null),
      figure(`${endpoint}.cpuUsPerReq`, `${label} server CPU/req`, 'µs', 'lower', (s) => m(s)?.cpuUsPerReq ?? null),
    );
  }
  figures.push(
    figure('coldStartMs', 'cold start to first 200', 'ms', 'lower', (s) => results.coldStart[s]?.medianMs ?? null),
    figure('rssAfterLoadMb', 'RSS after load', 'MB', 'lower', (s) => results.rssAfterLoad[s]?.rssMb ?? null),
  );
  return figures;
}

/** Issue 6's absolute goals: in-process start, import time, and the 10,000,000-market scale check. */
export function computeGoals(results: Pick<BenchResults, 'micro' | 'scale' | 'settings'>): AbsoluteGoal[] {
  const goals: AbsoluteGoal[] = [];
  const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
  const micro = results.micro;
  goals.push(
    micro
      ? { id: 'startStubMs', label: `startMarketStub({ count: ${micro.startStub.count} }) to ready after import (first call in a fresh process, median of ${micro.startStub.firstReadyMs.length})`, value: micro.startStub.firstReadyMedianMs, unit: 'ms', display: ms(micro.startStub.firstReadyMedianMs), target: '< 25 ms', pass: micro.startStub.firstReadyMedianMs < 25 }
      : { id: 'startStubMs', label: 'startMarketStub({ count: 100 }) to ready after import', value: null, unit: 'ms', display: 'not measured (--no-micro)', target: '< 25 ms', pass: null },
    micro
      ? { id: 'importMs', label: `import ${micro.entry} (fresh process, median of ${micro.importTime.samplesMs.length})`, value: micro.importTime.medianMs, unit: 'ms', display: ms(micro.importTime.medianMs), target: '< 150 ms', pass: micro.importTime.medianMs < 150 }
      : { id: 'importMs', label: 'import the package entry', value: null, unit: 'ms', display: 'not measured (--no-micro)', target: '< 150 ms', pass: null },
  );
  const scale = results.scale;
  const count = (scale?.count ?? results.settings.scaleCount).toLocaleString('en-US');
  if (!scale) {
    goals.push(
      { id: 'scaleStartMs', label: 'serve --count 10,000,000: spawn to first 200 on GET /markets/{id}', value: null, unit: 'ms', display: 'skipped in this mode', target: '< 1 s', pass: null },
      { id: 'scaleRssMb', label: 'serve --count 10,000,000: RSS after answering GET /markets/{id}', value: null, unit: 'MB', display: 'skipped in this mode', target: '< 200 MB', pass: null },
    );
  } else {
    const started = scale.startMs !== null;
    goals.push(
      {
        id: 'scaleStartMs', label: `serve --count ${count}: spawn to first 200 on GET /markets/{id}`, value: scale.startMs, unit: 'ms',
        display: started ? ms(scale.startMs as number) : (scale.failure ?? 'did not start'), target: '< 1 s', pass: started && (scale.startMs as number) < 1000,
      },
      {
        id: 'scaleRssMb', label: `serve --count ${count}: RSS after answering ${scale.answers.length} GET /markets/{id} (first, second, middle, last)`, value: scale.rssMb, unit: 'MB',
        display: scale.rssMb !== null ? `${scale.rssMb.toFixed(1)} MB${scale.failure ? ` (${scale.failure})` : ''}` : 'not measured: it did not start', target: '< 200 MB',
        pass: scale.rssMb !== null && !scale.failure && scale.rssMb < 200,
      },
    );
  }
  return goals;
}
