import { Writable } from 'node:stream';
import type { Argv } from 'yargs';
import { ContractRunError } from '../contract/contract-run-error.js';
import type { ContractFinding } from '../contract/contract-finding.js';
import { parseBaseUrl } from '../contract/crawl-deployment.js';
import { displayBase } from '../contract/deployment-client.js';
import { stageFixtureSet, type FixtureSetStaging } from '../contract/fixture-set.js';
import { REPORT_FORMATS } from '../contract/format-contract-report.js';
import { startRecordingProxy, type RecordingProxy } from '../proxy/recording-proxy.js';
import { createLogger, type LogFormat } from '../logger.js';
import { couldNotRun, emitReport, integerFlag, type ContractCliIo } from './check-command.js';

/** Declares `proxy`'s options. */
export function proxyOptions(y: Argv): Argv {
  return y
    .option('upstream', { type: 'string', requiresArg: true, demandOption: true, describe: 'Base URL of the real deployment to forward to' })
    .option('port', { type: 'string', requiresArg: true, describe: 'TCP port to listen on; 0 picks a free port [default: 4011]' })
    .option('host', { type: 'string', requiresArg: true, describe: 'Interface address to bind [default: 127.0.0.1]' })
    .option('record', { type: 'string', requiresArg: true, describe: 'On exit, write the valid markets seen as a fixture set in this directory (atomically)' })
    .option('report', { type: 'string', requiresArg: true, describe: 'On exit, write the summary report to this file (atomically) instead of stdout' })
    .option('format', { type: 'string', choices: REPORT_FORMATS, default: 'text', describe: 'Summary report format' })
    .option('timeout-ms', { type: 'string', requiresArg: true, describe: 'Time limit for the upstream answer; the client gets 504 past it [default: 30000]' })
    .option('grace-ms', { type: 'string', requiresArg: true, describe: 'On SIGINT/SIGTERM, how long exchanges in flight may finish before connections are closed [default: 10000]' })
    .option('max-body-mb', { type: 'string', requiresArg: true, describe: 'Largest answer body checked, decompressed, in MiB; a larger one passes unchecked with an error finding [default: 64]' })
    .option('strict', { type: 'boolean', describe: 'Warnings fail the summary too (exit 1)' })
    .option('log-format', { type: 'string', choices: ['text', 'json'], default: 'text', describe: 'Log lines as text or json' });
}

/**
 * `market-stub proxy`: forwards every request to --upstream and passes the answers back unchanged,
 * checking those of `GET /markets` and `GET /markets/{market_id}` with the checks of `check`;
 * logs each finding as it happens; on SIGINT/SIGTERM writes --record and the summary report.
 * @returns 0 or 1 as `check` would for the findings seen; 2 when it cannot start or write.
 */
export async function runProxy(flags: Record<string, unknown>, io: ContractCliIo): Promise<number> {
  let staging: FixtureSetStaging | undefined;
  try {
    const upstream = parseBaseUrl(String(flags['upstream'] ?? ''), '--upstream');
    const port = integerFlag(flags, 'port', 0, 65_535) ?? 4011;
    const timeoutMs = integerFlag(flags, 'timeout-ms', 1, 600_000);
    const graceMs = integerFlag(flags, 'grace-ms', 0, 600_000);
    const maxBodyMb = integerFlag(flags, 'max-body-mb', 1, 4096);
    const host = flags['host'] === undefined ? '127.0.0.1' : String(flags['host']);
    const format = String(flags['format'] ?? 'text') as (typeof REPORT_FORMATS)[number];
    const logFormat: LogFormat = flags['log-format'] === 'json' ? 'json' : 'text';
    const record = flags['record'] === undefined ? undefined : String(flags['record']);
    const report = flags['report'] === undefined ? undefined : String(flags['report']);
    // --record is checked (and its staging made) before listening: nothing starts towards a DIR that cannot be written.
    if (record !== undefined) staging = await stageFixtureSet(record, { where: '--record' });
    let proxy: RecordingProxy | undefined;
    // Every log line passes the proxy's redactor: a credential a client sent never reaches the log.
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = chunk.toString('utf8');
        io.stdoutStream.write(proxy ? proxy.redactor().redact(line) : line);
        done();
      },
    });
    const logger = createLogger({ format: logFormat, destination, colorize: io.isTTY && !io.env['NO_COLOR'] });
    try {
      proxy = await startRecordingProxy({
        upstream, port, host,
        strict: flags['strict'] === true,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(graceMs === undefined ? {} : { graceMs }),
        ...(maxBodyMb === undefined ? {} : { maxBodyMb }),
        ...(staging ? { spool: staging.spool } : {}),
        onFinding: (finding) => logFinding(logger, finding, logFormat === 'json'),
        onUpstreamError: (e) => logger.error(`${e.method} ${e.path}: the upstream gave no answer (${e.reason}); the client got 502/504`),
        onSpoolError: (error) => logger.error(`cannot keep a market for --record: ${(error as Error).message}`),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
        throw new ContractRunError('OPTION_INVALID', `cannot listen on ${host}:${port} (${code}). Choose another --port (0 picks a free one) or --host.`);
      }
      throw error;
    }
    const ready = `market-stub proxy listening on ${proxy.url} forwarding to ${displayBase(upstream)}`;
    if (logFormat === 'json') logger.info({ url: proxy.url, upstream: displayBase(upstream) }, ready);
    else io.stdout(`${ready}\n`);
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await proxy.close();
    // The report is written whatever happens to --record; a failed write makes the exit code 2.
    const recorded = await commitRecord(staging, proxy, record, logger);
    staging = undefined;
    const redactor = proxy.redactor();
    const summary = proxy.report();
    logger.flush();
    await emitReport('proxy', summary, { format, output: report, secrets: [] }, { ...io, stdout: (text) => io.stdout(redactor.redact(text)) });
    return recorded ? summary.exitCode : 2;
  } catch (error) {
    await staging?.abandon();
    return couldNotRun('proxy', error, io);
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
