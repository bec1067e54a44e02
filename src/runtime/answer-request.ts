import { parsePrefer, type AppliedBehaviour, type Behaviour, type RuleUse, type TransportFault } from '../behaviour/behaviour.js';
import type { Explanation } from '../journal/explanation.js';
import { MAX_HOLD_MS } from '../floor/limits.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import { utf8 } from '../floor/bytes.js';
import { catalogueIndex } from '../deviation/deviation-catalogue.js';
import type { Deviation, ListDeviation } from '../deviation/deviation-definition.js';
import { preferredDeviation } from '../deviation/deviation-settings.js';
import { deviatedItemReply, deviatedListReply } from './deviated-reply.js';
import { decideRateLimit } from './rate-limit-reply.js';
import { errorReply, marketNotFound, methodNotAllowed } from './error-reply.js';
import { conditional } from './conditional-reply.js';
import { laggingList } from './lagging-list.js';
import { renderFirstPageOnly, renderList } from './market-list.js';
import { entryReply, sharedJsonReply, type Reply } from './reply.js';
import type { ResponseProfile } from './response-profile.js';
import { ADMIN_PREFIX, type StubRuntime } from './stub-runtime.js';
import type { MarketStore } from '../catalog/market-store.js';

/**
 * A request as the core reads it, over web-standard values: what every adapter builds from its
 * runtime's request (Node's IncomingMessage, a fetch Request in MSW and the Fetch handler).
 */
export interface StubRequest {
  /** Upper-case method (`GET`). */
  method: string;
  /** The request target as sent, below the mount point: path and query (`/markets?limit=5`), never a full URL. */
  target: string;
  /** Lower-case header names; a repeated unknown field joined with `, ` (RFC 9110 §5.3). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * The header lines as received, name and value alternating (node:http's `rawHeaders`), when the
   * runtime keeps them: the admin API refuses a repeated Host, Authorization, Origin, Content-Type
   * or Content-Length from them. A fetch `Headers` object has already joined repeats into one value.
   */
  rawHeaders?: readonly string[];
  /** The body: all its bytes, or its chunks as they arrive (read only by admin routes that take one). */
  body?: Uint8Array | AsyncIterable<Uint8Array>;
  /** `https` when the request came over TLS (the OpenAPI document's server URL). @default 'http' */
  scheme?: 'http' | 'https';
  /** The path the stub is mounted under (`/stub` in `app.use('/stub', createApp(...))`; `''` at the root). @default '' */
  mount?: string;
}

/**
 * What the core decided: the Reply and how to deliver it. `delayMs` is waited before anything is
 * sent; `fault` (a transport fault) and `dribbleMs` tell the adapter how to break or pace the
 * delivery; `labels` name what applied, for the journal.
 */
export interface StubAnswer {
  reply: Reply;
  delayMs: number;
  fault: TransportFault | undefined;
  dribbleMs: number;
  labels: readonly string[];
  /** The behaviour rules the request matched, with the applications left (absent when none). */
  rules?: readonly RuleUse[];
  /** Why this answer (docs/explain.md), when it is explained: what the stub core set from the above. */
  explain?: Explanation;
  /** A CORS preflight answer (sent as it is: 204, no body and no Content-Length, RFC 9110 §8.6). */
  preflight?: true;
  /** An answer of the admin API (`/__stub`): never journaled. */
  admin?: true;
  /** The stub instant the answer was computed at, epoch ms: set by the core on every answer (its `Date` header says the same to the second). */
  instantMs?: number;
}

/** A request target split once: path, query (no `?`) and whether it is the admin API's. */
export interface SplitTarget {
  path: string;
  query: string;
  admin: boolean;
}

/** The routes the core answers; `other` is left to the adapter (OpenAPI, unknown paths). */
export type CoreRoute = { kind: 'list' } | { kind: 'item'; marketId: string } | { kind: 'bad' } | { kind: 'health' } | { kind: 'other' };

