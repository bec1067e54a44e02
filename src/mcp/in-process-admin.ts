import type { AdminTransport } from '../client/admin-transport.js';
import { errorFromAdminBody, unauthorized, type AdminCall } from '../client/admin-error-body.js';
import { concatBytes, utf8, utf8Text } from '../floor/bytes.js';
import { MAX_MCP_RESULT_BYTES } from '../floor/limits.js';
import { MarketStubError, optionError } from '../floor/market-stub-error.js';
import type { AdminDispatch } from '../runtime/admin/admin-endpoint.js';
import type { Reply } from '../runtime/reply.js';

/**
 * An AdminTransport (client/admin-transport.ts: what createMcpServer's tools call) that answers
 * through the stub's own admin API in this process (`dispatch`, runtime/admin/admin-endpoint.ts):
 * the very same routes, checks, turns and error bodies as over HTTP, without a socket. Each request
 * carries what an admin client sends (`Host: localhost`, JSON media type, `Authorization: Bearer`
 * when the stub has a token), so the admin API checks it as it checks any other. Answers are read
 * within MAX_MCP_RESULT_BYTES, as the remote transport reads them for `market-stub mcp --url`.
 * Every failure is a MarketStubError named after `where`: the admin API's own error rebuilt
 * (errorFromAdminBody), or LIMIT_EXCEEDED (option `maxResponseBytes`) for an oversized answer.
 */
export function inProcessAdminTransport(dispatch: AdminDispatch, adminToken: string | undefined): AdminTransport {
  return async (where, request) => {
    const query = request.query?.toString();
    const target = `/__stub${request.path}${query ? `?${query}` : ''}`;
    const call: AdminCall = { where, request: `${request.method} /__stub${request.path} (in process)`, tokenSent: adminToken !== undefined };
    const headers: Record<string, string> = { host: 'localhost', accept: 'application/json' };
    if (adminToken !== undefined) headers['authorization'] = `Bearer ${adminToken}`;
    let body: Uint8Array | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = request.contentType ?? 'application/json';
      body = utf8(jsonText(where, request.bodyOption ?? 'body', request.body));
    } else if (request.method !== 'GET' && request.method !== 'DELETE') headers['content-type'] = request.contentType ?? 'application/json';
    const reply = await dispatch({ method: request.method, target, headers, ...(body === undefined ? {} : { body }) });
    const text = utf8Text(replyBytes(reply, where));
    const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (reply.status < 400) return { status: reply.status, body: parsed };
    if (reply.status === 401) throw unauthorized(call);
    throw errorFromAdminBody(call, reply.status, parsed) ?? new MarketStubError({ code: 'STUB_UNREACHABLE', where, message: `${where}: ${call.request} answered ${reply.status} without an admin API error` });
  };
}

/** A Reply's body bytes (its chunks joined), refused past MAX_MCP_RESULT_BYTES while they are joined. */
function replyBytes(reply: Reply, where: string): Uint8Array {
  if (reply.chunks === undefined) return checkSize(reply.body, reply.body.length, where);
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const chunk of reply.chunks) {
    total += chunk.length;
    checkSize(chunk, total, where);
    parts.push(chunk);
  }
  return concatBytes(parts);
}

function checkSize(bytes: Uint8Array, total: number, where: string): Uint8Array {
  if (total > MAX_MCP_RESULT_BYTES) throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, message: `${where}: the answer is over ${MAX_MCP_RESULT_BYTES} bytes`, option: 'maxResponseBytes', expected: `at most ${MAX_MCP_RESULT_BYTES} bytes` });
  return bytes;
}

/** JSON text of a body (a tool's arguments came as JSON, so only a bug makes this throw). @throws MarketStubError OPTION_INVALID. */
function jsonText(where: string, option: string, value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch {
    // Falls through to the located problem below.
  }
  throw optionError(where, option, 'a JSON value', value);
}
