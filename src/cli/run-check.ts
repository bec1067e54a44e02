// `market-stub check` once it runs, and the steps record and proxy share with it (crawl flags, redacted io, the report, exit 2): loaded only when one of the three commands runs.
import { MarketStubError } from '../floor/market-stub-error.js';
import { visibleControls } from '../floor/display-value.js';
import { createRedactor } from '../floor/redact-secrets.js';
import { unwritableError, writeFileAtomic } from '../file-system/write-file-atomic.js';
import { checkHeaderFields } from '../contract/index.js';
import { baseUrlSecrets, DeploymentRefusal, networkSecrets } from '../contract/index.js';
import { readNetworkFlags } from './network-flags.js';
import type { ContractReport } from '../contract/index.js';
import { crawlDeployment, type CrawlOptions, type CrawlProgress } from '../contract/index.js';
import { libraryOptionsOf } from '../options/launch-options.js';
import { formatContractReport, type ReportFormat } from '../contract/index.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import { CRAWL_COMMAND_OPTIONS, type CheckValues, type CrawlFeeds, type CrawlValues } from '../options/tables/crawl-options.js';
import { EXIT, type CliIo } from './cli-io.js';
import type { ContractCliIo } from './cli-io.js';
import { parseReportTargets, type ReportTarget } from './report-targets.js';

/** Crawl options and report settings read from the resolved options. */
export interface CrawlFlags {
  crawl: CrawlOptions;
  format: ReportFormat;
  output: string | undefined;
  /** Where --output came from (`--output`, `MARKET_STUB_OUTPUT`), for messages. */
  outputOrigin: string | undefined;
  /** The --header values, to keep out of every report. */
  secrets: string[];
  /** --report FORMAT:PATH: more reports of the same run, each written atomically. */
  reports: ReportTarget[];
}

/** Holds every `feeds` of check's and record's rows to a key of CrawlOptions (a misspelt one does not compile). */
const FEEDS_CRAWL_KEYS: [CrawlFeeds] extends [keyof CrawlOptions] ? true : never = true;

/**
 * Turns resolved crawl options into the crawl's options and report settings (certificate files read).
 * @throws ContractRunError OPTION_INVALID for a malformed --header (never echoing its value), an unreadable certificate file.
 */
export async function resolveCrawlFlags(options: ResolvedOptions<CrawlValues>, env: Readonly<Record<string, string | undefined>>): Promise<CrawlFlags> {
  const v = options.values;
  const headers = parseHeaderFlags(v.header, options.origins.header ?? '--header');
  const network = await readNetworkFlags(options, env);
  // Every row that feeds a crawl option passes it in one loop; the headers and the network are composed from several flags.
  const crawl: CrawlOptions = { ...(FEEDS_CRAWL_KEYS && (libraryOptionsOf(CRAWL_COMMAND_OPTIONS, v) as Omit<CrawlOptions, 'baseUrl'>)), baseUrl: v.baseUrl, headers, network };
  const { format, output } = v;
  const reports = parseReportTargets(v.report, format, options.origins.report ?? '--report', output === undefined ? [] : [output]);
  return { crawl, format, output, outputOrigin: options.origins.output, secrets: [...headers.map(([, value]) => value), ...networkSecrets(network), ...baseUrlSecrets(v.baseUrl, v.redactQuery ?? [])], reports };
}

/**
 * Parses `--header "Name: value"` flags (RFC 9110 §5: a token name, a colon, a value). Error
 * messages name the flag by position, never its value: the value is usually a token.
 */
