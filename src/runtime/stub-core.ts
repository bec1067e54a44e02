import { createAdminApi } from './admin/admin-api.js';
import type { ConsoleAssetSource } from './admin/console-routes.js';
import type { AdminEndpoint } from './admin/admin-endpoint.js';
import { addCors, answerRequest, NO_LABELS, splitTarget, type SplitTarget, type StubAnswer, type StubRequest } from './answer-request.js';
import { NO_STORE } from './conditional-reply.js';
import { errorReply, internalError, methodNotAllowed, routeNotFound } from './error-reply.js';
import { httpDate } from './http-date.js';
import { EXPLAIN_HEADER, explainHeader, explanationOf, preferredExplain } from './explain.js';
import { createOpenApiResponder } from './openapi-served.js';
import { jsonReply, type Reply } from './reply.js';
import { createRedactor, redactAnswer, type Redactor } from '../floor/redact-secrets.js';
import type { StubRuntime } from './stub-runtime.js';

/** What an adapter gives the core besides the runtime: what only its platform can provide. */
export interface StubCoreOptions {
  /** The web console's files (`/__stub/ui`); without it the console answers 404 saying this adapter serves none. */
  consoleAssets?: ConsoleAssetSource;
  /**
   * One more admin path answered by the edges (admin-endpoint.ts: the MCP Streamable HTTP transport
   * of `serve --mcp-http on`), behind the admin API's access rules; without it the path is an
   * unknown admin path (404) as any other. Ignored when the admin API is off.
   */
  adminEndpoint?: AdminEndpoint;
}

/**
 * The whole stub as one function over web-standard values (Hono's `app.fetch` is the model): every
 * adapter (node:http, Express, MSW, Fetch) builds a StubRequest, calls `handle`, waits `delayMs`,
 * delivers the Reply through its transport fault, and journals the exchange unless it is `admin`.
 */
export interface StubCore {
  readonly runtime: StubRuntime;
  /**
   * Answers one request: the market routes, `/healthz` and CORS preflights synchronously (no
   * promise on the hot path), `/openapi.json`, 404 and 405 synchronously, the admin API and the
   * console's files (`/__stub…`) as a promise that never rejects. Every answer carries the stub
   * clock's `Date` (RFC 9110 §6.6.1). Never throws and never rejects: a bug while answering (a
   * handler, a catalog or a market that throws) is the stub's own 500 `internal_error` in the
   * profile's error shape, with `Date` and CORS as any answer, its cause sent to the error log
   * (runtime.reportError) and never to the client; so every adapter answers it with the same bytes.
   */
  handle(request: StubRequest, split?: SplitTarget): StubAnswer | Promise<StubAnswer>;
  /** The 404 of a path outside the stub (outside an adapter's mount path), with CORS and `Date`; journal it as any other. */
  notFound(method: string, path: string): StubAnswer;
}

const OPENAPI_PATH = '/openapi.json';

/**
 * Builds the request core over a runtime. One per adapter instance: it holds the admin API's
 * turn lane and in-flight count, the OpenAPI document's cache and the console's files.
 */
