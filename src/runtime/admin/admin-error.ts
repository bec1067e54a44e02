import { adminCode, MarketStubError, type MarketStubErrorCode } from '../../floor/market-stub-error.js';
import { utf8 } from '../../floor/bytes.js';
import { jsonReply, type Reply } from '../reply.js';
import type { LocatedProblem } from '../../floor/located-problem.js';

/**
 * The one JSON shape of every admin API error, whatever the response profile (the profile's error
 * shape is for the emulated market routes):
 * `{"status":400,"error":"option_invalid","message":"…","option"?,"expected"?,"found"?,"findings"?:[{pointer,expected,found,message}],"more"?,"market_id"?}`.
 * `error` is `adminCode(code)`, so a remote client rebuilds the very same MarketStubError from it
 * (`code` = `error` upper-cased, `where` = the route, the other members as they are).
 */
export interface AdminErrorBody {
  status: number;
  error: string;
  message: string;
  option?: string;
  expected?: string;
  found?: string;
  /** Every located problem, in the one shape (floor/located-problem.ts). */
  findings?: LocatedProblem[];
  /** How many problems were found beyond those listed in `findings` (the first 100 are listed). */
  more?: number;
  market_id?: string;
}

/** HTTP status of each code on the admin API (a few errors carry their own: 405, 409, 413, 415, 503). */
const STATUS: Record<MarketStubErrorCode, number> = {
  OPTION_INVALID: 400,
  MARKETS_INVALID: 400,
  FIXTURES_UNREADABLE: 400,
  MARKET_NOT_FOUND: 404,
  RULE_NOT_FOUND: 404,
  LIMIT_EXCEEDED: 413,
  UNAUTHORIZED: 401,
  STUB_UNREACHABLE: 502,
  ADMIN_ROUTE_NOT_FOUND: 404,
  FORBIDDEN: 403,
  // The codes below come from check, record and listening; the admin API never raises them.
  LISTEN_FAILED: 500,
  OUTPUT_UNWRITABLE: 500,
  DEPLOYMENT_UNREACHABLE: 502,
  INTERRUPTED: 500,
};

/** A MarketStubError on its way out of the admin API, with the status to send it with. */
export class AdminFailure extends Error {
  constructor(readonly error: MarketStubError, readonly status = STATUS[error.code], readonly headers: Record<string, string> = {}) {
    super(error.message);
    this.name = 'AdminFailure';
  }
}

/** The body of an admin error: AdminErrorBody built from the error's fields (absent ones left out). */
export function adminErrorBody(error: MarketStubError, status: number): AdminErrorBody {
  const body: AdminErrorBody = { status, error: adminCode(error.code), message: error.message };
  if (error.option !== undefined) body.option = error.option;
  if (error.expected !== undefined) body.expected = error.expected;
  if (error.found !== undefined) body.found = error.found;
  if (error.findings.length > 0) body.findings = error.findings.map(({ pointer, expected, found, message }) => ({ pointer, expected, found, message }));
  if (error.more > 0) body.more = error.more;
  if (error.marketId !== undefined) body.market_id = error.marketId;
  return body;
}

/** The reply for an admin error: `application/json`, AdminErrorBody. */
export function adminErrorReply(failure: AdminFailure): Reply {
  return jsonReply(utf8(JSON.stringify(adminErrorBody(failure.error, failure.status))), failure.status, { ...failure.headers });
}

/** Shorthand: an AdminFailure for `code` at `where` with a full message. */
export function adminFailure(code: MarketStubErrorCode, where: string, message: string, extra: { status?: number; headers?: Record<string, string>; option?: string; expected?: string; found?: unknown } = {}): AdminFailure {
  const init = { code, where, message: `${where}: ${message}`, ...(extra.option !== undefined ? { option: extra.option } : {}), ...(extra.expected !== undefined ? { expected: extra.expected } : {}), ...(extra.found !== undefined ? { found: extra.found } : {}) };
  return new AdminFailure(new MarketStubError(init), extra.status, extra.headers);
}