export function parseHeaderFlags(raw: unknown, source = '--header'): Array<[string, string]> {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const pairs = list.map((entry): [string, string] => {
    // A CR or NUL anywhere, even where trimming would drop it, is refused (headerFieldProblem).
    const text = String(entry).replace(/^[ \t]+|[ \t]+$/g, '');
    const colon = text.indexOf(':');
    return colon === -1 ? ['', ''] : [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
  });
  checkHeaderFields(pairs, source, 'check');
  return pairs;
}

/**
 * `market-stub check`: crawls the deployment, prints the report (or writes it to --output) and
 * returns the exit code: 0 no errors (warnings allowed unless --strict), 1 errors found, 2 the
 * check could not run (bad option, connection refused, DNS, TLS, timeout on the list).
 */
export async function runOneCheck(options: ResolvedOptions<CheckValues>, cliIo: ContractCliIo): Promise<number> {
  let io = cliIo;
  let settings: CrawlFlags | undefined;
  try {
    settings = await resolveCrawlFlags(options, cliIo.env);
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
    await emitRefusalReport('check', error, settings, io);
    return couldNotRun('check', error, io);
  }
}

/**
 * The could-not-run report of a deployment that refused to be judged (access refused, an announced
 * outage: contract/reports/could-not-run-report.ts), written like any report (every --format and --report)
 * before the one sentence on stderr; nothing for any other error. A report that cannot be written
 * is said on stderr: the exit code stays 2 either way.
 */
export async function emitRefusalReport(command: string, error: unknown, settings: ReportSettings | undefined, io: ContractCliIo): Promise<void> {
  if (!(error instanceof DeploymentRefusal) || !error.report || !settings) return;
  try {
    await emitReport(command, error.report, settings, io);
  } catch (writeError) {
    if (!(writeError instanceof MarketStubError)) throw writeError;
    io.stderr(`market-stub ${command}: ${writeError.message}\n`);
  }
}

/** The io with every --header value (in every form) redacted from what goes to stdout and stderr: one sink rule for every line. */
export function redactingIo<T extends CliIo>(io: T, secrets: readonly string[]): T {
  const redactor = createRedactor(secrets);
  if (!redactor.active) return io;
  return { ...io, stdout: (text: string) => io.stdout(redactor.redact(text)), stderr: (text: string) => io.stderr(redactor.redact(text)) };
}

/** Where emitReport writes: the --format report (to --output or stdout, unless `primary` is false) and the --report files. */
export type ReportSettings = Pick<CrawlFlags, 'format' | 'output' | 'secrets'> & { outputOrigin?: string; reports?: readonly ReportTarget[]; primary?: boolean };

/**
 * Writes a run's reports: the --format one to --output (atomically) or stdout, colours only for
 * a terminal without NO_COLOR; then each --report file, atomically, in the order given. Every
 * report is rendered before the first is written, each through formatContractReport (one path
 * for every format and command).
 * @throws MarketStubError OUTPUT_UNWRITABLE naming the file and the option that gave it.
 */
export async function emitReport(command: string, report: ContractReport, settings: ReportSettings, io: ContractCliIo): Promise<void> {
  const primary = settings.primary !== false;
  const colour = settings.output === undefined && io.isTTY && !io.env['NO_COLOR'];
  const targets = (settings.reports ?? []).map((t) => ({ ...t, text: formatContractReport(report, t.format, { secrets: settings.secrets }) }));
  const text = primary ? formatContractReport(report, settings.format, { colour, secrets: settings.secrets }) : '';
  const verdict = report.exitCode === 2 ? 'COULD NOT RUN' : report.verdict === 'pass' ? 'PASS' : 'FAIL';
  if (primary && settings.output === undefined) io.stdout(text);
  else if (primary && settings.output !== undefined) {
    await writeFileAtomic(settings.output, text, settings.outputOrigin ?? '--output');
    io.stderr(`market-stub ${command}: ${verdict}; ${settings.format} report written to ${settings.output}\n`);
  }
  for (const target of targets) {
    const where = `--report ${target.format}:${target.path}`;
    try {
      await writeFileAtomic(target.path, target.text, where);
    } catch (error) {
      // Several reports: say which one could not be written.
      throw error instanceof MarketStubError ? unwritableError(where, `${where}: ${error.message}`) : error;
    }
    io.stderr(`market-stub ${command}: ${verdict}; ${target.format} report written to ${target.path}\n`);
  }
}

/**
 * Prints a MarketStubError (ContractRunError, an unwritable output) as one sentence and returns 2;
 * rethrows anything else (a bug, reported by src/cli.ts). The sentence may quote the deployment (a
 * redirect's Location): its controls are shown as escapes (floor/display-value.ts), so it stays one line.
 */
export function couldNotRun(command: string, error: unknown, io: CliIo): number {
  if (error instanceof MarketStubError) {
    io.stderr(`market-stub ${command}: ${visibleControls(error.message)}\n`);
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
