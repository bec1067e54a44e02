import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MarketCatalog } from '../catalog/market-catalog.js';
import type { StubLogger } from '../core/stub-logger.js';
import { createMarketStore, type GlobalDomainFault, type MarketStore } from '../catalog/market-store.js';
import { createBehaviourEngine, MAX_HOLD_MS, parsePrefer, type AppliedBehaviour, type Behaviour, type BehaviourEngine, type BehaviourRuleInput } from '../behaviour/behaviour.js';
import { MarketStubError } from '../core/market-stub-error.js';
import { catalogueIndex } from '../deviation/deviation-catalogue.js';
import type { Deviation, ListDeviation } from '../deviation/deviation-definition.js';
import { planDeviations, preferredDeviation, type DeviationSetting } from '../deviation/deviation-settings.js';
import { deviatedItemReply, deviatedListReply } from './deviated-reply.js';
import { createRequestJournal, DEFAULT_JOURNAL_BYTES, type RequestJournal } from '../journal/request-journal.js';
import { secretNames } from '../core/secret-names.js';
import { errorReply, marketNotFound, methodNotAllowed } from './error-reply.js';
import { renderList } from './market-list.js';
import { jsonReply, writeReply, writeReplyHead, type Reply } from './reply.js';
import { resolveProfile, type ResponseProfile } from './response-profile.js';

/** Everything a stub runtime is built from; only `catalog` is required. */
export interface RuntimeOptions {
  catalog: MarketCatalog;
  /** Seeds tick steps, jitter, error rates and global domain-fault selection. @default 1 */
  seed?: number;
  profile?: Partial<ResponseProfile>;
  /** Behaviour for every market request (CLI/env `--delay`, `--fault`…). */
  behaviour?: Behaviour;
  /** Start-up rules per route or market (CLI `--behaviours FILE`). */
  rules?: readonly BehaviourRuleInput[];
  /**
   * Deviations from the contract to serve (src/deviation, the README's deviation table): each to
   * every market, a seeded share (`rate`), or named markets (`marketIds`); list deviations to the list.
   */
  deviations?: readonly DeviationSetting[];
  /** @deprecated Use `deviations`: `[{ name: 'listed-but-404', rate: 0.1 }]` for `{ fault: 'missing', rate: 0.1 }`. */
  globalFaults?: readonly GlobalDomainFault[];
  /** Ring-buffer size of the request journal, 0–100,000 entries. @default 1000 */
  journalSize?: number;
  /** Bytes the journal holds at most (entries dropped oldest first past it), 1 KiB–1 GiB. @default 33554432 (32 MiB) */
  journalBytes?: number;
  /** `redacted` (default): Authorization, Proxy-Authorization and Cookie values are journaled as `[redacted]`; `full` keeps them. */
  journalHeaders?: 'redacted' | 'full';
  /** Header names whose values the journal redacts besides the defaults (X-Api-Key, Cookie…: core/secret-names.ts). */
  redactHeaders?: readonly string[];
  /** Query parameter names whose values the journal and the request log redact besides the defaults (token, api_key, signature…). */
  redactQuery?: readonly string[];
  /** Access-Control-Allow-Origin: * and preflight answers. @default true */
  cors?: boolean;
  /** Serve the admin API under /__stub. @default true */
  admin?: boolean;
  /** When set, admin requests need `Authorization: Bearer <token>`. */
  adminToken?: string;
  /**
   * Host names the admin API accepts besides IP addresses, `localhost` and `*.localhost` (DNS-rebinding
   * defence): exact names (`market-stub`), `.domain` for a domain and its subdomains, or `*` for any.
   */
  allowedHosts?: readonly string[];
  /** Request log (one line per request; a pino logger fits); none when omitted. */
  logger?: StubLogger;
  /** Where the cause of every 500 (one line with the stack) and start-up warnings go, also when there is no request log. @default console.error (stderr) */
  errorLog?: (line: string) => void;
}

/** The live state of one stub: catalog store, profile, behaviours, journal and switches. */
export interface StubRuntime {
  readonly store: MarketStore;
  readonly behaviours: BehaviourEngine;
  readonly journal: RequestJournal;
  readonly profile: ResponseProfile;
  readonly cors: boolean;
  readonly admin: boolean;
  readonly adminToken: string | undefined;
  readonly allowedHosts: readonly string[];
  readonly logger: StubLogger | undefined;
  /** Logs the cause of a 500 (`where`: the request) to the error log, and to the request log when there is one. Never throws. */
  reportError(error: unknown, where: string): void;
  /** Writes a warning line to the error log (and the request log when there is one). Never throws. */
  warn(message: string): void;
  /**
   * Handles a raw Node request if it is one of the two market routes, `GET /healthz` or a CORS preflight, and
   * journals/logs every non-admin request once. Returns false to let Express handle the rest.
   * Used by both the Express app and the server's fast path, so both answer identically.
   * `req` and `res` are Node's IncomingMessage and ServerResponse, typed `unknown` here so the
   * published declarations need no @types/node.
   */
  handle(req: unknown, res: unknown): boolean;
}

