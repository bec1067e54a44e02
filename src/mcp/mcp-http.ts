import { randomUUID } from 'node:crypto';
import { utf8 } from '../floor/bytes.js';
import { decodeJsonBytes, JsonInputError, parseJsonText } from '../floor/bounded-json.js';
import { MAX_JSON_DEPTH, MAX_MCP_HTTP_SESSIONS, MAX_MCP_MESSAGE_BYTES, MCP_HTTP_IDLE_MS } from '../floor/limits.js';
import { mediaType } from '../runtime/admin/admin-access.js';
import type { AdminDispatch, AdminEndpoint, AdminEndpointRequest } from '../runtime/admin/admin-endpoint.js';
import type { Reply } from '../runtime/reply.js';
import { inProcessAdminTransport } from './in-process-admin.js';
import { createMcpServer, type McpTarget } from './mcp-server.js';

/** The admin path of MCP over Streamable HTTP: `/__stub/mcp`. */
export const MCP_HTTP_PATH = '/mcp';

/** What the endpoint needs of the stub it serves beside the admin API it is handed. */
export interface McpHttpOptions {
  /** The stub's admin token (the in-process calls carry it; every text sent is redacted of it). */
  adminToken: string | undefined;
  /** The stub's base URL once it listens (the `openapi` tool reads `{url}/openapi.json`). */
  url(): string;
  /** The bounded check of the `check` tool (bounded-check.ts), loaded when first called. */
  check: McpTarget['check'];
  /** @default MAX_MCP_HTTP_SESSIONS */
  maxSessions?: number;
  /** @default MCP_HTTP_IDLE_MS */
  idleMs?: number;
}

/** The endpoint, and how to end every session when the stub stops. */
export interface McpHttpEndpoint extends AdminEndpoint {
  /** Sessions open now. */
  readonly sessions: number;
  /** Ends every session (their calls in flight are answered first). */
  close(): Promise<void>;
}

interface Session {
  transport: { handleRequest(request: Request, options?: { parsedBody?: unknown }): Promise<Response> };
  close(): Promise<void>;
  timer?: ReturnType<typeof setTimeout>;
}

/** The open sessions by id, each closed after `idleMs` without a request; `opening`: initializes under way (they count against the maximum). */
interface SessionTable {
  readonly byId: Map<string, Session>;
  opening: number;
  readonly maxSessions: number;
  readonly idleMs: number;
  /** Restarts the session's idle timer. */
  touch(id: string, session: Session): void;
  /** Forgets the session and closes it (its calls in flight are answered first). */
  end(id: string): Promise<void>;
}

function sessionTable(maxSessions: number, idleMs: number): SessionTable {
  const byId = new Map<string, Session>();
  const table: SessionTable = {
    byId, opening: 0, maxSessions, idleMs,
    touch(id, session) {
      clearTimeout(session.timer);
      session.timer = setTimeout(() => void table.end(id), idleMs);
      session.timer.unref?.();
    },
    async end(id) {
      const session = byId.get(id);
      if (session === undefined) return;
      byId.delete(id);
      clearTimeout(session.timer);
      await session.close();
    },
  };
  return table;
}

/**
 * MCP over Streamable HTTP (MCP 2025-06-18 basic/transports "Streamable HTTP") at `/__stub/mcp`,
 * as an AdminEndpoint (runtime/admin/admin-endpoint.ts: the admin API's token and Host/Origin
 * checks run first, and the body is read within MAX_MCP_MESSAGE_BYTES, the stdio line's limit).
 * Stateful: `initialize` (POST without `Mcp-Session-Id`) opens a session, one MCP server
 * (createMcpServer, the same tools as `market-stub mcp`) and one of the SDK's
 * WebStandardStreamableHTTPServerTransport, whose id the answer's `Mcp-Session-Id` carries; every
 * later request names it; DELETE ends it. At most `maxSessions` at once (503 with Retry-After
 * past them), each closed after `idleMs` without a request (its id then answers 404). Answers are
 * JSON (the transport's `enableJsonResponse`): the server sends no request or notification of its
 * own, so a GET (the SSE stream for those) is 405, which the spec allows ("Listening for Messages
 * from the Server"). Tools drive the stub in process (in-process-admin.ts). Errors are JSON-RPC
 * error bodies: 415 for another media type, 400 -32700 for a body that is not JSON within the
 * admin API's JSON rules (UTF-8, depth MAX_JSON_DEPTH), 400 for a request without a session that
 * is not `initialize`, 404 -32001 for an unknown session, the transport's own (406 without
 * `Accept: application/json, text/event-stream`, 400 for a bad `MCP-Protocol-Version`).
 */
export function createMcpHttpEndpoint(options: McpHttpOptions): McpHttpEndpoint {
  const table = sessionTable(options.maxSessions ?? MAX_MCP_HTTP_SESSIONS, options.idleMs ?? MCP_HTTP_IDLE_MS);
  return {
    path: MCP_HTTP_PATH,
    describe: 'the Model Context Protocol over Streamable HTTP (serve --mcp-http on): POST JSON-RPC messages, DELETE to end a session (docs/mcp.md#over-http)',
    bodyBytes: MAX_MCP_MESSAGE_BYTES,
    get sessions() {
      return table.byId.size;
    },
    answer: (request, admin) => answerMcp(request, admin, table, options),
    async close() {
      await Promise.all([...table.byId.keys()].map(table.end));
    },
  };
}

