import { MarketStubError, type ErrorFinding, type MarketStubErrorCode, type MarketStubErrorInit } from '../floor/market-stub-error.js';

/**
 * Every code a remote admin error may carry. A Record over the union, so adding a code to
 * MarketStubErrorCode fails the type check here until the remote client knows it too.
 */
const KNOWN_CODES: Record<MarketStubErrorCode, true> = {
  OPTION_INVALID: true,
  MARKETS_INVALID: true,
  FIXTURES_UNREADABLE: true,
  MARKET_NOT_FOUND: true,
  RULE_NOT_FOUND: true,
  LIMIT_EXCEEDED: true,
  LISTEN_FAILED: true,
  UNAUTHORIZED: true,
  STUB_UNREACHABLE: true,
  OUTPUT_UNWRITABLE: true,
  DEPLOYMENT_UNREACHABLE: true,
  INTERRUPTED: true,
  ADMIN_ROUTE_NOT_FOUND: true,
  FORBIDDEN: true,
};

/** What the remote client knows about the call an admin error answers. */
export interface AdminCall {
  /** The client method, as the in-process handle names it: `stub.setMarkets`. */
  where: string;
  /** `PUT http://127.0.0.1:4010/__stub/markets` (no query: it may hold filter values only, but stays out of messages anyway). */
  request: string;
  /** Whether the client sent a token (the 401 message says which of "missing" or "wrong"). */
  tokenSent: boolean;
}

/**
 * Rebuilds the MarketStubError of an admin API error body
 * (`{"status","error","message","option"?,"expected"?,"found"?,"findings"?,"more"?,"market_id"?}`, the one
 * admin error shape): `code` is `error` upper-cased, `where` the client method, the other fields
 * as sent, and the message the server's with its route prefix (`PUT /__stub/markets: `) replaced by
 * the method, so it reads exactly like the in-process handle's. A 401 says whether the token was
 * missing or wrong (never the token itself).
 * @returns undefined when the body is not an admin error (another server, `--admin off`, a proxy page).
 */
export function errorFromAdminBody(call: AdminCall, status: number, body: unknown): MarketStubError | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b['error'] !== 'string' || typeof b['message'] !== 'string') return undefined;
  const code = b['error'].toUpperCase();
  if (!Object.hasOwn(KNOWN_CODES, code)) return undefined;
  if (code === 'UNAUTHORIZED' || status === 401) return unauthorized(call);
  const init: MarketStubErrorInit = { code: code as MarketStubErrorCode, where: call.where, message: `${call.where}: ${withoutRoute(b['message'])}` };
  if (typeof b['option'] === 'string') init.option = b['option'];
  if (typeof b['expected'] === 'string') init.expected = b['expected'];
  if (typeof b['found'] === 'string') init.foundText = b['found'];
  if (typeof b['market_id'] === 'string') init.marketId = b['market_id'];
  const findings = readFindings(b['findings']);
  if (findings.length > 0) init.findings = findings;
  const more = b['more'];
  if (typeof more === 'number' && Number.isSafeInteger(more) && more > 0) init.more = more;
  return new MarketStubError(init);
}

/** UNAUTHORIZED, worded for what the client did: no token sent, or one the stub refused. */
export function unauthorized(call: AdminCall): MarketStubError {
  const reason = call.tokenSent
    ? 'the stub refused the admin token (wrong token): pass the value the stub was started with (--admin-token, MARKET_STUB_ADMIN_TOKEN)'
    : 'the stub needs an admin token (missing token): pass connectMarketStub(url, { adminToken }) with the value of its --admin-token';
  return new MarketStubError({ code: 'UNAUTHORIZED', where: call.where, message: `${call.where}: ${call.request} answered 401: ${reason}` });
}

/** `PUT /__stub/markets: a market …` → `a market …` (the route is the server's `where`). */
function withoutRoute(message: string): string {
  const m = /^[A-Z]+ \/__stub[^\s:]*: /.exec(message);
  return m ? message.slice(m[0].length) : message;
}

function readFindings(value: unknown): ErrorFinding[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((f: unknown) => {
    const r = f as Record<string, unknown> | null;
    if (r === null || typeof r !== 'object') return [];
    const text = (key: string) => (typeof r[key] === 'string' ? r[key] : '');
    return [{ pointer: text('pointer'), expected: text('expected'), found: text('found'), message: text('message') }];
  });
}
