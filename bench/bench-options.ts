// Command-line options of `npm run bench` and the presets behind --quick and --smoke.
import { parseArgs } from 'node:util';

export type BenchMode = 'full' | 'quick' | 'smoke';

/** Everything one harness run does; a preset per mode, then single flags override it. */
export interface BenchOptions {
  mode: BenchMode;
  /** Markets in every catalog under load (baseline, stub generated, stub fixtures). */
  count: number;
  seed: number;
  clock: string;
  /** Interleaved rounds; each round loads every server once per endpoint. Figures are medians over rounds. */
  rounds: number;
  /** Seconds per measured load run. */
  durationS: number;
  /** Seconds of unmeasured load per server and endpoint before the first round; 0 for none. */
  warmupS: number;
  connections: number;
  pipelining: number;
  /** Ids checked byte-for-byte across servers before loading: every n-th id of the catalog. */
  checkEvery: number;
  coldStartSamples: number;
  /** Generated catalog size of the scale check; 0 skips it. */
  scaleCount: number;
  scaleTimeoutS: number;
  /** Whole `node -e 0` / `market-stub --help` pairs timed; 0 skips them. */
  helpSamples: number;
  /** Markets of the first-complete-list check (100,000 in a full run); 0 skips it. */
  firstListCount: number;
  /** Markets of the streamed-list check (1,000,000 in a full run); 0 skips it. */
  streamCount: number;
  /** `wrk` (Debian's C load generator), `autocannon` (in the harness process), or `auto`: wrk when it is installed and the runs last whole seconds. */
  loadGenerator: 'auto' | 'wrk' | 'autocannon';
  micro: boolean;
  /** Only the micro-benchmarks (`npm run bench:micro`). */
  microOnly: boolean;
  generationCount: number;
  validationCount: number;
  startProcesses: number;
  warmStarts: number;
  importSamples: number;
  /** Regenerate bench/RESULTS.md (default only in full mode). */
  writeResults: boolean;
  /** Where the JSON goes. @default bench/results/latest.json */
  jsonPath: string | undefined;
  /** Where RESULTS.md goes. @default bench/RESULTS.md */
  resultsPath: string | undefined;
  /** Build when dist/ is stale (default except in smoke mode, which only checks). */
  allowBuild: boolean;
  /** Build even when dist/ looks fresh. */
  forceBuild: boolean;
  keepTemp: boolean;
}

const PRESETS: Record<BenchMode, Omit<BenchOptions, 'mode' | 'jsonPath' | 'resultsPath' | 'forceBuild' | 'keepTemp' | 'microOnly' | 'loadGenerator'>> = {
  full: {
    count: 1000, seed: 1, clock: '2026-01-01', rounds: 5, durationS: 3, warmupS: 1, connections: 20, pipelining: 1, checkEvery: 1,
    coldStartSamples: 7, scaleCount: 10_000_000, scaleTimeoutS: 20, helpSamples: 7, firstListCount: 100_000, streamCount: 1_000_000, micro: true,
    generationCount: 100_000, validationCount: 10_000, startProcesses: 5, warmStarts: 10, importSamples: 7,
    writeResults: true, allowBuild: true,
  },
  quick: {
    count: 1000, seed: 1, clock: '2026-01-01', rounds: 2, durationS: 1, warmupS: 0.3, connections: 20, pipelining: 1, checkEvery: 5,
    coldStartSamples: 3, scaleCount: 10_000_000, scaleTimeoutS: 3, helpSamples: 3, firstListCount: 100_000, streamCount: 1_000_000, micro: true,
    generationCount: 100_000, validationCount: 1_000, startProcesses: 1, warmStarts: 5, importSamples: 3,
    writeResults: false, allowBuild: true,
  },
  smoke: {
    count: 100, seed: 1, clock: '2026-01-01', rounds: 1, durationS: 0.2, warmupS: 0, connections: 4, pipelining: 1, checkEvery: 10,
    coldStartSamples: 1, scaleCount: 0, scaleTimeoutS: 5, helpSamples: 0, firstListCount: 0, streamCount: 0, micro: true,
    generationCount: 20, validationCount: 100, startProcesses: 1, warmStarts: 1, importSamples: 1,
    writeResults: false, allowBuild: false,
  },
};

