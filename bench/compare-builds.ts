// `npm run bench:compare -- --base-cli PATH`: this build against another build of market-stub (an
// earlier release, main before a change) in ONE run, interleaved, each beside the bare node:http
// baseline. Ratios to the baseline drift with the machine's state from one day to the next (the same
// code measured 1.27x and 1.68x server CPU per request on two days here); the ratio of this build to
// the other, taken round by round in the same run, is the figure that says whether a change made
// the stub slower. Then, on this build alone, a 304 against the 200 it replaces (the list and the
// markets, each revalidated with the tag its 200 carried).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './bench-stats.js';
import { BASELINE, CLI, log, NODE, ROOT } from './bench-context.js';
import { timeColdStart } from './cold-start.js';
import { ensureBuild } from './ensure-build.js';
import { freePort } from './http-get.js';
import { runLoad } from './load-run.js';
import { checkSameMarkets, runNodeOnce } from './server-checks.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { killTrackedChildren, onHarnessExit, stopChild } from './tracked-children.js';
import { wrkAvailable } from './wrk-run.js';

const USAGE = `Usage: npm run bench:compare -- --base-cli PATH [options]

  --base-cli PATH     dist/cli.cjs of the other build (required), e.g. from
                      git worktree add ../base COMMIT && (cd ../base && npm ci && npm run build)
  --rounds N          interleaved load rounds (default 7)
  --duration S        seconds per load run (default 3)
  --cold-starts N     interleaved cold starts per server (default 15; 0 skips them)
  --count N           markets served (default 1000)
  --quick             2 rounds of 1 s, 3 cold starts (a smoke run of the tool, not a measurement)
`;

interface CompareOptions {
  baseCli: string;
  rounds: number;
  durationS: number;
  coldStarts: number;
  count: number;
}

/** The servers compared: the baseline first (every ratio's denominator), then each build logged and --quiet. */
const SERVERS = ['baseline', 'base', 'this', 'base --quiet', 'this --quiet'] as const;
type ServerName = (typeof SERVERS)[number];

