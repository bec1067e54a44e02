import type { Readable, Writable } from 'node:stream';
import { connectAdminApi } from '../client/connect-market-stub.js';
import { CLI_HINT } from '../floor/cli-hint.js';
import { MAX_MCP_CALL_MS, MAX_MCP_RESULT_BYTES } from '../floor/limits.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import { createMcpInput } from '../mcp/mcp-input.js';
import { createMcpServer, type McpTarget } from '../mcp/mcp-server.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { McpValues } from '../options/tables/mcp-options.js';
import type { ServeValues } from '../options/tables/serve-options.js';
import { EXIT, type CliIo } from './cli-io.js';
import { composeOrRefuse, launchOrRefuse } from './run-serve.js';

/** A stub the MCP server drives: its URL and token, and how to stop it when `mcp` started it. */
interface Driven {
  url: string;
  adminToken: string | undefined;
  close(): Promise<void>;
}

/**
 * `market-stub mcp`: the Model Context Protocol on stdin/stdout (MCP 2025-06-18 basic/transports
 * "stdio": one JSON-RPC message a line; nothing else ever goes to stdout, messages go to stderr)
 * for the stub at `--url`, or for one it starts with serve's options (checked as `serve` checks
 * them: a bad one exits 2 before anything starts). Serves until stdin ends or `io.signal` aborts,
 * then stops the stub it started.
 * @returns 0 after a clean stop; 2 when the options are bad or the stub cannot start.
 */
export async function runMcp(options: ResolvedOptions<McpValues>, io: CliIo, stdin: Readable = process.stdin): Promise<number> {
  const driven = await drivenStub(options, io);
  if (typeof driven === 'number') return driven;
  const stdout = io.stdoutStream as Writable;
  let target: McpTarget;
  try {
    const { base, send } = connectAdminApi(driven.url, { adminToken: driven.adminToken, timeoutMs: MAX_MCP_CALL_MS, maxResponseBytes: MAX_MCP_RESULT_BYTES });
    target = { url: base, send, secrets: driven.adminToken === undefined ? [] : [driven.adminToken], check: async (url, maxMarkets) => (await import('./crawl-commands.js')).boundedCheck(url, maxMarkets) };
  } catch (error) {
    await driven.close();
    if (!(error instanceof MarketStubError)) throw error;
    io.stderr(`market-stub mcp: --url: ${error.expected ?? error.message}. Run '${CLI_HINT} mcp --help' for the options.\n`);
    return EXIT.couldNotRun;
  }
  const [{ server, settled }, { StdioServerTransport, JSONRPCMessageSchema }] = await Promise.all([createMcpServer(target), import('../mcp/sdk.js')]);
  const input = createMcpInput((value) => JSONRPCMessageSchema.safeParse(value).success, (line) => stdout.write(`${JSON.stringify(line)}\n`));
  const ended = new Promise<void>((resolve) => {
    input.once('end', resolve);
    stdin.once('error', () => resolve());
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  server.onerror = (error) => io.stderr(`market-stub mcp: ${error.message}\n`);
  await server.connect(new StdioServerTransport(stdin.pipe(input), stdout));
  io.stderr(`market-stub mcp: serving the Model Context Protocol on stdin/stdout for the stub at ${target.url} (docs/mcp.md)\n`);
  await ended;
  // Calls in flight when stdin ended still get their answers (each bounded by MAX_MCP_CALL_MS or the check's bound).
  await settled();
  await server.close();
  await driven.close();
  return EXIT.ok;
}

/** The stub at --url, or one started with serve's options (its admin API on: the tools are its routes). */
async function drivenStub(options: ResolvedOptions<McpValues>, io: CliIo): Promise<Driven | number> {
  const { url, adminToken } = options.values;
  if (url !== undefined) {
    // With --url the stub runs already: the options of a stub to start say nothing to it.
    const unread = Object.entries(options.origins).filter(([key, origin]) => origin !== undefined && origin !== 'default' && key !== 'url' && key !== 'adminToken').map(([, origin]) => origin);
    if (unread.length > 0) io.stderr(`market-stub mcp: ${unread.join(', ')} not read: with --url the stub runs already (its own options hold).\n`);
    return { url, adminToken, close: async () => {} };
  }
  if (options.values.admin === 'off') {
    io.stderr(`market-stub mcp: ${options.origins.admin ?? '--admin'} is off, but the MCP tools are the stub's admin API; leave it on (the default), or pass --url for a stub that runs already.\n`);
    return EXIT.couldNotRun;
  }
  // serve's rows, checked as serve checks them; the rows mcp leaves out read as their defaults (absent).
  const config = composeOrRefuse(options as unknown as ResolvedOptions<ServeValues>, io, 'mcp');
  if (typeof config === 'number') return config;
  const launched = await launchOrRefuse(config, undefined, io, 'mcp');
  if (typeof launched === 'number') return launched;
  return { url: launched.stub.url, adminToken, close: () => launched.stub.close() };
}
