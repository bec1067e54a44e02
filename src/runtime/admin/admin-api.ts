import { utf8 } from '../../floor/bytes.js';
import { MAX_ADDED_MARKETS, MAX_ADMIN_BODY_BYTES, MAX_ADMIN_IN_FLIGHT, MAX_DEVIATED_MARKET_IDS, MAX_DEVIATION_SETTINGS, MAX_EDITABLE, MAX_JOURNAL_READ, MAX_JSON_DEPTH, MAX_MARKETS_PER_CALL, MAX_TICKS_PER_CALL } from '../../floor/limits.js';
import { MarketStubError } from '../../floor/market-stub-error.js';
import { createStubControls, type StubControls } from '../stub-controls.js';
import { packageVersion } from '../../floor/package-info.js';
import type { StubRequest } from '../answer-request.js';
import { jsonReply, type Reply } from '../reply.js';
import { ADMIN_PREFIX, type StubRuntime } from '../stub-runtime.js';
import { ADMIN_MEDIA_TYPES, foreignOrigin, hostAllowed, mediaType } from './admin-access.js';
import { repeatedSingleton } from './singleton-headers.js';
import { parseAdminBody, readAdminBody } from './admin-body.js';
import { AdminFailure, adminErrorReply, adminFailure } from './admin-error.js';
import type { AdminAnswer, AdminRoute } from './admin-route.js';
import { CONTROLS } from '../control-table.js';
import { CONSOLE_PATH, createConsoleFiles, isConsolePath, type ConsoleAssetSource } from './console-routes.js';
import { nextTurn } from '../../floor/next-turn.js';
import { splitTarget } from '../answer-request.js';
import type { AdminDispatch, AdminEndpoint, AdminEndpointRequest } from './admin-endpoint.js';


/** The admin API's limits, as `GET /__stub` reports them (and the README's limits table lists them). */
export const ADMIN_LIMITS = Object.freeze({
  bodyBytes: MAX_ADMIN_BODY_BYTES,
  jsonDepth: MAX_JSON_DEPTH,
  marketsPerRequest: MAX_MARKETS_PER_CALL,
  marketsAddedAtRunTime: MAX_ADDED_MARKETS,
  editableCatalog: MAX_EDITABLE,
  ticksPerRequest: MAX_TICKS_PER_CALL,
  journalEntriesPerRead: MAX_JOURNAL_READ,
  deviationSettingsPerRequest: MAX_DEVIATION_SETTINGS,
  deviatedMarketIdsPerRequest: MAX_DEVIATED_MARKET_IDS,
  requestsInFlight: MAX_ADMIN_IN_FLIGHT,
});

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const INDEX_ROUTE: AdminRoute = {
  method: 'GET', path: '/', describe: 'this index: routes, limits, and the deviations in force with how many markets each reaches',
  run: ({ runtime }) => ({ status: 200, body: { name: 'market-stub admin API', version: packageVersion(), deviations: runtime.store.deviationReach().map(({ marketIds: _ids, ...counts }) => counts), routes: ROUTES.map((r) => ({ method: r.method, path: `/__stub${r.path === '/' ? '' : r.path}`, describe: r.describe })), console: { method: 'GET', path: '/__stub/ui', describe: 'the web console: catalog, live journal, deviations and behaviours (docs/console.md)' }, limits: ADMIN_LIMITS } }),
};
/** The index, then one route per row of the control table (control-table.ts), in its order. */
const ROUTES: readonly AdminRoute[] = [INDEX_ROUTE, ...CONTROLS.map((row) => ({ method: row.method, path: row.path, describe: row.doc, ...(row.body ? { body: true } : {}), run: row.serve }))];

