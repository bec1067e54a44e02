import type { Argv } from 'yargs';
import { ContractRunError } from '../contract/contract-run-error.js';
import type { ContractFinding } from '../contract/contract-finding.js';
import { parseBaseUrl } from '../contract/crawl-deployment.js';
import { displayBase } from '../contract/deployment-request.js';
import { REPORT_FORMATS } from '../contract/format-contract-report.js';
import { startRecordingProxy } from '../contract/recording-proxy.js';
import { writeFixtureSet } from '../contract/write-fixture-set.js';
import { createLogger, type LogFormat } from '../logger.js';
import { couldNotRun, emitReport, type ContractCliIo } from './check-command.js';

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
  try {
    const upstream = parseBaseUrl(String(flags['upstream'] ?? ''));
    const port = integerFlag(flags, 'port', 0, 65_535) ?? 4011;
    const timeoutMs = integerFlag(flags, 'timeout-ms', 1, Number.MAX_SAFE_INTEGER);
    const host = flags['host'] === undefined ? '127.0.0.1' : String(flags['host']);
    const format = String(flags['format'] ?? 'text') as (typeof REPORT_FORMATS)[number];
    const logFormat: LogFormat = flags['log-format'] === 'json' ? 'json' : 'text';
    const record = flags['record'] === undefined ? undefined : String(flags['record']);
    const report = flags['report'] === undefined ? undefined : String(flags['report']);
    const logger = createLogger({ format: logFormat, destination: io.stdoutStream, colorize: io.isTTY && !io.env['NO_COLOR'] });
    let proxy;
    try {
      proxy = await startRecordingProxy({
        upstream,
        port,
        host,
        strict: flags['strict'] === true,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        onFinding: (finding) => logFinding(logger, finding, logFormat === 'json'),
        onUpstreamError: (e) => logger.error(`${e.method} ${e.path}: the upstream gave no answer (${e.reason}); the client got 502/504`),
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
    if (record !== undefined) {
      const markets = proxy.markets();
      if (markets.length === 0) {
        logger.warn(`no valid market seen; ${record} was left unchanged`);
      } else {
        const written = await writeFixtureSet(record, markets);
        logger.info(`wrote ${markets.length} market${markets.length === 1 ? '' : 's'} seen to ${written.file}`);
      }
    }
    const summary = proxy.report();
    logger.flush();
    await emitReport('proxy', summary, { format, output: report, secrets: [] }, io);
    return summary.exitCode;
  } catch (error) {
    return couldNotRun('proxy', error, io);
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

function integerFlag(flags: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new ContractRunError('OPTION_INVALID', `--${name}: expected an integer from ${min} to ${max}, found ${JSON.stringify(raw)}.`);
  return n;
}
