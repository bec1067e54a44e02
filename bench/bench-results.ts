// The shape of a run's results (bench/results/latest.json) and the figures and goals derived from
// them: every comparative figure as a ratio to the baseline measured in the same run (a machine's speed drifts between runs; ratios of one run hold).
import type { BenchMode, BenchOptions } from './bench-options.js';
import type { ColdStartFigures } from './cold-start.js';
import type { LoadSample } from './load-run.js';
import type { MachineInfo } from './machine-info.js';
import type { MicroFigures } from './micro-benchmarks.js';
import type { ProcessMemory } from './process-usage.js';
import type { ScaleCheckResult } from './scale-check.js';
import type { HelpStartResult } from './help-start.js';
import type { FirstListResult, StreamResult } from './list-scale.js';
import type { CheckerFigure } from './check-bench.js';
import { median } from './bench-stats.js';

export const SERVER_NAMES = ['baseline', 'stub-generated', 'stub-fixtures', 'stub-quiet'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];
export const STUB_NAMES = ['stub-generated', 'stub-fixtures', 'stub-quiet'] as const;
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

/**
 * A figure compared with the baseline. `ratio` is always stub ÷ baseline (of the medians).
 * `pairedRatio`, on load figures only: the median over rounds of (the stub's value in round r ÷ the
 * baseline's in round r). The servers of a round run back to back, so a change of the machine's
 * speed between rounds cancels out of it; the goal's verdict is taken on it when present.
 */
export interface Figure {
  id: string;
  label: string;
  unit: string;
  better: 'higher' | 'lower';
  baseline: number | null;
  stubs: Record<StubName, { value: number | null; ratio: number | null; pairedRatio: number | null; goal: RatioGoal | null }>;
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
  /** 2 since the second set of figures (stub-quiet, peak RSS, --help, list scale, checker figures). */
  schemaVersion: 2;
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
  /** `market-stub --help` against `node -e 0`; null when skipped (smoke). */
  helpStart: HelpStartResult | null;
  /** `serve --count 100000`: spawn to its first complete GET /markets; null when skipped. */
  firstList: FirstListResult | null;
  /** A 1,000,000-market GET /markets streamed whole; null when skipped. */
  stream: StreamResult | null;
  /** The checker's budgets (bench/check-bench.ts); empty when skipped (smoke). */
  checker: CheckerFigure[];
  micro: MicroFigures | null;
  figures: Figure[];
  goals: AbsoluteGoal[];
}

/**
 * The goals on ratios to the baseline, by figure id: the
 * default stubs (request log on) serve one market at ≥ 0.5× the baseline's rate, `--quiet` at
 * ≥ 0.8×; every stub's p99 ≤ 1.5×, list rate ≥ 0.8× and peak RSS ≤ 1.5×; the default stubs
 * start to their first 200 within 1.5× the baseline's start. Figures without an entry have none.
 */
const RATIO_GOALS: Record<string, readonly { op: '>=' | '<='; limit: number; stubs?: readonly StubName[] }[]> = {
  'market.reqPerSec': [{ op: '>=', limit: 0.5, stubs: ['stub-generated', 'stub-fixtures'] }, { op: '>=', limit: 0.8, stubs: ['stub-quiet'] }],
  'market.p99Ms': [{ op: '<=', limit: 1.5 }],
  'list.reqPerSec': [{ op: '>=', limit: 0.8 }],
  coldStartMs: [{ op: '<=', limit: 1.5, stubs: ['stub-generated', 'stub-fixtures'] }],
  peakRssMb: [{ op: '<=', limit: 1.5 }],
};

/** Per-round values of one server on a load figure, by round number. */
type RoundValues = (server: ServerName) => ReadonlyMap<number, number | null> | null;

function figure(id: string, label: string, unit: string, better: Figure['better'], pick: (server: ServerName) => number | null, rounds?: RoundValues): Figure {
  const baseline = pick('baseline');
  const baselineRounds = rounds?.('baseline') ?? null;
  const stubs = {} as Figure['stubs'];
  for (const name of STUB_NAMES) {
    const value = pick(name);
    const ratio = value !== null && baseline !== null && baseline > 0 ? value / baseline : null;
    const pairedRatio = rounds ? medianOfRoundRatios(rounds(name), baselineRounds) : null;
    const judged = rounds ? pairedRatio : ratio;
    const spec = RATIO_GOALS[id]?.find((g) => !g.stubs || g.stubs.includes(name));
    const goal = spec ? { op: spec.op, limit: spec.limit, pass: judged === null ? null : spec.op === '>=' ? judged >= spec.limit : judged <= spec.limit } : null;
    stubs[name] = { value, ratio, pairedRatio, goal };
  }
  return { id, label, unit, better, baseline, stubs };
}

/** The median of stub ÷ baseline over the rounds both measured; null when no round pairs up. */
export function medianOfRoundRatios(stub: ReadonlyMap<number, number | null> | null, baseline: ReadonlyMap<number, number | null> | null): number | null {
  if (!stub || !baseline) return null;
  const ratios: number[] = [];
  for (const [round, value] of stub) {
    const base = baseline.get(round);
    if (value !== null && base !== null && base !== undefined && base > 0) ratios.push(value / base);
  }
  return ratios.length > 0 ? median(ratios) : null;
}