export const BENCH_USAGE = `Usage: npm run bench [-- options]

  (no option)         full run: 5 interleaved rounds of 3 s, cold starts ×7, scale check, micro-benchmarks;
                      writes bench/results/latest.json and regenerates bench/RESULTS.md (< 3 min)
  --quick             2 rounds of 1 s, cold starts ×3, scale checks, the checker's budgets at small sizes (< 1 min);
                      RESULTS.md is left alone unless --write-results
  --smoke             harness self-test: 100 markets, 0.2 s runs, 1 round, no scale or checker runs, never builds
                      (test/bench/harness-smoke.test.ts)
  --micro-only        only the micro-benchmarks (npm run bench:micro)

  --rounds N  --duration S  --warmup S  --connections N  --pipelining N  --count N
  --cold-starts N     --scale-count N (0 skips)  --scale-timeout S  --no-micro
  --help-samples N    --first-list-count N (0 skips)  --stream-count N (0 skips)
  --load-generator auto|wrk|autocannon   (auto: wrk when installed and runs last whole seconds)
  --write-results     regenerate RESULTS.md in any mode      --no-write-results
  --json FILE         JSON output (default bench/results/latest.json)
  --results FILE      Markdown output (default bench/RESULTS.md)
  --build             npm run build first even if dist/ looks fresh
  --no-build          never build: measure dist/ as it is (warns when older than src/)
  --keep-temp         keep the temp dir with fixtures and server logs
`;

/** The harness's flags, for node:util parseArgs (numbers are read as strings and checked by numberFlag). */
const BENCH_FLAGS = {
  quick: { type: 'boolean' },
  smoke: { type: 'boolean' },
  'micro-only': { type: 'boolean' },
  rounds: { type: 'string' },
  duration: { type: 'string' },
  warmup: { type: 'string' },
  connections: { type: 'string' },
  pipelining: { type: 'string' },
  count: { type: 'string' },
  'cold-starts': { type: 'string' },
  'scale-count': { type: 'string' },
  'scale-timeout': { type: 'string' },
  'help-samples': { type: 'string' },
  'first-list-count': { type: 'string' },
  'stream-count': { type: 'string' },
  'load-generator': { type: 'string' },
  'no-micro': { type: 'boolean' },
  'write-results': { type: 'boolean' },
  'no-write-results': { type: 'boolean' },
  json: { type: 'string' },
  results: { type: 'string' },
  build: { type: 'boolean' },
  'no-build': { type: 'boolean' },
  'keep-temp': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A numeric flag's value, or `fallback` when it is absent. @throws Error naming the flag and what it expects. */
function numberFlag(flag: string, text: string | undefined, fallback: number, min: number, integer: boolean): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new Error(`--${flag}: expected ${integer ? 'an integer' : 'a number'} ≥ ${min}, found ${JSON.stringify(text)}.\n\n${BENCH_USAGE}`);
  }
  return n;
}

/**
 * Parses the harness's arguments (node:util parseArgs, strict).
 * @throws Error naming the bad option and what it expects; the message ends with the usage text.
 */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: BENCH_FLAGS,
  });
  if (values.help) throw new Error(BENCH_USAGE);
  if (values.quick && values.smoke) throw new Error(`--quick and --smoke exclude each other.\n\n${BENCH_USAGE}`);
  const mode: BenchMode = values.smoke ? 'smoke' : values.quick ? 'quick' : 'full';
  const preset = PRESETS[mode];
  const number = numberFlag;
  return {
    ...preset,
    mode,
    microOnly: values['micro-only'] ?? false,
    rounds: number('rounds', values.rounds, preset.rounds, 1, true),
    durationS: number('duration', values.duration, preset.durationS, 0.1, false),
    warmupS: number('warmup', values.warmup, preset.warmupS, 0, false),
    connections: number('connections', values.connections, preset.connections, 1, true),
    pipelining: number('pipelining', values.pipelining, preset.pipelining, 1, true),
    count: number('count', values.count, preset.count, 1, true),
    coldStartSamples: number('cold-starts', values['cold-starts'], preset.coldStartSamples, 1, true),
    scaleCount: number('scale-count', values['scale-count'], preset.scaleCount, 0, true),
    scaleTimeoutS: number('scale-timeout', values['scale-timeout'], preset.scaleTimeoutS, 1, false),
    helpSamples: number('help-samples', values['help-samples'], preset.helpSamples, 0, true),
    firstListCount: number('first-list-count', values['first-list-count'], preset.firstListCount, 0, true),
    streamCount: number('stream-count', values['stream-count'], preset.streamCount, 0, true),
    loadGenerator: loadGenerator(values['load-generator'] ?? (mode === 'smoke' ? 'autocannon' : 'auto')),
    micro: values['no-micro'] ? false : preset.micro,
    writeResults: values['no-write-results'] ? false : (values['write-results'] ?? preset.writeResults),
    jsonPath: values.json,
    resultsPath: values.results,
    allowBuild: values['no-build'] ? false : preset.allowBuild || (values.build ?? false),
    forceBuild: values.build ?? false,
    keepTemp: values['keep-temp'] ?? false,
  };
}

function loadGenerator(text: string): BenchOptions['loadGenerator'] {
  if (text === 'auto' || text === 'wrk' || text === 'autocannon') return text;
  throw new Error(`--load-generator: expected auto, wrk or autocannon, found ${JSON.stringify(text)}.\n\n${BENCH_USAGE}`);
}
