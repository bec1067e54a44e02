import statuses from 'statuses';
import type { ResponseProfile } from './response-profile.js';
import { jsonReply, type Reply } from './reply.js';
import { utf8 } from '../floor/bytes.js';

/** Stable error codes of the stub's JSON error bodies. */
export type ErrorCode =
  | 'market_not_found' | 'route_not_found' | 'method_not_allowed' | 'bad_request' | 'internal_error'
  | 'unauthorized' | 'rate_limited' | 'invalid_markets' | 'conflict' | 'injected_fault'
  | 'request_timeout' | 'content_too_large' | 'headers_too_large' | 'expectation_failed' | 'shutting_down'
  /** The recording proxy's upstream gave no answer (502), none in time (504), or one framed so no client can read it safely (502). */
  | 'upstream_unreachable' | 'upstream_timeout' | 'upstream_bad_framing';

const TITLES: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 409: 'Conflict',
  413: 'Content Too Large', 417: 'Expectation Failed', 422: 'Unprocessable Content', 431: 'Request Header Fields Too Large', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/**
 * Builds an error reply in the profile's error shape. Every error of the market routes, of the
 * server itself (parser errors, 408, 417, 500, the 503 after the grace) and of the recording
 * proxy (502/504) comes from here; the admin API's errors do not: they have one shape of their
 * own whatever the profile (runtime/admin/admin-error.ts), and a deviation may serve a body of its own.
 * - `default`: `{"status":404,"error":"market_not_found","message":"…","market_id":"abc"}`
 * - `problem`: RFC 9457 `application/problem+json` `{"type","title","status","detail",…extensions}`
 * - `error-object`: `{"error":{"code":"market_not_found","message":"…",…}}` (Kalshi's shape)
 * `details` are extra members (`market_id`, `path`, `findings`).
 */
export function errorReply(shape: ResponseProfile['errors'], status: number, code: ErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
  let body: unknown;
  let contentType = 'application/json; charset=utf-8';
  switch (shape) {
    case 'problem':
      // RFC 9457 §3.1: "about:blank" type means the title is the HTTP status phrase; we give a specific type URI instead.
      body = { type: `https://market-stub.local/problems/${code.replaceAll('_', '-')}`, title: TITLES[status] ?? statuses.message[status] ?? 'Error', status, detail: message, ...details };
      contentType = 'application/problem+json; charset=utf-8';
      break;
    case 'error-object':
      body = { error: { code, message, ...details } };
      break;
    default:
      body = { status, error: code, message, ...details };
  }
  const reply = jsonReply(utf8(JSON.stringify(body)), status, headers);
  reply.headers['content-type'] = contentType;
  return reply;
}

/**
 * The stub's own 500 for a bug while answering (a handler that threw): the profile's error shape,
 * code `internal_error`, never a stack or the error's text (its cause goes to the error log). Every
 * adapter answers it with the same bytes (node:http, Express, MSW, the Fetch handler).
 */
export function internalError(shape: ResponseProfile['errors']): Reply {
  return errorReply(shape, 500, 'internal_error', 'The stub failed to answer this request; its cause is in the error log.');
}

/** 404 for an id the catalog does not hold; the body names the id. */
export function marketNotFound(shape: ResponseProfile['errors'], marketId: string): Reply {
  return errorReply(shape, 404, 'market_not_found', `No market with market_id ${JSON.stringify(marketId)}.`, { market_id: marketId });
}

/** 404 for any path the stub does not serve. */
export function routeNotFound(shape: ResponseProfile['errors'], method: string, path: string): Reply {
  return errorReply(shape, 404, 'route_not_found', `No route for ${method} ${path}. This stub serves GET /markets and GET /markets/{market_id}.`, { path });
}

/** 405 with the Allow header (RFC 9110 §15.5.6 requires it). */
export function methodNotAllowed(shape: ResponseProfile['errors'], method: string, path: string, allow: readonly string[]): Reply {
  return errorReply(shape, 405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allow.join(' or ')}.`, { path }, { allow: allow.join(', ') });
}

/**
 * 400 for a request-target that is neither origin-form (`/path?query`), absolute-form nor `*`
 * (RFC 9112 §3.2): what node:http's parser answers (HPE_INVALID_URL, http/server.ts), and what the
 * Fetch handler answers when a runtime hands it such a target (Bun: CONNECT's `host:port`).
 */
export function invalidRequestTarget(shape: ResponseProfile['errors']): Reply {
  return errorReply(shape, 400, 'bad_request', 'The request is not valid HTTP/1.1 (HPE_INVALID_URL).');
}
