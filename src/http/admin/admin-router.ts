import type Crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MarketStubError } from '../../core/market-stub-error.js';
import { createStubControls, MAX_MARKETS_PER_CALL, MAX_TICKS_PER_CALL, type StubControls } from '../../runtime/stub-controls.js';
import { MAX_ADDED_MARKETS, MAX_EDITABLE, MAX_TICK_WORK } from '../../catalog/market-store.js';
import { MAX_JSON_DEPTH } from '../../core/bounded-json.js';
import { MAX_JOURNAL_READ } from '../../journal/request-journal.js';
import { MAX_DEVIATED_MARKET_IDS, MAX_DEVIATION_SETTINGS } from '../../deviation/deviation-settings.js';
import { packageVersion } from '../../core/package-info.js';
import { jsonReply, type Reply } from '../../runtime/reply.js';
import { writeReply } from '../write-reply.js';
import type { StubRuntime } from '../../runtime/stub-runtime.js';
import { ADMIN_MEDIA_TYPES, foreignOrigin, hostAllowed, mediaType } from './admin-access.js';
import { repeatedSingleton } from './singleton-headers.js';
import { MAX_ADMIN_BODY_BYTES, parseAdminBody, readAdminBody } from './admin-body.js';
import { AdminFailure, adminErrorReply, adminFailure } from './admin-error.js';
import type { AdminAnswer, AdminRoute } from './admin-route.js';
import { BEHAVIOUR_ROUTES } from './behaviour-routes.js';
import { createConsoleHandler } from './console-routes.js';
import { DEVIATION_ROUTES } from './deviation-routes.js';
import { JOURNAL_ROUTES } from './journal-routes.js';
import { MARKET_ROUTES } from './market-routes.js';

/** node:crypto's constant-time comparison, required on the first token check: a stub without an admin token never loads node:crypto (~1.5 ms of start-up). */
const timingSafeEqual = (): typeof Crypto.timingSafeEqual => (createRequire(import.meta.url)('node:crypto') as typeof Crypto).timingSafeEqual;

/** Admin requests being read or waiting for their turn at once; more are answered 503 at once. */
export const MAX_ADMIN_IN_FLIGHT = 8;

/** The admin API's limits, as `GET /__stub` reports them (and the README's limits table lists them). */
export const ADMIN_LIMITS = Object.freeze({
  bodyBytes: MAX_ADMIN_BODY_BYTES,
  jsonDepth: MAX_JSON_DEPTH,
  marketsPerRequest: MAX_MARKETS_PER_CALL,
  marketsAddedAtRunTime: MAX_ADDED_MARKETS,
  editableCatalog: MAX_EDITABLE,
  ticksPerRequest: MAX_TICKS_PER_CALL,
  tickWork: MAX_TICK_WORK,
  journalEntriesPerRead: MAX_JOURNAL_READ,
  deviationSettingsPerRequest: MAX_DEVIATION_SETTINGS,
  deviatedMarketIdsPerRequest: MAX_DEVIATED_MARKET_IDS,
  requestsInFlight: MAX_ADMIN_IN_FLIGHT,
});

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const INDEX_ROUTE: AdminRoute = {
  method: 'GET', path: '/', describe: 'this index: routes and limits',
  run: () => ({ status: 200, body: { name: 'market-stub admin API', version: packageVersion(), routes: ROUTES.map((r) => ({ method: r.method, path: `/__stub${r.path === '/' ? '' : r.path}`, describe: r.describe })), console: { method: 'GET', path: '/__stub/ui', describe: 'the web console: catalog, live journal, deviations and behaviours (docs/console.md)' }, limits: ADMIN_LIMITS } }),
};
const ROUTES: readonly AdminRoute[] = [INDEX_ROUTE, ...MARKET_ROUTES, ...DEVIATION_ROUTES, ...BEHAVIOUR_ROUTES, ...JOURNAL_ROUTES];

