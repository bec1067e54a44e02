import { composeServeConfig, type ServeConfig } from '../config.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import { FixtureError, formatFixtureProblems } from '../file-system/load-fixtures.js';
import { createLogger, logDropNotice, resolveLogFormat } from '../logger.js';
import { launchOptionsOf } from '../options/launch-options.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { ServeValues } from '../options/tables/serve-options.js';
import { launchStub, type LaunchedStub, type MarketStubOptions } from '../stub.js';
import { EXIT, type CliIo } from './cli-io.js';
import { describeReach } from '../catalog/deviation-reach.js';
import { formatServeConfig } from './format-serve-config.js';
import { CLI_HINT } from '../floor/cli-hint.js';
import { removeReadyRecord, writeReadyRecord } from './ready-record.js';
import { ignoredOptionWarning, ignoredServeOptions } from '../options/ignored-options.js';
import type { McpHttpEndpoint } from '../mcp/mcp-http.js';

// `serve`'s one lazy load (serveCommand.load): the stub, the logger and the fixture reader load
// with it, when `serve` runs, never for another command or `--help`.

/**
 * `market-stub serve`: composes the config (profile, behaviours, rules file: all checked before
 * anything starts), builds the catalog (validating fixtures: nothing is bound when they are
 * bad), listens, prints the ready line and serves until `io.signal` aborts.
 * @returns 0 after a graceful stop; 2 when options or fixtures are bad or the port cannot be bound.
 */
export async function runServe(options: ResolvedOptions<ServeValues>, io: CliIo): Promise<number> {
  const config = composeOrRefuse(options, io);
  if (typeof config === 'number') return config;
  if (options.values.printConfig) {
    io.stdout(formatServeConfig(config, options));
    return EXIT.ok;
  }
  for (const ignored of ignoredServeOptions(options)) io.stderr(`${ignoredOptionWarning(ignored)}\n`);
  const logFormat = resolveLogFormat(config.values.logFormat, io.isTTY);
  const logger = createLogger({
    format: logFormat, destination: io.stdoutStream === process.stdout ? 1 : io.stdoutStream, colorize: io.isTTY,
    onDrop: logDropNotice({ command: 'serve', log: 'request log', remedy: 'Read or redirect the stub\'s stdout (> file), or pass --quiet.' }, io.stderr),
  });
  // One line per warning, in one stream: the request log when there is one (a JSON line, or a
  // pretty one on a terminal), stderr with --quiet; never both (`podman logs` shows both streams).
  const mcpHttp = await mcpHttpOf(config);
  const launched = await launchOrRefuse(config, config.values.quiet ? undefined : logger, io, 'serve', mcpHttp ? { adminEndpoint: mcpHttp.endpoint } : {});
  if (typeof launched === 'number') return launched;
  const { stub, runtime } = launched;
  mcpHttp?.listening(stub.url);
  const catalog = runtime.store.current();
  const readyFile = options.values.readyFile;
  if (!(await readyRecordOrRefuse(readyFile, stub.url, io))) {
    await stub.close();
    return EXIT.couldNotRun;
  }
  // The deviations in force and how many markets each reaches (a share that reaches none was a warning already).
  const reach = runtime.store.deviationReach();
  const ready = `market-stub listening on ${stub.url} serving ${catalog.description}${reach.length > 0 ? `; deviations: ${describeReach(reach)}` : ''}`;
  if (logFormat === 'json') {
    const deviations = reach.length > 0 ? reach.map(({ marketIds: _ids, ...counts }) => counts) : undefined;
    logger.info({ url: stub.url, source: catalog.source, count: catalog.size, seed: config.values.fixtures ? undefined : config.values.seed, clock: config.values.clock, deviations }, ready);
    // Request lines are written in batches; the ready line goes out now (scripts wait for it).
    logger.flush();
  } else io.stdout(`${ready}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await removeReadyRecord(readyFile);
  await stub.close();
  await mcpHttp?.endpoint.close();
  logger.flush();
  return EXIT.ok;
}

/**
 * The MCP Streamable HTTP endpoint of `--mcp-http on` (mcp/mcp-http.ts, loaded only then, with the
 * MCP SDK), when the admin API is on (off, the option was warned about: ignoredServeOptions), and
 * `listening`, to tell it the stub's URL once bound (its `openapi` tool reads `{url}/openapi.json`).
 */
async function mcpHttpOf(config: ServeConfig): Promise<{ endpoint: McpHttpEndpoint; listening(url: string): void } | undefined> {
  if (config.values.mcpHttp !== 'on' || config.values.admin === 'off') return undefined;
  const { createMcpHttpEndpoint } = await import('../mcp/mcp-http.js');
  let url = '';
  const endpoint = createMcpHttpEndpoint({
    adminToken: config.values.adminToken,
    url: () => url,
    check: async (target, maxMarkets) => (await import('./crawl-commands.js')).boundedCheck(target, maxMarkets),
  });
  return { endpoint, listening: (bound) => { url = bound; } };
}

/** Writes `--ready-file` (when given) once listening; false after printing why it could not be written. */
async function readyRecordOrRefuse(file: string | undefined, url: string, io: CliIo): Promise<boolean> {
  if (file === undefined) return true;
  try {
    await writeReadyRecord(file, 'serve', url);
    return true;
  } catch (error) {
    if (!(error instanceof MarketStubError)) throw error;
    io.stderr(`market-stub serve: --ready-file: ${error.message}\n`);
    return false;
  }
}

/**
 * The serve config, or exit code 2 after printing why the options do not compose (worded for `command`: serve, mcp): any MarketStubError
 * (the config's own ConfigError is one). Other errors are thrown on.
 */
export function composeOrRefuse(options: ResolvedOptions<ServeValues>, io: CliIo, command = 'serve'): ServeConfig | number {
  try {
    return composeServeConfig(options);
  } catch (error) {
    if (error instanceof MarketStubError) {
      io.stderr(`market-stub ${command}: ${error.message} Run '${CLI_HINT} ${command} --help' for the options.\n`);
      return EXIT.couldNotRun;
    }
    throw error;
  }
}

/**
 * Launches the stub with launchOptionsOf(config), or returns exit code 2 after printing why it
 * could not start: bad fixtures (every problem), a port or host that cannot be bound, a refused option.
 * `serving`: what the server adds to the library's options (launchStub: an admin endpoint).
 */
export async function launchOrRefuse(config: ServeConfig, logger: MarketStubOptions['logger'], io: CliIo, command = 'serve', serving: Parameters<typeof launchStub>[2] = {}): Promise<LaunchedStub | number> {
  try {
    return await launchStub(launchOptionsOf(config, logger), `market-stub ${command}`, serving);
  } catch (error) {
    if (error instanceof FixtureError) {
      io.stderr(`market-stub ${command}: ${formatFixtureProblems(error.problems, error.location)}\n`);
      return EXIT.couldNotRun;
    }
    if (error instanceof MarketStubError && error.code === 'LISTEN_FAILED') {
      const code = (error.cause as NodeJS.ErrnoException | undefined)?.code ?? 'error';
      io.stderr(`market-stub ${command}: cannot listen on ${config.values.host}:${config.values.port} (${code}). Choose another --port (0 picks a free one) or --host.\n`);
      return EXIT.couldNotRun;
    }
    if (error instanceof MarketStubError) {
      io.stderr(`${error.message}. Run '${CLI_HINT} ${command} --help' for the options.\n`);
      return EXIT.couldNotRun;
    }
    throw error;
  }
}
