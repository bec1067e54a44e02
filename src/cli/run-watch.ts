// `market-stub check --watch INTERVAL`: rounds of check, their findings over time, the state between runs and the metrics.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import ms from 'ms';
import { MAX_WATCH_INTERVAL_MS, MAX_WATCH_STATE_BYTES, MIN_WATCH_INTERVAL_MS } from '../floor/limits.js';
import { writeFileAtomic } from '../file-system/write-file-atomic.js';
import { ContractRunError, deploymentIdentity, formatRoundJsonl, formatWatchHtml, formatRoundText, formatSummaryJsonl, formatSummaryText, watchDeployment, WatchMetrics, WatchSummaryBuilder, type WatchOptions, type WatchRound, type WatchSummary } from '../contract/index.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { CheckValues } from '../options/tables/crawl-options.js';
import type { ContractCliIo } from './cli-io.js';
import { couldNotRun, emitReport, redactingIo, resolveCrawlFlags, runOneCheck, type CrawlFlags } from './run-check.js';

/** The watch's own options, read and checked before the first round. */
interface WatchFlags {
  intervalMs: number;
  rounds: number | undefined;
  forMs: number | undefined;
  state: string | undefined;
  metricsFile: string | undefined;
  metricsPort: number | undefined;
  metricsHost: string;
}

/** The watch options that mean nothing without --watch. */
const WATCH_ONLY = ['rounds', 'for', 'state', 'metricsFile', 'metricsPort'] as const;

/**
 * `market-stub check`: one crawl (runOneCheck), or with --watch INTERVAL a watch (runWatch); a
 * watch option without --watch is refused before anything starts.
 */
export async function runCheck(options: ResolvedOptions<CheckValues>, io: ContractCliIo): Promise<number> {
  if (options.values.watch !== undefined) return runWatch(options, io, options.values.format === 'jsonl');
  try {
    refuseWatchOptionsAlone(options);
  } catch (error) {
    return couldNotRun('check', error, io);
  }
  return runOneCheck(options, io);
}

/** Refuses a watch option given without --watch (a cron line that forgot it would silently run one plain check). */
export function refuseWatchOptionsAlone(options: ResolvedOptions<CheckValues>): void {
  const given = WATCH_ONLY.filter((key) => options.values[key] !== undefined).map((key) => options.origins[key] ?? key);
  if (given.length > 0) throw new ContractRunError('OPTION_INVALID', `${given.join(', ')} belong${given.length === 1 ? 's' : ''} to a watch: add --watch INTERVAL (--watch 5m), or leave ${given.length === 1 ? 'it' : 'them'} out for one check.`);
}

/**
 * A duration as the watch options take it: a number and a unit (`500ms`, `30s`, `5m`, `2h`, `1d`:
 * the `ms` package's units), within MIN_WATCH_INTERVAL_MS … MAX_WATCH_INTERVAL_MS.
 * @throws ContractRunError OPTION_INVALID naming the option and the value.
 */
export function readDuration(text: string, origin: string): number {
  const value = /^\s*\d+(\.\d+)?\s*[a-z]+\s*$/i.test(text) ? ms(text.trim() as ms.StringValue) : undefined;
  if (value === undefined || !Number.isFinite(value) || value < MIN_WATCH_INTERVAL_MS || value > MAX_WATCH_INTERVAL_MS) {
    throw new ContractRunError('OPTION_INVALID', `${origin} ${JSON.stringify(text)}: expected a duration with its unit from ${MIN_WATCH_INTERVAL_MS}ms to 24h (30s, 5m, 1h).`);
  }
  return value;
}

function readWatchFlags(options: ResolvedOptions<CheckValues>): WatchFlags {
  const v = options.values;
  const origin = (key: keyof CheckValues, flag: string) => options.origins[key] ?? flag;
  const format = v.format;
  if (format !== 'text' && format !== 'json' && format !== 'jsonl' && format !== 'html') {
    throw new ContractRunError('OPTION_INVALID', `${origin('format', '--format')} ${format}: a watch writes text, jsonl (one JSON line per round and finding), json or html (the summary with its timeline); the last round's ${format} report goes to --report ${format}:PATH.`);
  }
  return {
    intervalMs: readDuration(String(v.watch), origin('watch', '--watch')),
    rounds: v.rounds,
    forMs: v.for === undefined ? undefined : readDuration(v.for, origin('for', '--for')),
    state: v.state,
    metricsFile: v.metricsFile,
    metricsPort: v.metricsPort,
    metricsHost: v.metricsHost,
  };
}

/**
 * `market-stub check --watch INTERVAL`: rounds of check every INTERVAL with the same options,
 * each printed as it ends (text lines, or JSON lines with --format jsonl), the state written after
 * each round (--state), the metrics written (--metrics-file) or served (--metrics-port); at the
 * end (--rounds, --for, SIGINT or SIGTERM) the summary, and the exit code of the worst round.
 */