/**
 * The admin API under `/__stub` (WireMock's `/__admin` idea), over web-standard values: a function
 * answering one request whose path is under the prefix. Every call goes through the shared
 * StubControls, so it behaves exactly like the in-process handle; errors are MarketStubErrors named
 * after the route (`PUT /__stub/markets`) in one JSON shape (AdminErrorBody). Stages, in order:
 * 1. origin: one of each singleton header field, `Host` allowed (hostAllowed: DNS rebinding), the
 *    token when one is set (RFC 6750 §2.1, compared in constant time), no CORS preflight and no
 *    foreign `Origin` (403); the console's files (`/__stub/ui`) take the same checks but no token;
 * 2. route: a table of (method, path template); an unknown path is 404 and a known path with
 *    another method 405 with `Allow`, both `admin_route_not_found`;
 * 3. form: POST, PUT and PATCH need `application/json` (or `application/merge-patch+json`), which
 *    no browser sends cross-site without a preflight (415);
 * 4. body: at most MAX_ADMIN_IN_FLIGHT requests at once (503), each body read with its limits;
 * 5. turn: parsing and handlers run one at a time, each after a timer turn of the event loop, so
 *    market routes and /healthz keep answering while the admin API is busy; large reads are chunks.
 * `endpoint` (admin-endpoint.ts): one more path answered by the edges' code after stage 1 and its
 * body's read (stage 4), with no turn of its own (what it asks of the admin API takes turns).
 * The promise never rejects: every failure is an error Reply.
 */
export function createAdminApi(runtime: StubRuntime, options: { controls?: StubControls; consoleAssets?: ConsoleAssetSource; endpoint?: AdminEndpoint } = {}): (request: StubRequest, path: string, query: string) => Promise<Reply> {
  const controls = options.controls ?? createStubControls(runtime);
  const token = runtime.adminToken === undefined ? undefined : utf8(`Bearer ${runtime.adminToken}`);
  let inFlight = 0;
  let lane: Promise<void> = Promise.resolve();
  const takeTurn = <T>(job: () => T): Promise<T> => {
    const turn = lane.then(nextTurn).then(job);
    lane = turn.then(() => undefined, () => undefined);
    return turn;
  };
  const consoleFiles = createConsoleFiles(options.consoleAssets);
  const endpoint = options.endpoint;
  const dispatch: AdminDispatch = (request) => {
    const split = splitTarget(request.target);
    return answerAdmin(request, split.path, split.query);
  };
  const answerAdmin = async (request: StubRequest, fullPath: string, queryText: string): Promise<Reply> => {
    const method = request.method;
    const path = fullPath.slice(ADMIN_PREFIX.length) || '/';
    let where = `${method} ${ADMIN_PREFIX}${path === '/' ? '' : path}`;
    let counted = false;
    try {
      if (isConsolePath(path)) {
        checkOrigin(request, where, runtime, undefined, path === CONSOLE_PATH || path === `${CONSOLE_PATH}/`);
        return await consoleFiles(method, path, request.headers, where);
      }
      checkOrigin(request, where, runtime, token);
      if (endpoint !== undefined && path === endpoint.path) {
        // Its media type is the endpoint's to check (the MCP transport answers a JSON-RPC error).
        checkRoom(where, inFlight);
        inFlight += 1;
        counted = true;
        const read = await endpointRequest(request, where, endpoint.bodyBytes);
        inFlight -= 1;
        counted = false;
        return withAdminHeaders(await endpoint.answer(read, dispatch));
      }
      const found = matchRoute(method === 'HEAD' ? 'GET' : method, path, where);
      where = found.where;
      checkForm(request, where, inFlight);
      inFlight += 1;
      counted = true;
      const raw = STATE_CHANGING.has(method) ? await readAdminBody(request, where) : undefined;
      // Two turns: parse, then run; each after the event loop has answered what waits.
      const body = raw === undefined ? undefined : await takeTurn(() => parseAdminBody(raw, where));
      const answer = await takeTurn(() => found.route.run({ params: found.params, body, query: new URLSearchParams(queryText), where, controls, runtime }));
      if (found.route === INDEX_ROUTE && endpoint !== undefined) answer.body = { ...(answer.body as object), endpoint: { method: 'POST', path: `${ADMIN_PREFIX}${endpoint.path}`, describe: endpoint.describe } };
      return withAdminHeaders(answerReply(answer));
    } catch (error) {
      return withAdminHeaders(adminErrorReply(toFailure(error, where, runtime)));
    } finally {
      if (counted) inFlight -= 1;
    }
  };
  return answerAdmin;
}

/** Credentials the admin API has checked: never handed on to an endpoint. */
const CHECKED_CREDENTIALS = new Set(['authorization', 'cookie']);

