import { jsonReply, type Reply } from './reply.js';

/** Stable error codes of the stub's JSON error bodies. */
export type ErrorCode = 'market_not_found' | 'route_not_found' | 'method_not_allowed' | 'bad_request' | 'internal_error';

/**
 * The one JSON error shape (every error the stub sends comes from here, including unknown routes):
 * `{"status":404,"error":"market_not_found","message":"…","market_id":"abc"}`.
 * `details` adds fields such as `market_id` or `path`.
 */
export function errorReply(status: number, code: ErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
  const body = Buffer.from(JSON.stringify({ status, error: code, message, ...details }));
  return jsonReply(body, status, headers);
}

/** 404 for an id the catalog does not hold; the body names the id. */
export function marketNotFound(marketId: string): Reply {
  return errorReply(404, 'market_not_found', `No market with market_id ${JSON.stringify(marketId)}.`, { market_id: marketId });
}

/** 404 for any path the stub does not serve. */
export function routeNotFound(method: string, path: string): Reply {
  return errorReply(404, 'route_not_found', `No route for ${method} ${path}. This stub serves GET /markets and GET /markets/{market_id}.`, { path });
}

/** 405 with the Allow header (RFC 9110 §15.5.6 requires it). */
export function methodNotAllowed(method: string, path: string, allow: readonly string[]): Reply {
  return errorReply(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allow.join(' or ')}.`, { path }, { allow: allow.join(', ') });
}