/**
 * The admin API under `/__stub` (WireMock's `/__admin` idea), as a request handler for the part of
 * the URL after the prefix. Every call goes through the shared StubControls, so it behaves exactly
 * like the in-process handle; errors are MarketStubErrors named after the route
 * (`PUT /__stub/markets`) in one JSON shape (AdminErrorBody). Stages, in order:
 * 1. origin: `Host` allowed (hostAllowed: DNS rebinding), the token when one is set (RFC 6750
 *    §2.1, compared in constant time), no CORS preflight and no foreign `Origin` (403);
 * 2. route: a table of (method, path template); an unknown path is 404 and a known path with
 *    another method 405 with `Allow`, both `admin_route_not_found`;
 * 3. form: POST, PUT and PATCH need `application/json` (or `application/merge-patch+json`), which
 *    no browser sends cross-site without a preflight (415);
 * 4. body: at most MAX_ADMIN_IN_FLIGHT requests at once (503), each body read with its limits;
 * 5. turn: parsing and handlers run one at a time, each after the event loop has had a turn, so market routes
 *    and /healthz keep answering while the admin API is busy; large reads are written in chunks.
 */
export function createAdminRouter(runtime: StubRuntime, controls: StubControls = createStubControls(runtime)): (req: IncomingMessage, res: ServerResponse) => void {
  const token = runtime.adminToken === undefined ? undefined : Buffer.from(`Bearer ${runtime.adminToken}`);
  let inFlight = 0;
  let lane: Promise<void> = Promise.resolve();
  const takeTurn = <T>(job: () => T): Promise<T> => {
    const turn = lane.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(job);
    lane = turn.then(() => undefined, () => undefined);
    return turn;
  };
  // The web console's files (/__stub/ui): the same Host and Origin refusals, no token (the page holds no data).
  const consoleFiles = createConsoleHandler({ checkOrigin: (req, where) => checkOrigin(req, where, runtime, undefined), toFailure: (error, where) => toFailure(error, where, runtime) });

  return (req, res) => {
    if (consoleFiles(req, res)) return;
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    let where = `${method} /__stub${path === '/' ? '' : path}`;
    let counted = false;
    const fail = (error: unknown) => {
      const failure = toFailure(error, where, runtime);
      // A body may be left unread: never let its bytes be parsed as the next request.
      if (!req.complete) res.setHeader('connection', 'close');
      writeReply(res, adminErrorReply(failure));
    };
    const run = async () => {
      checkOrigin(req, where, runtime, token);
      const found = matchRoute(method === 'HEAD' ? 'GET' : method, path, where);
      where = found.where;
      const route = found.route;
      if (method !== 'DELETE' && STATE_CHANGING.has(method) && !ADMIN_MEDIA_TYPES.includes(mediaType(req.headers['content-type']))) {
        throw adminFailure('OPTION_INVALID', where, `send the request with Content-Type: application/json (found ${JSON.stringify(req.headers['content-type'] ?? 'none')}); the admin API refuses bodies a browser could send from another site.`, { status: 415, option: 'content-type', expected: ADMIN_MEDIA_TYPES.join(' or '), found: req.headers['content-type'] ?? 'none' });
      }
      if (inFlight >= MAX_ADMIN_IN_FLIGHT) {
        throw adminFailure('LIMIT_EXCEEDED', where, `${MAX_ADMIN_IN_FLIGHT} admin requests are already in progress; retry in a moment.`, { status: 503, headers: { 'retry-after': '1' }, option: 'requestsInFlight', expected: `at most ${MAX_ADMIN_IN_FLIGHT} admin requests at once` });
      }
      inFlight += 1;
      counted = true;
      const raw = STATE_CHANGING.has(method) ? await readAdminBody(req, where) : undefined;
      // Two turns: parse, then run; each after the event loop has answered what waits.
      const body = raw === undefined ? undefined : await takeTurn(() => parseAdminBody(raw, where));
      const answer = await takeTurn(() => route.run({ params: found.params, body, query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), where, controls, runtime }));
      writeReply(res, answerReply(answer));
    };
    run().catch(fail).finally(() => {
      if (counted) inFlight -= 1;
    });
  };
}