/** The reserved admin prefix; requests under it are never journaled. */
export const ADMIN_PREFIX = '/__stub';

const HEALTH_BODY = Buffer.from('{"status":"ok"}');
const OBSERVED = Symbol('market-stub.observed');
const APPLIED = Symbol('market-stub.behaviour');
const ALLOWED = ['GET', 'HEAD'] as const;
/** The journal's `behaviour` of a request none applied to: one shared array, not one per request. */
const NO_LABELS: string[] = Object.freeze([]) as unknown as string[];
const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Link, Retry-After, X-Total-Count',
});

type Observed = IncomingMessage & { [OBSERVED]?: true };
type WithBehaviour = ServerResponse & { [APPLIED]?: string[] };

/**
 * Builds a runtime (its options already checked by checkRuntimeOptions or checkStubOptions);
 * `where` names the caller in errors.
 * @throws RangeError for a bad profile or journal bound; BehaviourError for a bad behaviour or rule;
 *   MarketStubError for bad deviations (MARKET_NOT_FOUND for a `marketIds` entry outside the catalog).
 */
export function createStubRuntime(options: RuntimeOptions, where = 'createStubRuntime'): StubRuntime {
  const seed = options.seed ?? 1;
  const profile = resolveProfile(options.profile);
  const plan = planDeviations(options.deviations ?? [], where);
  const store = createMarketStore(options.catalog, { seed, deviations: plan, ...(options.globalFaults ? { globalFaults: options.globalFaults } : {}) });
  for (const id of plan.targeted.keys()) {
    if (!store.has(id)) throw new MarketStubError({ code: 'MARKET_NOT_FOUND', where, option: 'deviations', marketId: id, message: `${where}: deviations: no market with market_id ${JSON.stringify(id)} (marketIds name markets of the catalog)` });
  }
  const behaviours = createBehaviourEngine({ seed, ...(options.behaviour ? { global: options.behaviour } : {}), ...(options.rules ? { rules: options.rules } : {}) });
  const journal = createRequestJournal({ capacity: options.journalSize ?? 1000, maxBytes: options.journalBytes ?? DEFAULT_JOURNAL_BYTES, headers: options.journalHeaders ?? 'redacted', redactHeaders: options.redactHeaders ?? [], redactQuery: options.redactQuery ?? [] });
  const secrets = secretNames(options.redactHeaders, options.redactQuery);
  const allowedHosts = Object.freeze([...(options.allowedHosts ?? [])]);
  const errorLog = options.errorLog ?? ((line: string) => console.error(line));
  const cors = options.cors ?? true;
  const logger = options.logger;
  // Every Reply is built fresh per request, so its headers can take the CORS headers in place.
  const withCors = (reply: Reply): Reply => {
    if (cors) Object.assign(reply.headers, CORS_HEADERS);
    return reply;
  };

  const observe = (req: Observed, res: WithBehaviour, path: string, query: string) => {
    if (req[OBSERVED]) return;
    req[OBSERVED] = true;
    const start = performance.now();
    const timeMs = Date.now();
    const done = () => {
      const ms = performance.now() - start;
      const durationMs = Math.round(ms * 100) / 100;
      const status = res.headersSent ? res.statusCode : null;
      const method = req.method ?? 'GET';
      const labels = res[APPLIED];
      // req.headers is a fresh object per request that nothing else mutates: kept, not copied.
      journal.record({ timeMs, method, path, query, headers: req.headers, status, durationMs, behaviour: labels ?? NO_LABELS });
      if (!logger) return;
      // The log shows what was asked, never a secret query value (token=, api_key=…).
      const shown = query === '' ? req.url : `${path}?${secrets.redactQuery(query)}`;
      const line = `${method} ${shown} ${status ?? 'reset'} ${ms.toFixed(1)} ms`;
      if (labels) logger.info({ method, path: shown, status, ms: durationMs, behaviour: labels }, `${line} [${labels.join(', ')}]`);
      else logger.info({ method, path: shown, status, ms: durationMs }, line);
    };
    // 'close' fires once, for completed and for aborted/reset responses alike (`on`, not `once`: no wrapper per request).
    res.on('close', done);
  };

  const reportError = (error: unknown, at: string): void => {
    const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
    try {
      errorLog(`market-stub: 500 on ${at}: ${cause}`);
      logger?.error({ err: error, where: at }, `500 on ${at}`);
    } catch {
      // The error log itself failed: nothing left to tell.
    }
  };
  const warn = (message: string): void => {
    try {
      errorLog(`market-stub: warning: ${message}`);
      logger?.warn({}, message);
    } catch {
      // as above
    }
  };

  return {
    store, behaviours, journal, profile, cors, logger, allowedHosts,
    admin: options.admin ?? true,
    adminToken: options.adminToken,
    reportError,
    warn,
    handle(req: IncomingMessage, res: ServerResponse) {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      if (path.startsWith(ADMIN_PREFIX) && (path.length === ADMIN_PREFIX.length || path[ADMIN_PREFIX.length] === '/')) return false;
      const query = q === -1 ? '' : url.slice(q + 1);
      observe(req, res, path, query);
      const method = req.method ?? 'GET';
      if (cors) {
        if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
          // CORS preflight (Fetch standard §3.2.2): answer for every path, before routing.
          res.writeHead(204, {
            'access-control-allow-origin': '*',
            'access-control-allow-methods': 'GET, HEAD, OPTIONS',
            'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? 'Prefer, Authorization, Content-Type'),
            'access-control-max-age': '600',
            'content-length': '0',
          });
          res.end();
          return true;
        }
      }
      if (path === '/healthz' && (method === 'GET' || method === 'HEAD')) {
        writeReply(res, withCors(jsonReply(HEALTH_BODY)));
        return true;
      }
      const route = matchMarketRoute(path);
      if (!route) {
        // Express answers the rest; it sends these headers with whatever it writes.
        if (cors) for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
        return false;
      }
      if (route.kind === 'bad') {
        writeReply(res, withCors(errorReply(profile.errors, 400, 'bad_request', `The market_id in ${path} is not valid percent-encoding (RFC 3986 §2.1).`, { path })));
        return true;
      }
      if (method !== 'GET' && method !== 'HEAD') {
        writeReply(res, withCors(methodNotAllowed(profile.errors, method, path, cors ? [...ALLOWED, 'OPTIONS'] : ALLOWED)));
        return true;
      }
      // Node joins repeated unknown header fields into one string (RFC 9110 §5.3).
      const preferHeader = req.headers['prefer'] as string | undefined;
      let prefer: Behaviour | undefined;
      let preferred: Deviation | undefined;
      try {
        prefer = parsePrefer(preferHeader);
        if (preferHeader !== undefined) preferred = preferredDeviation(preferHeader);
      } catch (error) {
        if (!(error instanceof MarketStubError)) throw error;
        writeReply(res, withCors(errorReply(profile.errors, 400, 'bad_request', `${error.message}. Supported Prefer preferences: code, delay, jitter, retry-after, error-rate, fault, dribble, deviation.`)));
        return true;
      }
      const applied = behaviours.decide({ route: route.kind, method, ...(route.kind === 'item' ? { marketId: route.marketId } : {}) }, prefer);
      // Deviations cost nothing here unless some are in force: a Prefer header, list deviations, or a deviated entry.
      const rendered: Rendered = applied.status !== undefined && applied.status >= 400
        ? { reply: injectedError(profile, applied), delayMs: 0 }
        : renderMarketRoute(route, query, url, { store, profile, preferred });
      let reply = rendered.reply;
      const deviationLabels = rendered.labels;
      const deviationDelayMs = rendered.delayMs;
      // A 2xx/3xx override keeps the normal body (none for 204/205/304, see writeReply); errors stay errors.
      if (applied.status !== undefined && applied.status < 400 && reply.status === 200) reply.status = applied.status;
      reply = withCors(reply);
      const labels = deviationLabels === undefined ? applied.labels : [...applied.labels, ...deviationLabels];
      if (labels.length > 0) (res as WithBehaviour)[APPLIED] = labels;
      const delayMs = deviationDelayMs === 0 ? applied.delayMs : Math.min(MAX_HOLD_MS, applied.delayMs + deviationDelayMs);
      if (delayMs > 0) {
        const timer = setTimeout(() => {
          try {
            deliver(res, reply, applied);
          } catch (error) {
            reportError(error, `${method} ${path} (delayed reply)`);
            res.destroy();
          }
        }, delayMs);
        res.once('close', () => clearTimeout(timer));
      } else {
        deliver(res, reply, applied);
      }
      return true;
    },
  };
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
function renderMarketRoute(route: { kind: 'list' } | { kind: 'item'; marketId: string }, query: string, url: string, on: { store: MarketStore; profile: ResponseProfile; preferred: Deviation | undefined }): Rendered {
  const { store, profile, preferred } = on;
  const catalog = preferred?.scope === 'market' ? store.preferredView(preferred) : store.current();
  if (route.kind === 'list') {
    let reply = renderList(catalog, new URLSearchParams(query), profile);
    let labels: string[] | undefined;
    const edits = preferred?.scope === 'list' ? withPreferred(store.listDeviations(), preferred) : store.listDeviations();
    if (edits.length > 0) {
      reply = deviatedListReply(reply, edits, profile, url);
      labels = edits.map((d) => `deviation=${d.name}`);
    }
    if (preferred?.scope === 'market') labels = [...(labels ?? []), `deviation=${preferred.name} (Prefer)`];
    return labels === undefined ? { reply, delayMs: 0 } : { reply, labels, delayMs: 0 };
  }
  const entry = catalog.entry(route.marketId);
  const deviated = entry?.deviated;
  if (entry === undefined) return { reply: marketNotFound(profile.errors, route.marketId), delayMs: 0 };
  if (deviated === undefined) return { reply: jsonReply(entry.body), delayMs: 0 };
  return { reply: deviatedItemReply(entry, profile), labels: deviated.labels, delayMs: deviated.delayMs ?? 0 };
}