/**
 * CORS headers on every answer of a stub with CORS on (Fetch standard §3.2.3). Any origin may read
 * (`Access-Control-Allow-Origin: *`, never with credentials), and every response header is exposed
 * with the wildcard (`Access-Control-Expose-Headers: *`, which the Fetch standard honours for a
 * request without credentials: the only kind `*` origins admit), so a browser app reads what a
 * server-side client reads: paging (`Link`, `X-Total-Count`), limits (`Retry-After`, the RateLimit
 * fields), versioning (`Deprecation`, `Sunset`), the stub's `Date`, and whatever a deviation adds.
 * A wildcard needs no list to keep up with the headers (test/http/cors-expose.test.ts; a page in
 * Chromium reads them from another origin, test/browser/browser-reaches-stub.test.ts).
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-expose-headers': '*',
});
const { 'access-control-allow-origin': ALLOW_ORIGIN = '*', 'access-control-expose-headers': EXPOSE_HEADERS = '' } = CORS_HEADERS;

const HEALTH_BODY = utf8('{"status":"ok"}');
const ALLOWED = ['GET', 'HEAD'] as const;
/** The labels of an answer nothing applied to: one shared, frozen empty list (adapters use it too). */
export const NO_LABELS: readonly string[] = Object.freeze([]);
/** What a request's Prefer header asks for: a behaviour and a deviation, each optional. */
interface Preferences {
  behaviour: Behaviour | undefined;
  deviation: Deviation | undefined;
}

const NO_PREFERENCES: Preferences = Object.freeze({ behaviour: undefined, deviation: undefined });
const PREFER_HELP = 'Supported Prefer preferences: code, delay, jitter, retry-after, error-rate, fault, dribble, deviation.';

/** Splits a request target into path and query, and tells whether it is under the admin prefix. */
export function splitTarget(target: string): SplitTarget {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const admin = path.startsWith(ADMIN_PREFIX) && (path.length === ADMIN_PREFIX.length || path[ADMIN_PREFIX.length] === '/');
  return { path, query: q === -1 ? '' : target.slice(q + 1), admin };
}

/**
 * The core's pipeline for one non-admin request: preflight → route → decide (Prefer, behaviour
 * rules) → render (catalog bytes, deviations, profile) → conditional (validators, 304:
 * conditional-reply.ts) → Reply. Returns undefined for a route the core does not own (`other`),
 * which the adapter answers (OpenAPI, 404). Never throws for a bad request: a bad Prefer or
 * market id is a 400 reply.
 */
export function answerRequest(runtime: StubRuntime, request: StubRequest, split: SplitTarget = splitTarget(request.target), t: number = runtime.clock.now()): StubAnswer | undefined {
  if (runtime.cors && request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) return preflightAnswer(request);
  const route = routeOf(split.path, request.method);
  if (route.kind === 'other') return undefined;
  if (route.kind === 'health') return plain(runtime, sharedJsonReply(HEALTH_BODY));
  if (route.kind === 'bad') return plain(runtime, errorReply(runtime.profile.errors, 400, 'bad_request', `The market_id in ${split.path} is not valid percent-encoding (RFC 3986 §2.1).`, { path: split.path }));
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(runtime, methodNotAllowed(runtime.profile.errors, request.method, split.path, runtime.cors ? [...ALLOWED, 'OPTIONS'] : ALLOWED));
  return decideAndRender(runtime, route, request, split, t);
}

/** Stage route: which of the core's routes a path is (`/healthz` for GET and HEAD only). */
export function routeOf(path: string, method: string): CoreRoute {
  if (path === '/healthz') return method === 'GET' || method === 'HEAD' ? { kind: 'health' } : { kind: 'other' };
  return matchMarketRoute(path) ?? { kind: 'other' };
}

/** `/markets`, `/markets/` → list; `/markets/{id}` (one segment, percent-decoded) → item; else undefined. */
export function matchMarketRoute(path: string): { kind: 'list' } | { kind: 'item'; marketId: string } | { kind: 'bad' } | undefined {
  if (!path.startsWith('/markets')) return undefined;
  const rest = path.slice('/markets'.length);
  if (rest === '' || rest === '/') return { kind: 'list' };
  if (!rest.startsWith('/') || rest.indexOf('/', 1) !== -1) return undefined;
  const segment = rest.slice(1);
  // Without a `%` there is nothing to decode: the segment is the id (no decode on the hot path).
  if (!segment.includes('%')) return { kind: 'item', marketId: segment };
  try {
    return { kind: 'item', marketId: decodeURIComponent(segment) };
  } catch {
    return { kind: 'bad' };
  }
}