/** Reads the command line. @throws Error with the usage for a missing --base-cli or a bad number. */
function readOptions(argv: readonly string[]): CompareOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: { 'base-cli': { type: 'string' }, rounds: { type: 'string' }, duration: { type: 'string' }, 'cold-starts': { type: 'string' }, count: { type: 'string' }, quick: { type: 'boolean' } },
  });
  if (values['base-cli'] === undefined) throw new Error(`--base-cli is required.\n\n${USAGE}`);
  if (!existsSync(values['base-cli'])) throw new Error(`--base-cli ${values['base-cli']}: no such file; build the other checkout first (npm run build there) and give its dist/cli.cjs.`);
  const count = (name: string, raw: string | undefined, fallback: number, min: number) => {
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: expected a number ≥ ${min}, found ${JSON.stringify(raw)}.\n\n${USAGE}`);
    return n;
  };
  const quick = values.quick === true;
  return {
    baseCli: path.resolve(values['base-cli']),
    rounds: count('rounds', values.rounds, quick ? 2 : 7, 1),
    durationS: count('duration', values.duration, quick ? 1 : 3, 0.2),
    coldStarts: count('cold-starts', values['cold-starts'], quick ? 3 : 15, 0),
    count: count('count', values.count, 1000, 1),
  };
}

/** The command line of each server on `port` ('0' under load: the server picks). */
function argsOf(options: CompareOptions, fixtures: string): Record<ServerName, (port: string) => string[]> {
  const catalog = ['--count', String(options.count), '--seed', '1', '--clock', '2026-01-01'];
  return {
    baseline: (port) => [BASELINE, '--port', port, '--fixtures', fixtures],
    base: (port) => [options.baseCli, 'serve', '--port', port, ...catalog],
    this: (port) => [CLI, 'serve', '--port', port, ...catalog],
    'base --quiet': (port) => [options.baseCli, 'serve', '--port', port, ...catalog, '--quiet'],
    'this --quiet': (port) => [CLI, 'serve', '--port', port, ...catalog, '--quiet'],
  };
}

/** The load figures of `GET /markets/{id}` per server, one value per round. */
interface LoadFigures {
  /** Server CPU time (user + system) over the responses, µs. */
  cpuUs: Map<string, number[]>;
  reqPerSec: Map<string, number[]>;
  /** As the load generator measured it, ms. */
  p99Ms: Map<string, number[]>;
}

/** Loads `GET /markets/{id}` on each server per round, servers in a rotating order; CPU read around each run. */
async function loadRounds(servers: readonly ServerProcess[], ids: readonly string[], options: CompareOptions): Promise<LoadFigures> {
  // wrk (a separate C process) when installed and the runs last whole seconds, as `npm run bench` picks.
  const generator = wrkAvailable() && Number.isInteger(options.durationS) ? 'wrk' : 'autocannon';
  const paths = ids.map((id) => `/markets/${encodeURIComponent(id)}`);
  const plan = (server: ServerProcess, durationS: number) => ({ url: server.url, paths, durationS, connections: 20, pipelining: 1 });
  // Unmeasured warm-up: each server's JIT and caches, so the first measured round is not the slow one.
  for (const server of servers) await runLoad(plan(server, generator === 'wrk' ? 1 : Math.min(1, options.durationS)), generator);
  const empty = () => new Map<string, number[]>(servers.map((s) => [s.name, []]));
  const figures: LoadFigures = { cpuUs: empty(), reqPerSec: empty(), p99Ms: empty() };
  for (let round = 0; round < options.rounds; round++) {
    log(`compare: round ${round + 1}/${options.rounds} (${generator})…`);
    for (const server of servers.map((_, i) => servers[(i + round) % servers.length] as ServerProcess)) {
      const before = server.cpuSeconds();
      const sample = await runLoad(plan(server, options.durationS), generator);
      const after = server.cpuSeconds();
      if (before === null || after === null) throw new Error('server CPU time needs /proc (Linux)');
      figures.cpuUs.get(server.name)?.push(((after - before) * 1e6) / sample.requests);
      figures.reqPerSec.get(server.name)?.push(sample.reqPerSec);
      figures.p99Ms.get(server.name)?.push(sample.p99Ms);
    }
  }
  return figures;
}

/** The four loads of the conditional table: the list and the markets, each as a 200 and as the 304 that replaces it. */
const CONDITIONAL_CASES = ['GET /markets 200', 'GET /markets 304', 'GET /markets/{id} 200', 'GET /markets/{id} 304'] as const;

/**
 * Server CPU per request, µs, of a 304 against the 200 it replaces, on one server (this build,
 * `--quiet`): the list and every market, each 304 sent the tag its own 200 carried, rounds
 * interleaved as `loadRounds` does.
 */
async function conditionalRounds(server: ServerProcess, ids: readonly string[], options: CompareOptions): Promise<Map<string, number[]>> {
  const generator = wrkAvailable() && Number.isInteger(options.durationS) ? 'wrk' : 'autocannon';
  const tagOf = async (target: string) => {
    const res = await fetch(`${server.url}${target}`);
    await res.arrayBuffer();
    const tag = res.headers.get('etag');
    if (tag === null) throw new Error(`GET ${target} carried no ETag: this build should send one`);
    return tag;
  };
  const items = ids.map((id) => `/markets/${encodeURIComponent(id)}`);
  const itemTags: string[] = [];
  for (const target of items) itemTags.push(await tagOf(target));
  const listTag = await tagOf('/markets');
  const plans = {
    'GET /markets 200': { paths: ['/markets'] },
    'GET /markets 304': { paths: ['/markets'], headers: [{ 'if-none-match': listTag }], expectStatus: 304 },
    'GET /markets/{id} 200': { paths: items },
    'GET /markets/{id} 304': { paths: items, headers: itemTags.map((tag) => ({ 'if-none-match': tag })), expectStatus: 304 },
  };
  const perCase = new Map<string, number[]>(CONDITIONAL_CASES.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    log(`compare: conditional round ${round + 1}/${options.rounds} (${generator})…`);
    for (const name of CONDITIONAL_CASES.map((_, i) => CONDITIONAL_CASES[(i + round) % CONDITIONAL_CASES.length] as (typeof CONDITIONAL_CASES)[number])) {
      const before = server.cpuSeconds();
      const sample = await runLoad({ url: server.url, durationS: options.durationS, connections: 20, pipelining: 1, ...plans[name] }, generator);
      const after = server.cpuSeconds();
      if (before === null || after === null) throw new Error('server CPU time needs /proc (Linux)');
      perCase.get(name)?.push(((after - before) * 1e6) / sample.requests);
    }
  }
  return perCase;
}

/** The conditional table: each case's median CPU per request and, for a 304, its ratio to the 200 it replaces paired by round. */
function conditionalTable(perCase: Map<string, number[]>): string {
  const at = (name: string) => perCase.get(name) ?? [];
  const rows = CONDITIONAL_CASES.map((name) => {
    const ratio = name.endsWith('304') ? `${median(at(name).map((v, i) => v / (at(name.replace('304', '200'))[i] ?? NaN))).toFixed(2)}×` : '';
    return `| ${name} | ${digits(median(at(name)))} | ${ratio} |`;
  });
  return ['### A 304 against the 200 it replaces: server CPU per request, this build --quiet (medians over rounds; ratios are medians of the per-round ratios)', '', '| answer | µs | 304 ÷ 200 |', '|---|--:|--:|', ...rows, ''].join('\n');
}

/** Spawn to first complete `GET /markets` 200, ms, `samples` starts per server interleaved. */
async function coldStarts(args: Record<ServerName, (port: string) => string[]>, samples: number): Promise<Map<string, number[]>> {
  const perServer = new Map<string, number[]>(SERVERS.map((name) => [name, []]));
  for (let i = 0; i < samples; i++) {
    for (const name of SERVERS) {
      const port = await freePort();
      const outcome = await timeColdStart({ command: NODE, args: args[name](String(port)), cwd: ROOT, port, path: '/markets' }, 20_000);
      if (!outcome.ok) throw new Error(`cold start of ${name}: ${outcome.reason}`);
      await stopChild(outcome.child);
      perServer.get(name)?.push(outcome.ms);
    }
  }
  return perServer;
}

/** A figure with the digits that matter: 59,410 req/s, 29.5 µs, 0.91 ms. */
function digits(value: number): string {
  return value >= 1000 ? Math.round(value).toLocaleString('en-US') : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** Median of each server, its ratio to the baseline paired by round, and `this` ÷ `base` paired by round. */
function table(title: string, unit: string, figures: Map<string, number[]>, paired: boolean): string {
  const at = (name: string) => figures.get(name) ?? [];
  const ratio = (a: string, b: string) => (paired ? median(at(a).map((v, i) => v / (at(b)[i] ?? NaN))) : median(at(a)) / median(at(b)));
  const rows = SERVERS.map((name) => `| ${name} | ${digits(median(at(name)))} | ${ratio(name, 'baseline').toFixed(2)}× | ${name.startsWith('this') ? `${ratio(name, name.replace('this', 'base')).toFixed(2)}×` : ''} |`);
  const how = paired ? 'medians over rounds; ratios are medians of the per-round ratios' : 'medians; ratios of medians';
  return [`### ${title} (${how})`, '', `| server | ${unit} | ÷ baseline | this ÷ base |`, '|---|--:|--:|--:|', ...rows, ''].join('\n');
}