/**
 * An endpoint's request: its headers one value each, less the credentials (the token was checked
 * in stage 1), and a POST's body read within `limit` (readAdminBody). @throws AdminFailure as readAdminBody.
 */
async function endpointRequest(request: StubRequest, where: string, limit: number): Promise<AdminEndpointRequest> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    const one = header(value);
    if (one !== undefined && !CHECKED_CREDENTIALS.has(name)) headers[name] = one;
  }
  const body = request.method === 'POST' ? await readAdminBody(request, where, limit) : undefined;
  return { method: request.method, headers, body };
}

/** Stages 3 and 4 before the body is read: the media type of a state-changing request, and room for one more. @throws AdminFailure 415 or 503. */
function checkForm(request: StubRequest, where: string, inFlight: number): void {
  const method = request.method;
  const type = header(request.headers['content-type']);
  if (method !== 'DELETE' && STATE_CHANGING.has(method) && !ADMIN_MEDIA_TYPES.includes(mediaType(type))) {
    throw adminFailure('OPTION_INVALID', where, `send the request with Content-Type: application/json (found ${JSON.stringify(type ?? 'none')}); the admin API refuses bodies a browser could send from another site.`, { status: 415, option: 'content-type', expected: ADMIN_MEDIA_TYPES.join(' or '), found: type ?? 'none' });
  }
  checkRoom(where, inFlight);
}

/** Stage 4: room for one more request in flight. @throws AdminFailure LIMIT_EXCEEDED (503, Retry-After). */
function checkRoom(where: string, inFlight: number): void {
  if (inFlight >= MAX_ADMIN_IN_FLIGHT) {
    throw adminFailure('LIMIT_EXCEEDED', where, `${MAX_ADMIN_IN_FLIGHT} admin requests are already in progress; retry in a moment.`, { status: 503, headers: { 'retry-after': '1' }, option: 'requestsInFlight', expected: `at most ${MAX_ADMIN_IN_FLIGHT} admin requests at once` });
  }
}

/**
 * Headers of every admin JSON answer (the console's files carry their own, console-routes.ts):
 * no MIME sniffing of the JSON as script or style (Fetch standard §3.7 `X-Content-Type-Options`),
 * and no other origin may embed it as a no-cors resource (Fetch standard §3.8
 * `Cross-Origin-Resource-Policy`).
 */
export const ADMIN_JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
});

function withAdminHeaders(reply: Reply): Reply {
  Object.assign(reply.headers, ADMIN_JSON_HEADERS);
  return reply;
}

/**
 * `Sec-Fetch-Site` values the admin API answers (Fetch Metadata, W3C): `same-origin` (the console's
 * own calls) and `none` (typed in the address bar, a bookmark); a request without the field (curl,
 * the remote client, Node's fetch, older browsers) is answered too. `same-site` (another port or
 * subdomain of the same site) and `cross-site` are refused: the admin API is for the stub's own origin.
 */
export const ADMIN_FETCH_SITES: readonly string[] = ['same-origin', 'none'];

/**
 * Stage 1, the browser's word on where the request comes from: a `Sec-Fetch-Site` other than
 * ADMIN_FETCH_SITES is refused before any work, no-cors loads (`<script src>`, `<img>`) included,
 * which send no Origin. `navigable`: the console's page, which another site may link to (a
 * top-level navigation, `Sec-Fetch-Mode: navigate` and `Sec-Fetch-Dest: document`).
 * @throws AdminFailure FORBIDDEN (403).
 */
function checkFetchSite(request: StubRequest, where: string, navigable: boolean): void {
  const site = header(request.headers['sec-fetch-site']);
  if (site === undefined || ADMIN_FETCH_SITES.includes(site.trim().toLowerCase())) return;
  if (navigable && header(request.headers['sec-fetch-mode']) === 'navigate' && header(request.headers['sec-fetch-dest']) === 'document') return;
  throw adminFailure('FORBIDDEN', where, `Sec-Fetch-Site ${JSON.stringify(site)}: the admin API answers requests from the stub's own origin only (a page of another site or port cannot read or change it). Call it from the console, a script or the remote client.`, { option: 'sec-fetch-site', expected: `no Sec-Fetch-Site, or ${ADMIN_FETCH_SITES.join(' or ')}`, found: site });
}