/** One request to `/__stub/mcp`: refused, handed to its session's transport, or an initialize that opens one. */
async function answerMcp(request: AdminEndpointRequest, admin: AdminDispatch, table: SessionTable, options: McpHttpOptions): Promise<Reply> {
  if (request.method !== 'POST' && request.method !== 'DELETE') {
    return rpcError(405, -32000, `Method Not Allowed: ${request.method}; POST JSON-RPC messages, DELETE to end a session. This server sends no messages of its own, so it opens no SSE stream on GET`, { allow: 'POST, DELETE' });
  }
  if (request.method === 'POST' && mediaType(request.headers['content-type']) !== 'application/json') {
    return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const id = request.headers['mcp-session-id'];
  if (id === undefined) return request.method === 'DELETE' ? rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required') : openSession(request, admin, table, options);
  const session = table.byId.get(id);
  if (session === undefined) return rpcError(404, -32001, `Session not found: no MCP session has this Mcp-Session-Id (ended by DELETE, idle for ${table.idleMs / 60_000} min, or the stub restarted); start a new one with initialize`);
  let parsedBody: unknown;
  if (request.method === 'POST') {
    const parsed = parseMessage(request.body);
    if ('error' in parsed) return parsed.error;
    parsedBody = parsed.value;
  }
  table.touch(id, session);
  const reply = await replyOf(await session.transport.handleRequest(fetchRequest(request), parsedBody === undefined ? {} : { parsedBody }));
  // A DELETE ended it (the transport's onsessionclosed forgot it): close its server too.
  if (table.byId.get(id) === session) table.touch(id, session);
  else await session.close();
  return reply;
}

/** An initialize (POST without Mcp-Session-Id): a new session when there is room, its answer carrying the new Mcp-Session-Id. */
async function openSession(request: AdminEndpointRequest, admin: AdminDispatch, table: SessionTable, options: McpHttpOptions): Promise<Reply> {
  const parsed = parseMessage(request.body);
  if ('error' in parsed) return parsed.error;
  const sdk = await import('./sdk.js');
  const message = parsed.value;
  if (!(Array.isArray(message) ? message.some(sdk.isInitializeRequest) : sdk.isInitializeRequest(message))) {
    return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required; start a session with an initialize request (POST without Mcp-Session-Id)');
  }
  if (table.byId.size + table.opening >= table.maxSessions) {
    return rpcError(503, -32000, `Service Unavailable: ${table.maxSessions} MCP sessions are open, the most this stub holds (docs/limits.md); end one (DELETE /__stub/mcp with its Mcp-Session-Id) or wait for one to be idle for ${table.idleMs / 60_000} min`, { 'retry-after': '60' });
  }
  table.opening += 1;
  try {
    const target: McpTarget = { url: options.url(), send: inProcessAdminTransport(admin, options.adminToken), secrets: options.adminToken === undefined ? [] : [options.adminToken], check: options.check };
    const { server, settled } = await createMcpServer(target);
    const session: Session = { transport: { handleRequest: () => Promise.reject(new Error('not connected')) }, close: async () => { await settled(); await server.close(); } };
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        table.byId.set(id, session);
        table.touch(id, session);
      },
      onsessionclosed: (id) => {
        table.byId.delete(id);
        clearTimeout(session.timer);
      },
    });
    session.transport = transport;
    await server.connect(transport);
    const reply = await replyOf(await transport.handleRequest(fetchRequest(request), { parsedBody: message }));
    // An initialize the transport refused (406, a bad version) opened nothing.
    if (transport.sessionId === undefined || table.byId.get(transport.sessionId) !== session) await server.close();
    return reply;
  } finally {
    table.opening -= 1;
  }
}

/** A POST body as JSON under the admin API's rules (bounded-json.ts: UTF-8, no BOM, depth MAX_JSON_DEPTH), or the -32700 answer. */
function parseMessage(body: Uint8Array | undefined): { value: unknown } | { error: Reply } {
  try {
    if (body === undefined || body.length === 0) throw new JsonInputError('syntax', undefined, 'a JSON-RPC message', 'an empty body');
    return { value: parseJsonText(decodeJsonBytes(body), MAX_JSON_DEPTH, false) };
  } catch (error) {
    if (!(error instanceof JsonInputError)) throw error;
    return { error: rpcError(400, -32700, `Parse error: the body is not a JSON-RPC message within the admin API's JSON rules (expected ${error.expected}, found ${error.found})`) };
  }
}

/** The Fetch Request the SDK's transport reads: the method and the headers it looks at (the body is handed over parsed). */
function fetchRequest(request: AdminEndpointRequest): Request {
  const headers = new Headers();
  for (const name of ['accept', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) {
    const value = request.headers[name];
    if (value !== undefined) headers.set(name, value);
  }
  return new Request(`http://localhost/__stub${MCP_HTTP_PATH}`, { method: request.method, headers });
}

/** A Fetch Response (JSON or empty: enableJsonResponse) as the core's Reply. */
async function replyOf(response: Response): Promise<Reply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
}

/** A JSON-RPC 2.0 error body (id null: the request's id is not known) with its HTTP status. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: utf8(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })) };
}
