// `npm run bench:time -- --base-cli PATH`: what time and explanation cost, as same-run ratios.
// docs/caching.md and docs/explain.md state the goals this measures:
// - `GET /markets/{id}` on a 10,000,000-market catalog: a running clock against the frozen clock
//   (≤ 1.1× server CPU per request), explanation on against off (≤ 1.1×), and this build's frozen
//   path against the other build (0.4: no regression, no measurable cost of explanation off);
// - `GET /markets` of 1,000 markets: a running clock against the frozen clock (≤ 1.2×), and the frozen
//   clock against the other build three ways: as both answer, against the other build's answers
//   padded to this build's length (bench/pad-answer-headers.cjs), and at 999 markets;
// - advancing the clock by a year, in process, at every catalog size (< 1 ms);
// - the HAR export of a full journal read (1,000 entries of 48 KiB bodies) streamed to a slow reader:
//   the server's resident memory while it streams, against the size of the document.
// Every server is a child process on 127.0.0.1 (port 0), `--quiet`, loaded in a rotating order, CPU read
// from /proc around each run, so each ratio is a median of per-round ratios.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, percentileOfSorted } from './bench-stats.js';
import { CLI, log, NODE, ROOT } from './bench-context.js';
import { ensureBuild } from './ensure-build.js';
import { runLoad } from './load-run.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { killTrackedChildren, onHarnessExit } from './tracked-children.js';
import { wrkAvailable } from './wrk-run.js';

const USAGE = `Usage: npm run bench:time -- --base-cli PATH [--quick]

  --base-cli PATH   dist/cli.cjs of the build to compare with (0.4 at 0264f00 for the goals above)
  --rounds N        interleaved load rounds (default 7; --quick 3)
  --duration S      seconds per load run (default 2; --quick 1)
  --quick           fewer rounds, 1 s runs, 200 HAR entries (a smoke run of the tool, not a measurement)
`;

interface TimeOptions {
  baseCli: string;
  rounds: number;
  durationS: number;
  harEntries: number;
}

