import type { Argv } from 'yargs';
import { MarketStubError } from '../core/market-stub-error.js';
import { createRedactor } from '../core/redact-secrets.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { ContractRunError } from '../contract/contract-run-error.js';
import type { ContractReport } from '../contract/contract-report.js';
import { crawlDeployment, CRAWL_DEFAULTS, CRAWL_LIMITS, type CrawlOptions, type CrawlProgress } from '../contract/crawl-deployment.js';
import { formatContractReport, REPORT_FORMATS, type ReportFormat } from '../contract/format-contract-report.js';
import { EXIT, type CliIo } from './cli-io.js';

/**
 * The CLI's io plus what the contract commands also use. `stderrIsTTY` turns on the progress line;
 * absent means false (src/cli.ts can pass `Boolean(process.stderr.isTTY)`).
 */
export type ContractCliIo = CliIo & { stderrIsTTY?: boolean };

/** Declares the crawl options shared by `check` and `record` (values are validated by resolveCrawlFlags). */
export function crawlOptions(y: Argv): Argv {
  return y
    .option('base-url', { type: 'string', requiresArg: true, demandOption: true, describe: 'Base URL of the deployment; GET {base}/markets is the list' })
    .option('format', { type: 'string', choices: REPORT_FORMATS, default: 'text', describe: 'Report format' })
    .option('output', { type: 'string', requiresArg: true, describe: 'Write the report to this file (atomically) instead of stdout' })
    .option('timeout-ms', { type: 'string', requiresArg: true, describe: `Time limit per request, body included [default: ${CRAWL_DEFAULTS.timeoutMs}]` })
    .option('header', { type: 'string', array: true, requiresArg: true, describe: 'Header sent on every request, "Name: value" (repeatable); values never reach reports or fixtures' })
    .option('max-markets', { type: 'string', requiresArg: true, describe: `Listed markets to request one by one, spread over the list [default: ${CRAWL_DEFAULTS.maxMarkets}]` })
    .option('all', { type: 'boolean', describe: 'Request every listed market' })
    .option('concurrency', { type: 'string', requiresArg: true, describe: `Single-market requests in flight at once [default: ${CRAWL_DEFAULTS.concurrency}]` })
    .option('max-pages', { type: 'string', requiresArg: true, describe: `List pages followed at most; stopping there is a warning [default: ${CRAWL_DEFAULTS.maxPages}]` })
    .option('max-body-mb', { type: 'string', requiresArg: true, describe: `Largest response body, decompressed, in MiB: a larger list stops the check (exit 2), a larger market is an error [default: ${CRAWL_DEFAULTS.maxBodyMb}]` })
    .option('retries', { type: 'string', requiresArg: true, describe: `Retries of a 429/503 answer per request, honouring Retry-After [default: ${CRAWL_DEFAULTS.retries}]` })
    .option('retry-after-max-ms', { type: 'string', requiresArg: true, describe: `Longest Retry-After waited for; a longer one ends the retries [default: ${CRAWL_DEFAULTS.retryAfterMaxMs}]` })
    .option('same-origin-only', { type: 'boolean', describe: 'Refuse redirects and paging links to another origin (error) instead of following them without the --header values (warning)' })
    .option('strict', { type: 'boolean', describe: 'Warnings fail the check too (exit 1)' });
}

/** Crawl options and report settings read from the flags. */
export interface CrawlFlags {
  crawl: CrawlOptions;
  format: ReportFormat;
  output: string | undefined;
  /** The --header values, to keep out of every report. */
  secrets: string[];
}

/**
 * Reads and validates the shared crawl flags.
 * @throws ContractRunError OPTION_INVALID naming the flag (never echoing a --header value).
 */
export function resolveCrawlFlags(flags: Record<string, unknown>): CrawlFlags {
  const headers = parseHeaderFlags(flags['header']);
  const format = String(flags['format'] ?? 'text');
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new ContractRunError('OPTION_INVALID', `--format: expected one of ${REPORT_FORMATS.join(', ')}, found ${JSON.stringify(format)}.`);
  const output = flags['output'] === undefined ? undefined : String(flags['output']);
  const crawl: CrawlOptions = {
    baseUrl: String(flags['base-url'] ?? ''),
    headers,
    all: flags['all'] === true,
    strict: flags['strict'] === true,
    sameOriginOnly: flags['same-origin-only'] === true,
  };
  const numbers = [['timeout-ms', 'timeoutMs'], ['max-markets', 'maxMarkets'], ['concurrency', 'concurrency'], ['max-pages', 'maxPages'], ['max-body-mb', 'maxBodyMb'], ['retries', 'retries'], ['retry-after-max-ms', 'retryAfterMaxMs']] as const;
  for (const [flag, option] of numbers) {
    const [min, max] = CRAWL_LIMITS[option];
    const value = integerFlag(flags, flag, min, max);
    if (value !== undefined) crawl[option] = value;
  }
  return { crawl, format: format as ReportFormat, output, secrets: headers.map(([, value]) => value) };
}