/** Starts the servers, checks they serve the same markets, measures, prints two tables. */
async function compare(options: CompareOptions): Promise<void> {
  ensureBuild(ROOT, { allowBuild: true, force: false, log });
  const tmp = mkdtempSync(path.join(tmpdir(), 'market-stub-compare-'));
  onHarnessExit(() => rmSync(tmp, { recursive: true, force: true }));
  const fixtures = path.join(tmp, 'markets.json');
  await runNodeOnce([CLI, 'generate', '--count', String(options.count), '--seed', '1', '--clock', '2026-01-01', '--out', fixtures]);
  const args = argsOf(options, fixtures);
  const servers = await Promise.all(SERVERS.map((name) => startServerProcess({ name, command: NODE, args: args[name]('0'), stdoutFile: path.join(tmp, `${name.replace(' --', '-')}.log`), cwd: ROOT }, 30_000)));
  const { ids } = await checkSameMarkets(servers, 1);
  const load = await loadRounds(servers, ids, options);
  const quiet = servers.find((s) => s.name === 'this --quiet');
  const conditional = quiet === undefined ? undefined : await conditionalRounds(quiet, ids, options);
  await Promise.all(servers.map((s) => s.stop()));
  const starts = options.coldStarts > 0 ? await coldStarts(args, options.coldStarts) : undefined;
  process.stdout.write(`## ${path.relative(ROOT, CLI)} against ${options.baseCli}\n\n`);
  process.stdout.write(`${table('GET /markets/{id}: server CPU per request', 'µs', load.cpuUs, true)}\n`);
  process.stdout.write(`${table('GET /markets/{id}: requests per second', 'req/s', load.reqPerSec, true)}\n`);
  process.stdout.write(`${table('GET /markets/{id}: p99 latency', 'ms', load.p99Ms, true)}\n`);
  if (conditional) process.stdout.write(`${conditionalTable(conditional)}\n`);
  if (starts) process.stdout.write(`${table('Cold start: spawn to the first complete GET /markets', 'ms', starts, false)}\n`);
}

try {
  await compare(readOptions(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`bench:compare: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await killTrackedChildren();
}