export async function runWatch(options: ResolvedOptions<CheckValues>, cliIo: ContractCliIo, jsonl: boolean): Promise<number> {
  let io = cliIo;
  let server: Server | undefined;
  try {
    const flags = readWatchFlags(options);
    const settings = await resolveCrawlFlags(options, cliIo.env);
    io = redactingIo(cliIo, settings.secrets);
    const identity = deploymentIdentity(settings.crawl.baseUrl);
    const state = await readState(flags.state, options.origins.state ?? '--state', io);
    const metrics = await WatchMetrics.create(identity);
    if (flags.metricsPort !== undefined) server = await serveMetrics(metrics, flags.metricsPort, flags.metricsHost, io);
    const watch: WatchOptions = {
      ...settings.crawl, signal: io.signal, intervalMs: flags.intervalMs,
      ...(flags.rounds === undefined ? {} : { rounds: flags.rounds }), ...(flags.forMs === undefined ? {} : { forMs: flags.forMs }),
      ...(state === undefined ? {} : { state, stateName: options.origins.state ?? '--state' }),
    };
    const summary = new WatchSummaryBuilder(identity);
    for await (const round of watchDeployment(watch)) {
      summary.add(round);
      metrics.observe(round);
      await afterRound(round, flags, settings, metrics, io, jsonl, options.origins.state ?? '--state');
    }
    await emitSummary(summary.get(), settings, io, jsonl);
    return summary.get().rounds === 0 ? 2 : summary.get().exitCode;
  } catch (error) {
    return couldNotRun('check', error, io);
  } finally {
    server?.close();
    server?.closeAllConnections();
  }
}

/** What follows a round: its lines, the state, the metrics file, the --report files of its report. */
async function afterRound(round: WatchRound, flags: WatchFlags, settings: CrawlFlags, metrics: WatchMetrics, io: ContractCliIo, jsonl: boolean, stateOrigin: string): Promise<void> {
  if (jsonl) io.stdout(formatRoundJsonl(round));
  else if (settings.format === 'text' && settings.output === undefined) io.stdout(formatRoundText(round));
  else io.stderr(formatRoundText(round));
  if (flags.state !== undefined) await writeFileAtomic(flags.state, round.state(), stateOrigin);
  if (flags.metricsFile !== undefined) await writeFileAtomic(flags.metricsFile, await metrics.text('prometheus'), '--metrics-file');
  if (round.report && settings.reports.length > 0) await emitReport('check', round.report, { ...settings, primary: false }, io);
}

/** The summary: text after the rounds' lines, a `summary` JSON line, or the json or html document (to --output or stdout). */
async function emitSummary(summary: WatchSummary, settings: CrawlFlags, io: ContractCliIo, jsonl: boolean): Promise<void> {
  if (jsonl) {
    io.stdout(formatSummaryJsonl(summary));
    return;
  }
  const text = settings.format === 'json' ? `${JSON.stringify(summary, null, 2)}\n` : settings.format === 'html' ? formatWatchHtml(summary) : formatSummaryText(summary);
  if (settings.output === undefined) {
    io.stdout(text);
    return;
  }
  await writeFileAtomic(settings.output, text, settings.outputOrigin ?? '--output');
  io.stderr(`market-stub check: ${summary.rounds} rounds, exit ${summary.exitCode}; ${settings.format} summary written to ${settings.output}\n`);
}

/**
 * The --state file's text, or undefined when there is none yet (said on stderr: the first run of
 * a scheduled watch). A file larger than MAX_WATCH_STATE_BYTES or unreadable is refused.
 */
async function readState(file: string | undefined, origin: string, io: ContractCliIo): Promise<string | undefined> {
  if (file === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') {
      io.stderr(`market-stub check: ${origin} ${file} does not exist yet: the watch starts afresh and writes it after each round.\n`);
      return undefined;
    }
    throw new ContractRunError('OPTION_INVALID', `${origin} ${file}: cannot be read (${code ?? String(error)}). Check the path and its permissions, or give another --state file.`);
  }
  if (bytes.length > MAX_WATCH_STATE_BYTES) throw new ContractRunError('LIMIT_EXCEEDED', `${origin} ${file}: ${bytes.length} bytes, more than a watch state holds (${MAX_WATCH_STATE_BYTES}); not read. Give another --state file, or delete this one to start afresh.`);
  return bytes.toString('utf8');
}

/** Serves `/metrics` (GET or HEAD) until the watch ends; anything else is a 404. */
async function serveMetrics(metrics: WatchMetrics, port: number, host: string, io: ContractCliIo): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8', ...(path === '/metrics' ? { allow: 'GET, HEAD' } : {}) });
      response.end(path === '/metrics' ? 'GET /metrics\n' : 'not found: the metrics are at /metrics\n');
      return;
    }
    // Prometheus asks for OpenMetrics in its Accept header; other scrapers get the 0.0.4 text format.
    const format = /application\/openmetrics-text/i.test(request.headers.accept ?? '') ? 'openmetrics' : 'prometheus';
    void metrics.text(format).then((text) => {
      response.writeHead(200, { 'content-type': metrics.contentType(format), 'cache-control': 'no-store', vary: 'Accept' });
      response.end(request.method === 'HEAD' ? undefined : text);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ContractRunError('OPTION_INVALID', `--metrics-port ${port}: cannot listen on ${host}:${port} (${error.code ?? error.message}). Choose another port, or 0 for any free one.`)));
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  io.stderr(`market-stub check: metrics at http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics\n`);
  return server;
}