/** The list deviations in force with one more asked for by `Prefer: deviation=`, each once, in catalogue order. */
function withPreferred(inForce: readonly ListDeviation[], preferred: ListDeviation): readonly ListDeviation[] {
  return inForce.includes(preferred) ? inForce : [...inForce, preferred].sort((a, b) => catalogueIndex(a) - catalogueIndex(b));
}

type MarketRoute = { kind: 'list' } | { kind: 'item'; marketId: string } | { kind: 'bad' };

/** `/markets`, `/markets/` → list; `/markets/{id}` (one segment, percent-decoded) → item; else undefined. */
export function matchMarketRoute(path: string): MarketRoute | undefined {
  if (!path.startsWith('/markets')) return undefined;
  const rest = path.slice('/markets'.length);
  if (rest === '' || rest === '/') return { kind: 'list' };
  if (!rest.startsWith('/') || rest.indexOf('/', 1) !== -1) return undefined;
  const segment = rest.slice(1);
  // Without a `%` there is nothing to decode: the segment is the id (saves ~65 ns a request).
  if (!segment.includes('%')) return { kind: 'item', marketId: segment };
  try {
    return { kind: 'item', marketId: decodeURIComponent(segment) };
  } catch {
    return { kind: 'bad' };
  }
}

function injectedError(profile: ResponseProfile, applied: AppliedBehaviour): Reply {
  const status = applied.status ?? 500;
  const headers: Record<string, string> = {};
  const retryAfter = applied.retryAfter ?? (status === 429 ? 1 : undefined);
  if (retryAfter !== undefined && (status === 429 || status === 503)) headers['retry-after'] = String(retryAfter);
  const code = status === 429 ? 'rate_limited' : 'injected_fault';
  const message = status === 429 ? `Too many requests; retry after ${retryAfter ?? 1} s.` : `Injected failure: status ${status} (market-stub behaviour ${applied.labels.join(', ')}).`;
  return errorReply(profile.errors, status, code, message, {}, headers);
}