/** Stage 1: one of each singleton field, Host, token, preflight and Origin. @throws AdminFailure OPTION_INVALID (400), FORBIDDEN (403) or UNAUTHORIZED (401). */
function checkOrigin(req: IncomingMessage, where: string, runtime: StubRuntime, token: Buffer | undefined): void {
  const repeated = repeatedSingleton(req.rawHeaders);
  if (repeated !== undefined) {
    throw adminFailure('OPTION_INVALID', where, `the request has more than one ${repeated} header field; the admin API takes exactly one (RFC 9112 §3.2, RFC 9110 §5.3).`, { option: repeated, expected: `one ${repeated} field line`, found: 'several' });
  }
  const host = req.headers.host;
  if (!hostAllowed(host, runtime.allowedHosts)) {
    throw adminFailure('FORBIDDEN', where, `Host ${JSON.stringify(host)} is not allowed on the admin API (DNS-rebinding defence). Use an IP address or localhost, or allow the name with --allowed-hosts (MARKET_STUB_ALLOWED_HOSTS).`, { option: 'host', expected: 'an IP address, localhost, or a name in allowedHosts', found: host });
  }
  if (token) {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== token.length || !timingSafeEqual()(given, token)) {
      throw adminFailure('UNAUTHORIZED', where, 'the admin API needs Authorization: Bearer <token> (the --admin-token value).', { headers: { 'www-authenticate': 'Bearer realm="market-stub admin"' } });
    }
  }
  if (req.method === 'OPTIONS') {
    throw adminFailure('FORBIDDEN', where, 'the admin API answers no CORS preflight: it is not for pages on other origins.', { option: 'method', expected: 'no OPTIONS (CORS preflight)', found: 'OPTIONS' });
  }
  if (foreignOrigin(req.headers.origin, host)) {
    throw adminFailure('FORBIDDEN', where, `Origin ${JSON.stringify(req.headers.origin)} is not this stub's; the admin API refuses requests from pages on other origins.`, { option: 'origin', expected: 'no Origin, or the stub\'s own', found: req.headers.origin });
  }
}

/** Stage 2: the route for (method, path). @throws AdminFailure ADMIN_ROUTE_NOT_FOUND (404, or 405 with Allow). */
function matchRoute(method: string, path: string, where: string): { route: AdminRoute; params: Record<string, string>; where: string } {
  const segments = path.split('/').filter((s, i) => i > 0 && s !== '');
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const params = matchPath(route.path, segments, where);
    if (!params) continue;
    if (route.method === method) return { route, params, where: `${route.method} /__stub${route.path === '/' ? '' : route.path}` };
    allowed.push(route.method);
  }
  if (allowed.length === 0) {
    throw adminFailure('ADMIN_ROUTE_NOT_FOUND', where, `no admin route ${where}. GET /__stub lists the routes.`, { option: 'path', expected: 'an admin route (GET /__stub lists them)', found: path });
  }
  const allow = [...new Set(allowed.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))].join(', ');
  throw adminFailure('ADMIN_ROUTE_NOT_FOUND', where, `${method} is not an admin route here; ${allow} are.`, { status: 405, headers: { allow }, option: 'method', expected: allow, found: method });
}

/** Path template segments (`{id}` matches one segment, percent-decoded) against the request's. */
function matchPath(template: string, segments: readonly string[], where: string): Record<string, string> | undefined {
  const parts = template.split('/').filter((s) => s !== '');
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    const segment = segments[i] ?? '';
    if (part.startsWith('{')) {
      try {
        params[part.slice(1, -1)] = decodeURIComponent(segment);
      } catch {
        throw adminFailure('OPTION_INVALID', where, `${JSON.stringify(segment)} is not valid percent-encoding (RFC 3986 §2.1).`, { option: part.slice(1, -1), expected: 'a percent-encoded path segment', found: segment });
      }
    } else if (part !== segment) return undefined;
  }
  return params;
}

function answerReply(answer: AdminAnswer): Reply {
  if (answer.chunks) {
    const chunks = answer.chunks;
    return { ...jsonReply(Buffer.alloc(0), answer.status), chunks: (function* () { for (const c of chunks) yield Buffer.from(c); })() };
  }
  return jsonReply(answer.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(answer.body)), answer.status);
}

/** Any error of a stage or a control as an AdminFailure; a bug becomes a logged 500 (its cause always goes to the error log). */
function toFailure(error: unknown, where: string, runtime: StubRuntime): AdminFailure {
  if (error instanceof AdminFailure) return error;
  if (error instanceof MarketStubError) return new AdminFailure(error);
  runtime.reportError(error, where);
  return new AdminFailure(new MarketStubError({ code: 'STUB_UNREACHABLE', where, message: `${where}: the stub failed to answer this request (a bug; its cause is in the stub's error log).` }), 500);
}
