import { optionError } from '../floor/market-stub-error.js';
import { int, readTyped } from '../floor/option-kind.js';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { DEFAULT_GRACE_MS, MAX_GRACE_MS } from '../floor/limits.js';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { errorReply, internalError, type ErrorCode } from '../runtime/error-reply.js';
import { createPendingResponses } from './pending-responses.js';
import { writeReply } from './write-reply.js';
import { createNodeHandler } from './node-handler.js';
import type { ResponseProfile } from '../runtime/response-profile.js';
import type { StubRuntime } from '../runtime/stub-runtime.js';
import { loadConsoleAssets } from './admin/console-assets.js';
import { createStubCore, type StubCoreOptions } from '../runtime/stub-core.js';

/**
 * After close(), keep-alive connections that are idle stay open this long (at most the grace), so a
 * request a client is sending on one at that moment is answered (with `Connection: close`) instead
 * of meeting a closed socket (ECONNRESET); then they are closed. ms.
 */
export const IDLE_CLOSE_DELAY_MS = 500;
/** A client must send its request headers within this time (slowloris), ms; else 408. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A client must send its whole request (headers and body) within this time, ms; else 408. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Where and how to listen. */
export interface ListenOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface address, e.g. 127.0.0.1 (default for local use) or 0.0.0.0 (containers). */
  host: string;
  /**
   * How long close() lets requests already received finish, ms (0–600,000). Requests still
   * unanswered then get a 503 (`shutting_down`); responses already streaming are cut.
   * @default 5000
   */
  graceMs?: number;
  /** Shape of the JSON bodies the server itself sends (parser errors 400/408/413/431, 417, 500, the 503 after the grace). @default 'default' */
  errorShape?: ResponseProfile['errors'];
  /** Gets the cause of every 500 the handler throws (`where`: method and path). @default console.error */
  onError?: (error: unknown, where: string) => void;
}

/** A listening stub. */
export interface RunningServer {
  /** `http://ADDRESS:PORT` with the address actually bound (IPv6 in brackets), never `localhost`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly server: Server;
  /**
   * Stops gracefully (idempotent): stops accepting, sends `Connection: close` on every response
   * from now on (so clients close those connections themselves), closes idle keep-alive
   * connections after IDLE_CLOSE_DELAY_MS, lets requests already received finish for `graceMs`, then answers those still
   * waiting 503 and closes every connection.
   */
  close(): Promise<void>;
}

/**
 * The server's request handler: the node:http adapter over the request core, which answers every
 * route (market routes, health, OpenAPI, 404/405, preflights, the admin API and its console's
 * files, read from dist/console; `adminEndpoint`: the edges' admin path, admin-endpoint.ts).
 * Express is never loaded: it is one more adapter (createApp), for apps that mount the stub.
 */
export function createRequestHandler(runtime: StubRuntime, options: Pick<StubCoreOptions, 'adminEndpoint'> = {}): (req: IncomingMessage, res: ServerResponse) => void {
  return createNodeHandler(createStubCore(runtime, { consoleAssets: loadConsoleAssets, ...options }));
}