export function createStubCore(runtime: StubRuntime, options: StubCoreOptions = {}): StubCore {
  const dateOf = httpDate();
  const openapi = createOpenApiResponder(runtime.profile);
  // The one rule for secrets in answers (floor/redact-secrets.ts redactAnswer): the admin token never reaches a client in an error.
  const secrets = createRedactor(runtime.adminToken === undefined ? [] : [runtime.adminToken]);
  const admin = runtime.admin ? createAdminApi(runtime, { ...(options.consoleAssets ? { consoleAssets: options.consoleAssets } : {}), ...(options.adminEndpoint ? { endpoint: options.adminEndpoint } : {}) }) : undefined;
  const other = (request: StubRequest, split: SplitTarget): StubAnswer => {
    let reply: Reply;
    if (split.path !== OPENAPI_PATH || split.admin) reply = routeNotFound(runtime.profile.errors, request.method, split.path);
    else if (request.method === 'GET' || request.method === 'HEAD') {
      const host = request.headers['host'];
      reply = jsonReply(openapi(runtime.store.current(), { scheme: request.scheme ?? 'http', mount: request.mount ?? '', host: Array.isArray(host) ? host[0] : host }));
    } else reply = methodNotAllowed(runtime.profile.errors, request.method, split.path, runtime.cors ? ['GET', 'HEAD', 'OPTIONS'] : ['GET', 'HEAD']);
    if (runtime.cors) addCors(reply.headers);
    return { reply, delayMs: 0, fault: undefined, dribbleMs: 0, labels: NO_LABELS };
  };
  return {
    runtime,
    handle(request, split = splitTarget(request.target)) {
      // The one read of the clock for this request: every stage below computes at `t`.
      const t = runtime.clock.now();
      const failed = (error: unknown): StubAnswer => {
        runtime.reportError(error, `${request.method} ${split.path}`);
        const reply = internalError(runtime.profile.errors);
        if (runtime.cors) addCors(reply.headers);
        return dated({ reply, delayMs: 0, fault: undefined, dribbleMs: 0, labels: NO_LABELS, ...(split.admin ? { admin: true as const } : {}) }, t, dateOf);
      };
      try {
        if (split.admin) {
          if (admin === undefined) return dated({ ...other(request, split), admin: true }, t, dateOf, secrets);
          // An admin answer is dated after it ran: a clock control's answer shows the clock it set.
          return admin(request, split.path, split.query).then((reply) => dated({ reply: unstored(reply), delayMs: 0, fault: undefined, dribbleMs: 0, labels: NO_LABELS, admin: true }, runtime.clock.now(), dateOf, secrets), failed);
        }
        const prefer = request.headers['prefer'];
        if (!runtime.explain && prefer === undefined) return dated(answerRequest(runtime, request, split, t) ?? other(request, split), t, dateOf, secrets);
        const stamp = (answer: StubAnswer) => dated(answer, t, dateOf, secrets);
        return explained(runtime, split, preferredExplain(prefer), () => stamp(answerRequest(runtime, request, split, t) ?? other(request, split)), t, stamp);
      } catch (error) {
        return failed(error);
      }
    },
    notFound(method, path) {
      return dated(other({ method, target: path, headers: {} }, { path, query: '', admin: true }), runtime.clock.now(), dateOf);
    },
  };
}

/**
 * An answer that may carry its explanation (docs/explain.md): when the `explain` option is on and
 * the request does not turn it off (`Prefer: explain=?0`), or the request asks (`Prefer: explain`,
 * answered with `Preference-Applied: explain`, RFC 7240 §3). A Prefer `explain` with a value other
 * than a switch is a 400 in the profile's error shape, whatever the route.
 */
function explained(runtime: StubRuntime, split: SplitTarget, preferred: ReturnType<typeof preferredExplain>, answer: () => StubAnswer, t: number, stamp: (answer: StubAnswer) => StubAnswer): StubAnswer {
  if (typeof preferred === 'string') {
    const reply = errorReply(runtime.profile.errors, 400, 'bad_request', preferred, { path: split.path });
    if (runtime.cors) addCors(reply.headers);
    return stamp({ reply, delayMs: 0, fault: undefined, dribbleMs: 0, labels: NO_LABELS });
  }
  const result = answer();
  if (!(preferred ?? runtime.explain) || result.preflight) return result;
  const explanation = explanationOf(result, runtime.profile, t);
  result.explain = explanation;
  result.reply.headers[EXPLAIN_HEADER] = explainHeader(explanation);
  if (preferred === true) result.reply.headers['preference-applied'] = 'explain';
  return result;
}

/**
 * An admin API answer (state, journal, controls) is never kept by a cache: `Cache-Control:
 * no-store` (RFC 9111 §5.2.2.5). The console's files keep their own (`no-cache` with an ETag).
 */
function unstored(reply: Reply): Reply {
  reply.headers['cache-control'] ??= NO_STORE;
  return reply;
}

/**
 * Stamps an answer with the instant it was computed at and the `Date` header that instant gives;
 * an error answer (4xx/5xx) passes through the one rule for secrets (floor/redact-secrets.ts).
 */
function dated(answer: StubAnswer, t: number, dateOf: (t: number) => string, secrets?: Redactor): StubAnswer {
  answer.reply.headers['date'] = dateOf(t + (answer.reply.dateSkewMs ?? 0));
  answer.instantMs = t;
  if (secrets?.active && answer.reply.status >= 400) answer.reply = redactAnswer(answer.reply, secrets);
  return answer;
}
