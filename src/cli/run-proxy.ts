import { removeReadyRecord, writeReadyRecord } from './ready-record.js';
import { ContractRunError } from '../contract/index.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import type { ContractFinding } from '../contract/index.js';
import { parseBaseUrl } from '../contract/index.js';
import { displayBase } from '../contract/index.js';
import { stageFixtureSet, type FixtureSetStaging } from '../contract/index.js';
import { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from '../proxy/recording-proxy.js';
import { createLogger, flushWithin, logDropNotice, resolveLogFormat } from '../logger.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import { PROXY_OPTIONS, type ProxyFeeds, type ProxyValues } from '../options/tables/proxy-options.js';
import { libraryOptionsOf } from '../options/launch-options.js';
import type { ContractCliIo } from './cli-io.js';
import { couldNotRun, emitReport } from './run-check.js';
import { parseReportTargets } from './report-targets.js';
import { readNetworkFlags } from './network-flags.js';

/** Holds every `feeds` of the proxy's rows to a key of RecordingProxyOptions (a misspelt one does not compile). */
const FEEDS_PROXY_KEYS: [ProxyFeeds] extends [keyof RecordingProxyOptions] ? true : never = true;

/**
 * `market-stub proxy`: forwards every request to --upstream and passes the answers back unchanged,
 * checking those of `GET /markets` and `GET /markets/{market_id}` with the checks of `check`;
 * logs each finding as it happens; on SIGINT/SIGTERM writes --record and the summary report.
 * @returns 0 or 1 as `check` would for the findings seen; 2 when it cannot start or write.
 */
export async function runProxy(options: ResolvedOptions<ProxyValues>, io: ContractCliIo): Promise<number> {
  let staging: FixtureSetStaging | undefined;
  try {
    const v = options.values;
    const upstream = parseBaseUrl(v.upstream, options.origins.upstream ?? '--upstream', 'proxy');
    const logFormat = resolveLogFormat(v.logFormat, io.isTTY);
    // --report PATH (in --format) or FORMAT:PATH, repeatable: checked before listening, like --record.
    const reports = parseReportTargets(v.report, v.format, options.origins.report ?? '--report');
    const network = await readNetworkFlags(options, io.env);
    // --record is checked (and its staging made) before listening: nothing starts towards a DIR that cannot be written.
    if (v.record !== undefined) staging = await stageFixtureSet(v.record, { where: options.origins.record ?? '--record' });
    // The log exists before the proxy it redacts for: lines before the start pass as they are.
    const started: { proxy?: RecordingProxy } = {};
    // Every log line passes the proxy's redactor before the destination: a credential a client sent
    // never reaches the log. On the process's stdout the destination is bounded (LOG_BUFFER_MAX_BYTES).
    const logger = createLogger({
      format: logFormat,
      destination: io.stdoutStream === process.stdout ? 1 : io.stdoutStream,
      colorize: io.isTTY && !io.env['NO_COLOR'],
      transformLine: (line) => (started.proxy ? started.proxy.redactor().redact(line) : line),
      onDrop: logDropNotice({ command: 'proxy', log: 'log', remedy: 'Read or redirect the proxy\'s stdout (> file).' }, io.stderr),
    });
    const proxy = await startOrRefuse({
      // Every row that feeds a startRecordingProxy option passes it in one loop; the network is composed from several flags.
      ...(FEEDS_PROXY_KEYS && (libraryOptionsOf(PROXY_OPTIONS, v) as Omit<RecordingProxyOptions, 'upstream'>)), upstream, network,
      ...(staging ? { spool: staging.spool } : {}),
      onFinding: (finding) => logFinding(logger, finding, logFormat === 'json'),
      onUpstreamError: (e) => logger.error(`${e.method} ${e.path}: the upstream gave no answer (${e.reason}); the client got 502/504`),
      onSpoolError: (error) => logger.error(`cannot keep a market for --record: ${(error as Error).message}`),
    });
    started.proxy = proxy;
    // A key in --upstream's query (redacted by value: the proxy pins it) never reaches the terminal.
    const shownUpstream = proxy.redactor().redact(displayBase(upstream));
    if (v.readyFile !== undefined) await writeReadyRecord(v.readyFile, 'proxy', proxy.url).catch(async (error: unknown) => {
      await proxy.close();
      throw error;
    });
    const ready = `market-stub proxy listening on ${proxy.url} forwarding to ${shownUpstream}`;
    if (logFormat === 'json') logger.info({ url: proxy.url, upstream: shownUpstream }, ready);
    else io.stdout(`${ready}\n`);
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await removeReadyRecord(v.readyFile);
    await proxy.close();
    // The report is written whatever happens to --record; a failed write makes the exit code 2.
    const recorded = await commitRecord(staging, proxy, v.record, logger);
    staging = undefined;
    const redactor = proxy.redactor();
    const summary = proxy.report();
    // The log's last lines go out before the report that follows them on stdout.
    await flushWithin(logger);
    await emitReport('proxy', summary, { format: v.format, output: undefined, secrets: [], reports, primary: reports.length === 0 }, { ...io, stdout: (text) => io.stdout(redactor.redact(text)) });
    return recorded ? summary.exitCode : 2;
  } catch (error) {
    await staging?.abandon();
    return couldNotRun('proxy', error, io);
  }
}

/** Starts the proxy; a port or host that cannot be bound is an OPTION_INVALID naming --port and --host. */
async function startOrRefuse(options: RecordingProxyOptions): Promise<RecordingProxy> {
  try {
    return await startRecordingProxy(options);
  } catch (error) {
    // The library's LISTEN_FAILED (http/listen-failed.ts), worded for the CLI as serve words it.
    if (error instanceof MarketStubError && error.code === 'LISTEN_FAILED') {
      const code = (error.cause as NodeJS.ErrnoException | undefined)?.code ?? 'error';
      throw new ContractRunError('OPTION_INVALID', `cannot listen on ${options.host}:${options.port} (${code}). Choose another --port (0 picks a free one) or --host.`);
    }
    throw error;
  }
}

/** Writes --record (the markets seen, listed ones first in list order); false when it could not be written (logged). */
async function commitRecord(staging: FixtureSetStaging | undefined, proxy: RecordingProxy, record: string | undefined, logger: ReturnType<typeof createLogger>): Promise<boolean> {
  if (!staging || record === undefined) return true;
  if (staging.spool.size === 0) {
    await staging.abandon();
    logger.warn(`no valid market seen; ${record} was left unchanged`);
    return true;
  }
  try {
    const written = await staging.commit({ order: proxy.listedIds() });
    logger.info(`wrote ${written.markets} market${written.markets === 1 ? '' : 's'} seen to ${written.file}`);
    return true;
  } catch (error) {
    logger.error(`market-stub proxy: ${(error as Error).message}`);
    return false;
  }
}

/** One log line per finding: error → error level, warning → warn, info → info. */
function logFinding(logger: ReturnType<typeof createLogger>, finding: ContractFinding, json: boolean): void {
  const example = finding.examples[0];
  const fields = { severity: finding.severity, code: finding.code, endpoint: finding.endpoint, pointer: finding.pointer, count: finding.count, market_id: example?.marketId, request: example?.request };
  const where = example?.marketId === undefined ? '' : ` (market ${JSON.stringify(example.marketId)})`;
  const times = finding.count > 1 ? ` ×${finding.count}` : '';
  const line = finding.severity === 'info'
    ? `info ${finding.endpoint} [${finding.code}] ${finding.message}${times}`
    : `${finding.severity} ${finding.endpoint} ${finding.pointer || '/'} [${finding.code}]: expected ${finding.expected}, found ${finding.found}${times}${where}`;
  const level = finding.severity === 'error' ? 'error' : finding.severity === 'warning' ? 'warn' : 'info';
  // Text lines already say everything; JSON lines also carry the fields for machines.
  if (json) logger[level](fields, line);
  else logger[level](line);
}