/**
 * Listens with `handler` and resolves once bound. Every answer is a real HTTP answer: a handler
 * that throws gets a logged 500, Node's parser errors (`clientError`) and an unmet `Expect` get a
 * JSON body, slow clients a 408 (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS).
 * @throws Error with code EADDRINUSE / EACCES / EADDRNOTAVAIL when the address cannot be bound;
 *   MarketStubError OPTION_INVALID (where `listen`) when graceMs is out of range.
 */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, options: ListenOptions): Promise<RunningServer> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const grace = readTyped(int(0, MAX_GRACE_MS), graceMs);
  if (!grace.ok) throw optionError('listen', 'graceMs', grace.expected, graceMs);
  const shape = options.errorShape ?? 'default';
  const onError = options.onError ?? ((error: unknown, where: string) => console.error(`market-stub: 500 on ${where}:`, error));
  // Not a Set: see pending-responses.ts (a Set's rehashes were old-generation garbage per request).
  const pending = createPendingResponses<ServerResponse>();
  let draining = false;

  const server = createServer({ keepAliveTimeout: 5_000, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (req, res) => {
    if (draining) res.setHeader('connection', 'close');
    try {
      handler(req, res);
    } catch (error) {
      onError(error, `${req.method} ${req.url}`);
      if (!res.headersSent) writeReply(res, internalError(shape));
      else res.destroy();
    }
    // A response not yet handed whole to its socket (delayed, streamed, pipelined) is pending until
    // its 'close' (once per response, completed or aborted; `on`, not `once`: no wrapper per
    // request; never before the handler returns). One already sent needs no listener.
    if (!res.writableFinished) res.on('close', pending.add(res));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, shape));
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    writeReply(res, errorReply(shape, 417, 'expectation_failed', `Expect: ${String(req.headers.expect)} is not supported; only 100-continue is (RFC 9110 §10.1.1).`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After listening, a server error (EMFILE on accept…) is logged, never thrown past the stub.
  server.on('error', (error) => onError(error, 'the listening socket'));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    host: address.address,
    port: address.port,
    server,
    close() {
      closing ??= closeGracefully(server, pending, { graceMs, shape, drain: () => { draining = true; } });
      return closing;
    },
  };
}

/**
 * The graceful close of a listening server: `Connection: close` on every response from now on,
 * idle keep-alive connections closed after IDLE_CLOSE_DELAY_MS, requests still waiting after
 * `graceMs` answered 503 (responses already streaming cut), every connection cut a second later.
 */
function closeGracefully(
  server: Server, pending: Iterable<ServerResponse>, options: { graceMs: number; shape: ResponseProfile['errors']; drain(): void },
): Promise<void> {
  const { graceMs, shape } = options;
  return new Promise<void>((resolve) => {
    options.drain();
    for (const res of pending) if (!res.headersSent) res.setHeader('connection', 'close');
    const grace = setTimeout(() => {
      for (const res of pending) {
        if (res.headersSent) res.destroy();
        else writeReply(res, errorReply(shape, 503, 'shutting_down', `The stub is shutting down; this request waited the ${graceMs} ms grace.`, {}, { 'retry-after': '1' }));
      }
      // Whatever has not closed within a second of the 503s is cut.
      setTimeout(() => server.closeAllConnections(), 1_000).unref();
    }, graceMs);
    grace.unref();
    const idle = setTimeout(() => server.closeIdleConnections(), Math.min(graceMs, IDLE_CLOSE_DELAY_MS));
    idle.unref();
    // net.Server#close stops accepting and waits for open connections; http.Server#close would
    // also close idle keep-alive connections at once, racing requests already on their way.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(grace);
      clearTimeout(idle);
      resolve();
    });
  });
}

/** Node's parser errors → a JSON answer when the socket can still take one (RFC 9110 §15.5: 400, 408, 413, 431). */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, shape: ResponseProfile['errors']): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] = clientErrorAnswer(error.code);
  const reply = errorReply(shape, status, code, message);
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, `content-type: ${reply.headers['content-type'] ?? 'application/json'}`, `content-length: ${reply.body.length}`, 'connection: close', '', ''].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), reply.body]));
}

function clientErrorAnswer(code: string | undefined): [number, ErrorCode, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'headers_too_large', 'The request headers are larger than the server accepts (16 KiB, Node --max-http-header-size).'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request_timeout', `The request did not arrive in time (headers within ${HEADERS_TIMEOUT_MS} ms, the whole request within ${REQUEST_TIMEOUT_MS} ms).`];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'content_too_large', 'The chunk extensions of the request body are too large.'];
    default:
      return [400, 'bad_request', `The request is not valid HTTP/1.1 (${code ?? 'parse error'}).`];
  }
}