/** Stages decide, render and conditional for a market route. */
function decideAndRender(runtime: StubRuntime, route: { kind: 'list' } | { kind: 'item'; marketId: string }, request: StubRequest, split: SplitTarget, t: number): StubAnswer {
  const preferences = readPrefer(request.headers['prefer']);
  // The shared answer of a request without Prefer first: MarketStubError's instanceof is a call (its brand check).
  if (preferences !== NO_PREFERENCES && preferences instanceof MarketStubError) return plain(runtime, conditional(request.headers, errorReply(runtime.profile.errors, 400, 'bad_request', `${preferences.message}. ${PREFER_HELP}`), undefined));
  const paced = decideRateLimit(runtime.store.listDeviations(), runtime.profile);
  if (paced?.limited) return plain(runtime, conditional(request.headers, paced.limited, undefined));
  const applied = runtime.behaviours.decide(route.kind === 'item' ? { route: 'item', method: request.method, marketId: route.marketId } : { route: 'list', method: request.method }, preferences.behaviour);
  const rendered: Rendered = applied.status !== undefined && applied.status >= 400
    ? { reply: injectedError(runtime.profile, applied), delayMs: 0 }
    : renderMarketRoute(route, split.query, request.target, { store: runtime.store, profile: runtime.profile, preferred: preferences.deviation, t });
  const reply = rendered.reply;
  if (paced) Object.assign(reply.headers, paced.headers);
  // A 2xx/3xx override keeps the normal body (none for 204/205/304, see the adapters); errors stay errors.
  if (applied.status !== undefined && applied.status < 400 && reply.status === 200) reply.status = applied.status;
  const labels = rendered.labels === undefined ? applied.labels : [...applied.labels, ...rendered.labels];
  const delayMs = rendered.delayMs === 0 ? applied.delayMs : Math.min(MAX_HOLD_MS, applied.delayMs + rendered.delayMs);
  const answer: StubAnswer = { reply: withCors(runtime, conditional(request.headers, reply, applied.fault, runtime.store.lastModified(t))), delayMs, fault: applied.fault, dribbleMs: applied.dribbleMs, labels };
  if (applied.rules !== undefined) answer.rules = applied.rules;
  return answer;
}

/** Stage decide, first half: the Prefer header (RFC 7240) as a behaviour and a deviation, or the error it holds. */
function readPrefer(header: string | string[] | undefined): Preferences | MarketStubError {
  // Most requests carry no Prefer: one shared answer, no parse, no allocation.
  if (header === undefined) return NO_PREFERENCES;
  // Node joins repeated unknown header fields into one string (RFC 9110 §5.3); fetch Headers do too.
  const text = Array.isArray(header) ? header.join(', ') : header;
  try {
    return { behaviour: parsePrefer(text), deviation: text === undefined ? undefined : preferredDeviation(text) };
  } catch (error) {
    if (error instanceof MarketStubError) return error;
    throw error;
  }
}

/** A rendered market answer, before behaviours deliver it: the reply, what deviations it carries (journal labels) and the delay they add, ms. */
interface Rendered {
  reply: Reply;
  labels?: readonly string[];
  delayMs: number;
}

/**
 * Stage render: the answer of a market route from the catalog in force, with the deviations in
 * force. Nothing configured costs two checks: the list's deviations (an empty array) and the
 * served entry's `deviated` field (absent); a `Prefer: deviation=` reads a view with that
 * deviation on every market.
 */