/** The comparative figures of a run, in table order. */
export function computeFigures(results: Pick<BenchResults, 'load' | 'coldStart' | 'rssAfterLoad'>): Figure[] {
  const figures: Figure[] = [];
  for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
    const m = (server: ServerName) => results.load[endpoint]?.[server]?.median ?? null;
    const perRound = (pick: (r: RoundSample) => number | null): RoundValues => (server) => {
      const rs = results.load[endpoint]?.[server]?.rounds;
      return rs ? new Map(rs.map((r) => [r.round, pick(r)])) : null;
    };
    const label = ENDPOINTS[endpoint];
    figures.push(
      figure(`${endpoint}.reqPerSec`, `${label} req/s`, 'req/s', 'higher', (s) => m(s)?.reqPerSec ?? null, perRound((r) => r.reqPerSec)),
      figure(`${endpoint}.p50Ms`, `${label} p50`, 'ms', 'lower', (s) => m(s)?.p50Ms ?? null, perRound((r) => r.p50Ms)),
      figure(`${endpoint}.p99Ms`, `${label} p99`, 'ms', 'lower', (s) => m(s)?.p99Ms ?? null, perRound((r) => r.p99Ms)),
      figure(`${endpoint}.cpuUsPerReq`, `${label} server CPU/req`, 'µs', 'lower', (s) => m(s)?.cpuUsPerReq ?? null, perRound((r) => r.cpuUsPerReq)),
    );
  }
  figures.push(
    figure('coldStartMs', 'cold start to first 200', 'ms', 'lower', (s) => results.coldStart[s]?.medianMs ?? null),
    figure('rssAfterLoadMb', 'RSS after load', 'MB', 'lower', (s) => results.rssAfterLoad[s]?.rssMb ?? null),
    figure('peakRssMb', 'peak RSS (VmHWM)', 'MB', 'lower', (s) => results.rssAfterLoad[s]?.peakRssMb ?? null),
  );
  return figures;
}

/** The first absolute goals: in-process start, import time, and the 10,000,000-market scale check. */
export function computeGoals(results: Pick<BenchResults, 'micro' | 'scale' | 'settings' | 'helpStart' | 'firstList' | 'stream' | 'checker'>): AbsoluteGoal[] {
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
  goals.push(...startupAndScaleGoals(results));
  return goals;
}

const skipped = 'skipped in this mode';

/** The later absolute goals: --help, generation rate, the 100,000-market first list, the 1,000,000-market stream; and the checker's. */
function startupAndScaleGoals(results: Pick<BenchResults, 'micro' | 'helpStart' | 'firstList' | 'stream' | 'checker'>): AbsoluteGoal[] {
  const goals: AbsoluteGoal[] = [];
  const h = results.helpStart;
  goals.push(h
    ? { id: 'helpRatio', label: `market-stub --help ÷ node -e 0, whole processes (medians of ${h.helpMs.length})`, value: h.ratio, unit: '×', display: `${h.ratio.toFixed(2)}× (${h.helpMedianMs.toFixed(0)} vs ${h.nodeMedianMs.toFixed(0)} ms)`, target: '< 2×', pass: h.ratio < 2 }
    : { id: 'helpRatio', label: 'market-stub --help ÷ node -e 0', value: null, unit: '×', display: skipped, target: '< 2×', pass: null });
  const g = results.micro?.generation;
  goals.push(g
    ? { id: 'generationRate', label: `generateMarkets(${g.count.toLocaleString('en-US')}) in a fresh process, value pools drawn inside the timing`, value: g.marketsPerSecond, unit: 'markets/s', display: `${Math.round(g.marketsPerSecond).toLocaleString('en-US')} markets/s`, target: '≥ 100,000 markets/s', pass: g.marketsPerSecond >= 100_000 }
    : { id: 'generationRate', label: 'generateMarkets(n) in a fresh process', value: null, unit: 'markets/s', display: 'not measured (--no-micro)', target: '≥ 100,000 markets/s', pass: null });
  const f = results.firstList;
  goals.push(f
    ? { id: 'firstListMs', label: `serve --count ${f.count.toLocaleString('en-US')}: spawn to its first complete GET /markets${f.bytes ? ` (${(f.bytes / 1e6).toFixed(1)} MB)` : ''}`, value: f.ms, unit: 'ms', display: f.ms === null ? (f.failure ?? 'failed') : `${f.ms.toFixed(0)} ms`, target: '< 1 s', pass: f.ms !== null && f.ms < 1000 }
    : { id: 'firstListMs', label: 'serve --count 100,000: spawn to its first complete GET /markets', value: null, unit: 'ms', display: skipped, target: '< 1 s', pass: null });
  const st = results.stream;
  goals.push(st
    ? { id: 'streamMbPerSecond', label: `serve --count ${st.count.toLocaleString('en-US')}: GET /markets streamed whole${st.bytes ? ` (${(st.bytes / 1e6).toFixed(0)} MB in ${((st.ms ?? 0) / 1000).toFixed(2)} s, server peak RSS ${st.peakRssMb?.toFixed(0) ?? '—'} MB)` : ''}`, value: st.mbPerSecond, unit: 'MB/s', display: st.mbPerSecond === null ? (st.failure ?? 'failed') : `${st.mbPerSecond.toFixed(1)} MB/s`, target: '≥ 50 MB/s', pass: st.mbPerSecond !== null && st.mbPerSecond >= 50 }
    : { id: 'streamMbPerSecond', label: 'serve --count 1,000,000: GET /markets streamed whole', value: null, unit: 'MB/s', display: skipped, target: '≥ 50 MB/s', pass: null });
  for (const c of results.checker) {
    const value = c.unit === 'ms' ? `${c.value.toFixed(0)} ms` : `${c.value.toFixed(2)} ${c.unit}`;
    goals.push({ id: `checker: ${c.name}`, label: `checker: ${c.name} (${c.detail})`, value: c.value, unit: c.unit, display: value, target: c.unit === 'ms' ? `< ${c.budget.toLocaleString('en-US')} ms` : `< ${c.budget} ${c.unit}`, pass: c.met });
  }
  return goals;
}
