import type { MarketCatalog } from '../catalog/market-catalog.js';
import { errorReply, marketNotFound, methodNotAllowed } from './error-reply.js';
import { jsonReply, type Reply } from './reply.js';

/** The parts of a request the market routes read. */
export interface MarketRequest {
  method: string;
  /** The raw path, still percent-encoded, without the query string. */
  path: string;
}

const ALLOWED = ['GET', 'HEAD'] as const;

/**
 * Answers the two market routes from the catalog's pre-serialised bodies, or returns undefined
 * for any other path. Both the Express app and the server's fast path call this, so they agree.
 *
 * - `GET|HEAD /markets` (or `/markets/`) → 200, the bare array of summaries.
 * - `GET|HEAD /markets/{market_id}` → 200 one market; the id is matched exactly after
 *   percent-decoding (RFC 3986 §2.1), so `a%2Fb` finds `a/b`; 404 JSON naming the id otherwise;
 *   400 JSON when the percent-encoding is malformed.
 * - any other method on those paths → 405 with `Allow: GET, HEAD`.
 */
export function respondToMarkets(catalog: MarketCatalog, request: MarketRequest): Reply | undefined {
  const { path } = request;
  if (!path.startsWith('/markets')) return undefined;
  const rest = path.slice('/markets'.length);
  let marketId: string | undefined;
  if (rest === '' || rest === '/') {
    marketId = undefined;
  } else if (rest.startsWith('/') && rest.indexOf('/', 1) === -1) {
    try {
      marketId = decodeURIComponent(rest.slice(1));
    } catch {
      return errorReply(400, 'bad_request', `The market_id in ${path} is not valid percent-encoding (RFC 3986 §2.1).`, { path });
    }
  } else {
    return undefined;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, path, ALLOWED);
  if (marketId === undefined) return jsonReply(catalog.listBody());
  const entry = catalog.entry(marketId);
  return entry ? jsonReply(entry.body) : marketNotFound(marketId);
}