/** Writes a reply through a transport fault, if any. */
function deliver(res: ServerResponse, reply: Reply, applied: AppliedBehaviour): void {
  // Already answered (the 503 of a shutdown grace) or gone: nothing to deliver.
  if (res.destroyed || res.headersSent) return;
  // A streamed list (huge generated catalogs) is never held whole, so only `reset` applies to it.
  switch (reply.chunks && applied.fault !== 'reset' ? undefined : applied.fault) {
    case 'reset':
      // RST instead of FIN: the client sees ECONNRESET ("socket hang up"), not a clean close.
      res.socket?.resetAndDestroy();
      return;
    case 'truncate': {
      writeReplyHead(res, reply);
      res.write(reply.body.subarray(0, Math.floor(reply.body.length / 2)), () => res.socket?.destroy());
      return;
    }
    case 'malformed': {
      const cut = reply.body.subarray(0, Math.max(1, Math.floor(reply.body.length / 2)));
      writeReply(res, { ...reply, body: cut });
      return;
    }
    case 'slow-body': {
      writeReplyHead(res, reply);
      const chunks = Math.max(1, Math.min(20, reply.body.length));
      const size = Math.ceil(reply.body.length / chunks);
      let i = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        const part = reply.body.subarray(i * size, (i + 1) * size);
        i += 1;
        if (i >= chunks) {
          clearInterval(timer);
          res.end(part);
        } else {
          res.write(part);
        }
      }, applied.dribbleMs / chunks);
      res.once('close', () => clearInterval(timer));
      return;
    }
    default:
      writeReply(res, reply);
  }
}