/** Reads the command line. @throws Error with the usage for a missing --base-cli or a bad number. */
function readOptions(argv: readonly string[]): TimeOptions {
  const { values } = parseArgs({ args: [...argv], options: { 'base-cli': { type: 'string' }, rounds: { type: 'string' }, duration: { type: 'string' }, quick: { type: 'boolean' } } });
  if (values['base-cli'] === undefined) throw new Error(`--base-cli is required.\n\n${USAGE}`);
  const quick = values.quick === true;
  const positive = (name: string, raw: string | undefined, fallback: number) => {
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name}: expected a positive number, found ${JSON.stringify(raw)}.\n\n${USAGE}`);
    return n;
  };
  return { baseCli: path.resolve(values['base-cli']), rounds: positive('rounds', values.rounds, quick ? 3 : 7), durationS: positive('duration', values.duration, quick ? 1 : 2), harEntries: quick ? 200 : 1000 };
}

const SEED = 1;
const CLOCK = '2026-01-01';
const ITEM_COUNT = 10_000_000;
const LIST_COUNT = 1_000;
/** The neighbouring list size: the same comparison with every answer about 150 bytes shorter. */
const NEIGHBOUR_COUNT = 999;
/** The line the padding control adds is `x-bench-pad: ` + value + CRLF: this many bytes besides the value. */
const PAD_LINE_OVERHEAD = 'x-bench-pad: \r\n'.length;

/**
 * The servers and what each is compared with. `running 60`: a minute of stub time a second, so a new
 * price step (PT1M, the default) every second, as a dashboard's poller sees it (docs/caching.md);
 * `running 3600`: an hour a second, a new step every 16.7 ms, so nearly every answer meets a new step.
 */
function serverArgs(options: TimeOptions): Record<string, string[]> {
  const catalog = (count: number) => ['serve', '--port', '0', '--quiet', '--seed', String(SEED), '--count', String(count)];
  return {
    'item base': [options.baseCli, ...catalog(ITEM_COUNT), '--clock', CLOCK],
    'item frozen': [CLI, ...catalog(ITEM_COUNT), '--clock', CLOCK],
    'item running 60': [CLI, ...catalog(ITEM_COUNT), '--clock', `${CLOCK}T00:00:00Z`, '--clock-rate', '60'],
    'item running 3600': [CLI, ...catalog(ITEM_COUNT), '--clock', `${CLOCK}T00:00:00Z`, '--clock-rate', '3600'],
    'item explain': [CLI, ...catalog(ITEM_COUNT), '--clock', CLOCK, '--explain', 'on'],
    'list base': [options.baseCli, ...catalog(LIST_COUNT), '--clock', CLOCK],
    'list frozen': [CLI, ...catalog(LIST_COUNT), '--clock', CLOCK],
    'list running 60': [CLI, ...catalog(LIST_COUNT), '--clock', `${CLOCK}T00:00:00Z`, '--clock-rate', '60'],
    'list running 3600': [CLI, ...catalog(LIST_COUNT), '--clock', `${CLOCK}T00:00:00Z`, '--clock-rate', '3600'],
    'list base 999': [options.baseCli, ...catalog(NEIGHBOUR_COUNT), '--clock', CLOCK],
    'list frozen 999': [CLI, ...catalog(NEIGHBOUR_COUNT), '--clock', CLOCK],
  };
}

/** The bytes of the status line and header section of `GET path` (through the blank line), read off the wire. @throws Error when no whole header section comes within 10 s. */
function headBytes(url: string, path: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let seen = '';
    socket.setEncoding('latin1');
    socket.setTimeout(10_000, () => socket.destroy(new Error(`GET ${url}${path}: no header section within 10 s`)));
    socket.on('data', (text: string) => {
      seen += text;
      const end = seen.indexOf('\r\n\r\n');
      if (end === -1) return;
      resolve(end + 4);
      socket.destroy();
    });
    socket.on('error', reject);
    // After a resolve this does nothing; before one, the server closed without a whole header section.
    socket.on('close', () => reject(new Error(`GET ${url}${path}: the connection closed before the header section ended`)));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

/**
 * The other build's list server with its answers padded to this build's length: how many header
 * bytes this build's frozen list answer has more, and the server started with that padding.
 * @throws Error when this build's answer is not at least PAD_LINE_OVERHEAD bytes longer (nothing to pad to).
 */
async function paddedBase(servers: readonly ServerProcess[], baseArgs: readonly string[], dir: string): Promise<{ extraBytes: number; server: ServerProcess }> {
  const url = (name: string) => servers.find((s) => s.name === name)?.url ?? '';
  const frozenHead = await headBytes(url('list frozen'), '/markets');
  const extraBytes = frozenHead - (await headBytes(url('list base'), '/markets'));
  if (extraBytes < PAD_LINE_OVERHEAD) throw new Error(`this build's list answer has ${extraBytes} header bytes more than the other build's: too few to pad to`);
  const server = await startServerProcess({
    name: 'list base padded', command: NODE, args: ['--require', path.join(ROOT, 'bench/pad-answer-headers.cjs'), ...baseArgs],
    env: { BENCH_PAD_BYTES: String(extraBytes - PAD_LINE_OVERHEAD) }, stdoutFile: path.join(dir, 'list-base-padded.log'), cwd: ROOT,
  }, 60_000);
  const paddedHead = await headBytes(server.url, '/markets');
  if (paddedHead !== frozenHead) throw new Error(`the padded list answer's header section is ${paddedHead} bytes, this build's ${frozenHead}: the padding control is off`);
  return { extraBytes, server };
}

/** Server CPU per request, µs, per server and round: each round loads every server of `group` once, in a rotating order. */
async function cpuRounds(group: readonly ServerProcess[], paths: readonly string[], options: TimeOptions): Promise<Map<string, number[]>> {
  const generator = wrkAvailable() && Number.isInteger(options.durationS) ? 'wrk' : 'autocannon';
  const plan = (server: ServerProcess, durationS: number) => ({ url: server.url, paths, durationS, connections: 20, pipelining: 1 });
  for (const server of group) await runLoad(plan(server, 1), generator);
  const perServer = new Map<string, number[]>(group.map((s) => [s.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    log(`time: ${paths.length === 1 ? 'list' : 'item'} round ${round + 1}/${options.rounds} (${generator})…`);
    for (const server of group.map((_, i) => group[(i + round) % group.length] as ServerProcess)) {
      const before = server.cpuSeconds();
      const sample = await runLoad(plan(server, options.durationS), generator);
      const after = server.cpuSeconds();
      if (before === null || after === null) throw new Error('server CPU time needs /proc (Linux)');
      perServer.get(server.name)?.push(((after - before) * 1e6) / sample.requests);
    }
  }
  return perServer;
}

/** One table row: the server's median µs, its median per-round ratio to `against` and the middle half of those ratios (25th–75th percentile), with the goal. */
function ratioRow(figures: Map<string, number[]>, name: string, against: string, goal: string): string {
  const mine = figures.get(name) ?? [];
  const theirs = figures.get(against) ?? [];
  const ratios = mine.map((v, i) => v / (theirs[i] ?? Number.NaN));
  const sorted = [...ratios].sort((a, b) => a - b);
  const spread = `${percentileOfSorted(sorted, 25).toFixed(2)}–${percentileOfSorted(sorted, 75).toFixed(2)}`;
  return `| ${name} | ${median(mine).toFixed(1)} | ${against} | ${median(ratios).toFixed(2)}× | ${spread} | ${goal} |`;
}

/** Ids spread over the catalog, as the generator names them (the same on both builds: checked by the first load). */
async function spreadIds(count: number, n: number): Promise<string[]> {
  const { generateMarket } = (await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href)) as { generateMarket(index: number, o: { seed: number; clock: string }): { market_id: string } };
  return Array.from({ length: n }, (_, k) => generateMarket(Math.floor((k * (count - 1)) / (n - 1)), { seed: SEED, clock: CLOCK }).market_id);
}

/** Advancing the clock by a year in process (createFetchHandler's setClock), median of 9 at each size, ms. */
async function advanceYear(): Promise<string[]> {
  const { createFetchHandler } = (await import(pathToFileURL(path.join(ROOT, 'dist/fetch.js')).href)) as { createFetchHandler(o: Record<string, unknown>): { setClock(c: { advance: string }): Promise<unknown>; fetch(r: Request): Promise<Response> } };
  const sizes: [number, string][] = [[1_000, 'off'], [1_000_000, 'off'], [ITEM_COUNT, 'off'], [250_000, 'kalshi']];
  const rows: string[] = [];
  for (const [count, lifecycle] of sizes) {
    const stub = createFetchHandler({ seed: SEED, count, clock: CLOCK, lifecycle, profile: { paging: 'offset', pageSize: 100 } });
    await (await stub.fetch(new Request('http://bench.test/markets?limit=1'))).arrayBuffer();
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t = performance.now();
      await stub.setClock({ advance: 'P1Y' });
      times.push(performance.now() - t);
    }
    rows.push(`| ${count.toLocaleString('en-US')} | ${lifecycle} | ${median(times).toFixed(3)} | ${Math.max(...times).toFixed(3)} |`);
  }
  return rows;
}

/** A fixture of `n` markets whose item answers are about 48 KiB each (a long title), so a full journal read's HAR holds n bodies. */
function harFixture(dir: string, n: number): { file: string; ids: string[] } {
  const ids = Array.from({ length: n }, (_, i) => `HAR-${String(i).padStart(5, '0')}`);
  const markets = ids.map((id, i) => ({ market_id: id, title: `${'t'.repeat(48 * 1024)}${i}`, status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' }));
  const file = path.join(dir, 'har-markets.json');
  writeFileSync(file, JSON.stringify(markets));
  return { file, ids };
}

/** GET a URL and drain it slowly (a 2 ms pause per chunk), sampling `server`'s RSS at each chunk; resolves the bytes read and the peak RSS, MiB. */
function slowDrain(url: string, server: ServerProcess): Promise<{ bytes: number; peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let peakRssMb = server.memory().rssMb;
    http.get(url, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        peakRssMb = Math.max(peakRssMb, server.memory().rssMb);
        res.pause();
        setTimeout(() => res.resume(), 2);
      });
      res.on('end', () => resolve({ bytes, peakRssMb }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The HAR export of a full journal read to a slow reader: the document's size against the server's RSS growth while it streamed. */
async function harMemory(dir: string, options: TimeOptions): Promise<string> {
  const { file, ids } = harFixture(dir, options.harEntries);
  const server = await startServerProcess({ name: 'har', command: NODE, args: [CLI, 'serve', '--port', '0', '--quiet', '--fixtures', file, '--journal-bytes', String(256 * 1024 * 1024)], stdoutFile: path.join(dir, 'har.log'), cwd: ROOT }, 60_000);
  try {
    for (const id of ids) await (await fetch(`${server.url}/markets/${id}`)).arrayBuffer();
    const before = server.memory().rssMb;
    const { bytes, peakRssMb } = await slowDrain(`${server.url}/__stub/requests.har?limit=1000`, server);
    return `| ${ids.length} entries | ${(bytes / 1024 / 1024).toFixed(1)} MiB | ${before.toFixed(1)} MiB | ${peakRssMb.toFixed(1)} MiB | ${(peakRssMb - before).toFixed(1)} MiB |`;
  } finally {
    await server.stop();
  }
}

/** Starts every server, measures, prints the tables. */
async function measure(options: TimeOptions): Promise<void> {
  ensureBuild(ROOT, { allowBuild: true, force: false, log });
  const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-time-'));
  onHarnessExit(() => rmSync(dir, { recursive: true, force: true }));
  const args = serverArgs(options);
  const servers = await Promise.all(Object.entries(args).map(([name, a]) => startServerProcess({ name, command: NODE, args: a, stdoutFile: path.join(dir, `${name.replaceAll(' ', '-')}.log`), cwd: ROOT }, 60_000)));
  const padded = await paddedBase(servers, args['list base'] ?? [], dir);
  servers.push(padded.server);
  // Each comparison with the other build rotates only the servers it compares, so the runs a round
  // compares are seconds apart on this shared host, not a whole rotation of the group apart.
  const group = (...names: string[]) => servers.filter((s) => names.includes(s.name));
  const ids = await spreadIds(ITEM_COUNT, 1000);
  const itemPaths = ids.map((id) => `/markets/${encodeURIComponent(id)}`);
  const itemBase = await cpuRounds(group('item base', 'item frozen'), itemPaths, options);
  const item = await cpuRounds(group('item frozen', 'item running 60', 'item running 3600', 'item explain'), itemPaths, options);
  const listBase = await cpuRounds(group('list base', 'list base padded', 'list frozen', 'list base 999', 'list frozen 999'), ['/markets'], options);
  const list = await cpuRounds(group('list frozen', 'list running 60', 'list running 3600'), ['/markets'], options);
  await Promise.all(servers.map((s) => s.stop()));
  const year = await advanceYear();
  const har = await harMemory(dir, options);
  const head = ['| server | µs per request | against | ratio | middle half of the rounds | goal |', '|---|--:|---|--:|--:|---|'];
  process.stdout.write([
    `## Time and explanation: ${path.relative(ROOT, CLI)} against ${options.baseCli} (${options.rounds} rounds of ${options.durationS} s; medians, ratios are medians of per-round ratios)`, '',
    '### GET /markets/{id}, 10,000,000 generated markets, 1,000 ids spread over the catalog: server CPU per request', '', ...head,
    ratioRow(itemBase, 'item frozen', 'item base', 'no regression (≤ 1.05×)'),
    ratioRow(item, 'item running 60', 'item frozen', '≤ 1.1×'),
    ratioRow(item, 'item running 3600', 'item frozen', '(every answer at a new step)'),
    ratioRow(item, 'item explain', 'item frozen', '≤ 1.1×'), '',
    '### GET /markets, 1,000 generated markets: server CPU per request', '', ...head,
    ratioRow(listBase, 'list frozen', 'list base', `(as sent: ${padded.extraBytes} header bytes more, ETag, Last-Modified, Cache-Control)`),
    ratioRow(listBase, 'list frozen', 'list base padded', 'no regression (≤ 1.05×): the same bytes on the wire'),
    ratioRow(listBase, 'list frozen 999', 'list base 999', 'no regression (≤ 1.05×): 999 markets, as sent'),
    ratioRow(list, 'list running 60', 'list frozen', '≤ 1.2×'),
    ratioRow(list, 'list running 3600', 'list frozen', '(the list rebuilt 60 times a second)'), '',
    '### Advancing the clock by a year, in process (median and worst of 9)', '', '| markets | lifecycle | median ms | worst ms |', '|--:|---|--:|--:|', ...year, '',
    '### HAR export of a full journal read, streamed to a reader pausing 2 ms per chunk', '', '| journal | document | server RSS before | peak while streaming | growth |', '|---|--:|--:|--:|--:|', har, '',
  ].join('\n'));
}

try {
  await measure(readOptions(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`bench:time: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await killTrackedChildren();
}
