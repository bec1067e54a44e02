import { createAdminApi } from './admin/admin-api.js';
import type { ConsoleAssetSource } from './admin/console-routes.js';
import { addCors, answerRequest, NO_LABELS, splitTarget, type SplitTarget, type StubAnswer, type StubRequest } from './answer-request.js';
import { internalError, methodNotAllowed, routeNotFound } from './error-reply.js';
import { createOpenApiResponder } from './openapi-served.js';
import { jsonReply, type Reply } from './reply.js';
import type { StubRuntime } from './stub-runtime.js';

/** What an adapter gives the core besides the runtime: what only its platform can provide. */
export interface StubCoreOptions {
  /** The web console's files (`/__stub/ui`); without it the console answers 404 saying this adapter serves none. */
  consoleAssets?: ConsoleAssetSource;
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
  const dateNow = clockDate(runtime.clock);
  const openapi = createOpenApiResponder(runtime.profile);
  const admin = runtime.admin ? createAdminApi(runtime, options.consoleAssets ? { consoleAssets: options.consoleAssets } : {}) : undefined;
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
      const failed = (error: unknown): StubAnswer => {
        runtime.reportError(error, `${request.method} ${split.path}`);
        const reply = internalError(runtime.profile.errors);
        if (runtime.cors) addCors(reply.headers);
        return dated({ reply, delayMs: 0, fault: undefined, dribbleMs: 0, labels: NO_LABELS, ...(split.admin ? { admin: true as const } : {}) }, dateNow());
      };
      try {
        if (split.admin) {
          if (admin === undefined) return dated({ ...other(request, split), admin: true }, dateNow());
          return admin(request, split.path, split.query).then((reply) => dated({ reply, delayMs: 0, fault: undefined, dribbleMs: 0, labels: NO_LABELS, admin: true }, dateNow()), failed);
        }
        return dated(answerRequest(runtime, request, split) ?? other(request, split), dateNow());
      } catch (error) {
        return failed(error);
      }
    },
    notFound(method, path) {
      return dated(other({ method, target: path, headers: {} }, { path, query: '', admin: true }), dateNow());
    },
  };
}

/** The stub clock's `Date` on an answer, unless a deviation already set its own (clock-skew: deviated-reply.ts). */
function dated(answer: StubAnswer, date: string): StubAnswer {
  answer.reply.headers['date'] ??= date;
  return answer;
}

/**
 * The `Date` header's value now (RFC 9110 §6.6.1, an IMF-fixdate) on the stub's clock: the clock
 * date `YYYY-MM-DD` at the current UTC time of day, or the real date when there is no clock. A
 * deployment's Date is its own idea of now, and `market-stub check` judges "past" against it, so a
 * stub serving `clock: '2026-01-01'` is checked as of that day, whatever day the check runs.
 * Rendered once per second.
 */
export function clockDate(clock: string | undefined): () => string {
  const midnight = clock === undefined ? undefined : Date.parse(`${clock}T00:00:00Z`);
  let second = -1;
  let header = '';
  return () => {
    const now = Date.now();
    const current = Math.floor(now / 1000);
    if (current !== second) {
      second = current;
      header = new Date(midnight === undefined ? now : midnight + (now % 86_400_000)).toUTCString();
    }
    return header;
  };
}