function renderMarketRoute(route: { kind: 'list' } | { kind: 'item'; marketId: string }, query: string, target: string, on: { store: MarketStore; profile: ResponseProfile; preferred: Deviation | undefined; t: number }): Rendered {
  const { store, profile, preferred } = on;
  const catalog = preferred?.scope === 'market' ? store.preferredView(preferred) : store.at(on.t);
  if (route.kind === 'list') {
    const edits = preferred?.scope === 'list' ? withPreferred(store.listDeviations(), preferred) : store.listDeviations();
    const firstPage = edits.length === 0 ? undefined : edits.find((d) => d.reply.firstPage !== undefined)?.reply.firstPage;
    let reply = firstPage === undefined ? renderList(catalog, new URLSearchParams(query), profile) : renderFirstPageOnly(catalog, firstPage, profile);
    if (edits.length > 0 && edits.some((d) => d.reply.lagsItems === true)) reply = laggingList(store, target, reply, on.t);
    let labels: string[] | undefined;
    if (edits.length > 0) {
      reply = deviatedListReply(reply, edits, profile, target);
      labels = edits.map((d) => `deviation=${d.name}`);
    }
    if (preferred?.scope === 'market') labels = [...(labels ?? []), `deviation=${preferred.name} (Prefer)`];
    return labels === undefined ? { reply, delayMs: 0 } : { reply, labels, delayMs: 0 };
  }
  const entry = catalog.entry(route.marketId);
  const deviated = entry?.deviated;
  if (entry === undefined) return { reply: marketNotFound(profile.errors, route.marketId), delayMs: 0 };
  if (deviated === undefined) return { reply: entryReply(entry), delayMs: 0 };
  return { reply: deviatedItemReply(entry, profile), labels: deviated.labels, delayMs: deviated.delayMs ?? 0 };
}

/** The list deviations in force with one more asked for by `Prefer: deviation=`, each once, in catalogue order. */
function withPreferred(inForce: readonly ListDeviation[], preferred: ListDeviation): readonly ListDeviation[] {
  return inForce.includes(preferred) ? inForce : [...inForce, preferred].sort((a, b) => catalogueIndex(a) - catalogueIndex(b));
}

/** The error a status behaviour (≥ 400) answers with, in the profile's shape; 429/503 carry Retry-After. */
function injectedError(profile: ResponseProfile, applied: AppliedBehaviour): Reply {
  const status = applied.status ?? 500;
  const headers: Record<string, string> = {};
  const retryAfter = applied.retryAfter ?? (status === 429 ? 1 : undefined);
  if (retryAfter !== undefined && (status === 429 || status === 503)) headers['retry-after'] = String(retryAfter);
  const code = status === 429 ? 'rate_limited' : 'injected_fault';
  const message = status === 429 ? `Too many requests; retry after ${retryAfter ?? 1} s.` : `Injected failure: status ${status} (market-stub behaviour ${applied.labels.join(', ')}).`;
  return errorReply(profile.errors, status, code, message, {}, headers);
}

/**
 * The request headers a preflight allows when it was not asked for any: those a browser app sends
 * the stub, `Prefer` for behaviours and deviations and the validators of a conditional GET
 * (RFC 9110 §13.1.2, §13.1.3), which are not CORS-safelisted (Fetch standard §2.2.2).
 */
const PREFLIGHT_ALLOWED_HEADERS = 'Prefer, Authorization, Content-Type, If-None-Match, If-Modified-Since';

/** A CORS preflight (Fetch standard §3.2.2): answered for every path, before routing; a 204 carries no Content-Length (RFC 9110 §8.6). */
function preflightAnswer(request: StubRequest): StubAnswer {
  const asked = request.headers['access-control-request-headers'];
  const reply: Reply = {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': asked === undefined ? PREFLIGHT_ALLOWED_HEADERS : String(asked),
      'access-control-max-age': '600',
    },
    body: new Uint8Array(0),
  };
  return { reply, delayMs: 0, fault: undefined, dribbleMs: 0, labels: NO_LABELS, preflight: true };
}

/** An answer with no behaviour applied (health, 400, 405). */
function plain(runtime: StubRuntime, reply: Reply): StubAnswer {
  return { reply: withCors(runtime, reply), delayMs: 0, fault: undefined, dribbleMs: 0, labels: NO_LABELS };
}

/** Every Reply is built fresh per request, so its headers take the CORS headers in place. */
function withCors(runtime: StubRuntime, reply: Reply): Reply {
  if (runtime.cors) addCors(reply.headers);
  return reply;
}

/** Adds CORS_HEADERS to a reply's headers in place (two assignments: Object.assign from the frozen record cost more on the hot path). */
export function addCors(headers: Record<string, string>): void {
  headers['access-control-allow-origin'] = ALLOW_ORIGIN;
  headers['access-control-expose-headers'] = EXPOSE_HEADERS;
}