/** Stage 1: one of each singleton field, Host, Sec-Fetch-Site, token, preflight and Origin. @throws AdminFailure OPTION_INVALID (400), FORBIDDEN (403) or UNAUTHORIZED (401). */
/**
 * An Authorization value with its scheme spelled `Bearer`: the scheme is case-insensitive (RFC 9110
 * §11.1: `bearer`, `BEARER` name the same scheme; RFC 6750 §2.1 `1*SP` before the credentials), the
 * credentials are compared as sent. Any other value is returned as it is (it will not match).
 */
function bearerCredentials(value: string | undefined): string {
  const m = /^bearer +(.*)$/is.exec(value ?? '');
  return m ? `Bearer ${m[1] ?? ''}` : value ?? '';
}

function checkOrigin(request: StubRequest, where: string, runtime: StubRuntime, token: Uint8Array | undefined, navigable = false): void {
  const repeated = repeatedSingleton(request.rawHeaders ?? []);
  if (repeated !== undefined) {
    throw adminFailure('OPTION_INVALID', where, `the request has more than one ${repeated} header field; the admin API takes exactly one (RFC 9112 §3.2, RFC 9110 §5.3).`, { option: repeated, expected: `one ${repeated} field line`, found: 'several' });
  }
  const host = header(request.headers['host']);
  if (!hostAllowed(host, runtime.allowedHosts)) {
    throw adminFailure('FORBIDDEN', where, `Host ${JSON.stringify(host)} is not allowed on the admin API (DNS-rebinding defence). Use an IP address or localhost, or allow the name with --allowed-hosts (MARKET_STUB_ALLOWED_HOSTS).`, { option: 'host', expected: 'an IP address, localhost, or a name in allowedHosts', found: host });
  }
  checkFetchSite(request, where, navigable);
  if (token && !sameBytes(utf8(bearerCredentials(header(request.headers['authorization']))), token)) {
    throw adminFailure('UNAUTHORIZED', where, 'the admin API needs Authorization: Bearer <token> (the --admin-token value).', { headers: { 'www-authenticate': 'Bearer realm="market-stub admin"' } });
  }
  if (request.method === 'OPTIONS') {
    throw adminFailure('FORBIDDEN', where, 'the admin API answers no CORS preflight: it is not for pages on other origins.', { option: 'method', expected: 'no OPTIONS (CORS preflight)', found: 'OPTIONS' });
  }
  const origin = header(request.headers['origin']);
  if (foreignOrigin(origin, host)) {
    throw adminFailure('FORBIDDEN', where, `Origin ${JSON.stringify(origin)} is not this stub's; the admin API refuses requests from pages on other origins.`, { option: 'origin', expected: 'no Origin, or the stub\'s own', found: origin });
  }
}

/**
 * Whether two byte strings are equal, in time that depends on their length only (the token check:
 * no early exit at the first differing byte, so the time taken tells nothing of where it differs).
 */
export function sameBytes(given: Uint8Array, expected: Uint8Array): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= (given[i] as number) ^ (expected[i] as number);
  return difference === 0;
}

/** A header's one value (node:http gives arrays only for set-cookie; a fetch Headers never). */
function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
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

/** An admin handler's answer as a Reply: its JSON value serialised, or its chunks encoded one by one. */
function answerReply(answer: AdminAnswer): Reply {
  if (answer.chunks) {
    const chunks = answer.chunks;
    return { ...jsonReply(new Uint8Array(0), answer.status), chunks: (function* () { for (const c of chunks) yield utf8(c); })() };
  }
  return jsonReply(answer.body === undefined ? new Uint8Array(0) : utf8(JSON.stringify(answer.body)), answer.status);
}

/** Any error of a stage or a control as an AdminFailure; a bug becomes a logged 500 (its cause always goes to the error log). */
function toFailure(error: unknown, where: string, runtime: StubRuntime): AdminFailure {
  if (error instanceof AdminFailure) return error;
  if (error instanceof MarketStubError) return new AdminFailure(error);
  runtime.reportError(error, where);
  return new AdminFailure(new MarketStubError({ code: 'STUB_UNREACHABLE', where, message: `${where}: the stub failed to answer this request (a bug; its cause is in the stub's error log).` }), 500);
}