/**
 * Reads an integer flag given as text (`--retries 3`), or undefined when absent.
 * @throws ContractRunError OPTION_INVALID naming the flag, the range and what was given.
 */
export function integerFlag(flags: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new ContractRunError('OPTION_INVALID', `--${name}: expected an integer from ${min} to ${max}, found ${JSON.stringify(raw)}.`);
  return n;
}

/**
 * Parses `--header "Name: value"` flags (RFC 9110 §5: a token name, a colon, a value). Error
 * messages name the flag by position, never its value: the value is usually a token.
 */
export function parseHeaderFlags(raw: unknown): Array<[string, string]> {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.map((entry, i) => {
    const text = String(entry);
    const colon = text.indexOf(':');
    const name = colon === -1 ? '' : text.slice(0, colon).trim();
    const value = colon === -1 ? '' : text.slice(colon + 1).trim();
    const where = `--header #${i + 1}`;
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new ContractRunError('OPTION_INVALID', `${where}: expected "Name: value" with a field name before the colon (RFC 9110 §5.1); its value is not shown.`);
    try {
      new Headers([[name, value]]);
    } catch {
      throw new ContractRunError('OPTION_INVALID', `${where} (${name}): the value is not a valid HTTP field value (RFC 9110 §5.5); it is not shown.`);
    }
    return [name, value];
  });
}

/**
 * `market-stub check`: crawls the deployment, prints the report (or writes it to --output) and
 * returns the exit code: 0 no errors (warnings allowed unless --strict), 1 errors found, 2 the
 * check could not run (bad option, connection refused, DNS, TLS, timeout on the list).
 */
export async function runCheck(flags: Record<string, unknown>, cliIo: ContractCliIo): Promise<number> {
  let io = cliIo;
  try {
    const settings = resolveCrawlFlags(flags);
    io = redactingIo(cliIo, settings.secrets);
    const progress = progressLine('check', io);
    let result;
    try {
      result = await crawlDeployment({ ...settings.crawl, signal: io.signal, onProgress: progress.update });
    } finally {
      progress.clear();
    }
    await emitReport('check', result.report, settings, io);
    return result.report.exitCode;
  } catch (error) {
    return couldNotRun('check', error, io);
  }
}

/** The io with every --header value (in every form) redacted from what goes to stdout and stderr: one sink rule for every line. */
export function redactingIo<T extends CliIo>(io: T, secrets: readonly string[]): T {
  const redactor = createRedactor(secrets);
  if (!redactor.active) return io;
  return { ...io, stdout: (text: string) => io.stdout(redactor.redact(text)), stderr: (text: string) => io.stderr(redactor.redact(text)) };
}

/** Writes a report to --output (atomically) or stdout; colours only for a terminal without NO_COLOR. */
export async function emitReport(command: string, report: ContractReport, settings: Pick<CrawlFlags, 'format' | 'output' | 'secrets'>, io: ContractCliIo): Promise<void> {
  const colour = settings.output === undefined && io.isTTY && !io.env['NO_COLOR'];
  const text = formatContractReport(report, settings.format, { colour, secrets: settings.secrets });
  if (settings.output === undefined) {
    io.stdout(text);
    return;
  }
  await writeFileAtomic(settings.output, text, '--output');
  io.stderr(`market-stub ${command}: ${report.verdict === 'pass' ? 'PASS' : 'FAIL'}; ${settings.format} report written to ${settings.output}\n`);
}

/** Prints a MarketStubError (ContractRunError, an unwritable output) as one sentence and returns 2; rethrows anything else (a bug, reported by src/cli.ts). */
export function couldNotRun(command: string, error: unknown, io: CliIo): number {
  if (error instanceof MarketStubError) {
    io.stderr(`market-stub ${command}: ${error.message}\n`);
    return EXIT.couldNotRun;
  }
  throw error;
}

/** A progress line on stderr, redrawn at most every 100 ms, only when stderr is a terminal. */
export function progressLine(command: string, io: ContractCliIo): { update: (progress: CrawlProgress) => void; clear: () => void } {
  if (!io.stderrIsTTY) return { update: () => undefined, clear: () => undefined };
  let last = 0;
  let shown = false;
  return {
    update(progress) {
      const now = performance.now();
      const final = progress.phase === 'markets' && progress.done === progress.total;
      if (now - last < 100 && !final) return;
      last = now;
      shown = true;
      const text = progress.phase === 'list'
        ? `list page ${progress.pages}, ${progress.listed} markets listed`
        : `markets ${progress.done}/${progress.total}`;
      io.stderr(`\r\u001b[2Kmarket-stub ${command}: ${text}`);
    },
    clear() {
      if (shown) io.stderr('\r\u001b[2K');
    },
  };
}
