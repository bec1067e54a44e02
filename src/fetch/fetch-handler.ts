import { buildDataCatalog } from '../catalog/data-catalog.js';
import { todayUtc } from '../core/market-rules.js';
import { splitTarget, type StubAnswer } from '../runtime/answer-request.js';
import { internalError } from '../runtime/error-reply.js';
import type { MarketStubClient } from '../runtime/control-table.js';
import { createStubControls } from '../runtime/stub-controls.js';
import { createStubCore, type StubCore } from '../runtime/stub-core.js';
import { createHandle } from '../runtime/stub-handle.js';
import { createStubRuntime } from '../runtime/stub-runtime.js';
import { checkFetchOptions, type FetchHandlerOptions } from './fetch-options.js';
import { toFetchResponse } from './fetch-response.js';

/** What createFetchHandler returns: `fetch` for the runtime's server, and the stub's controls. */
export interface MarketStubFetchHandler extends MarketStubClient {
  /**
   * Answers one request, as `Bun.serve({ fetch })`, `Deno.serve(handler)`, a Workers
   * `export default { fetch }` and a Fetch-API framework route take it. Never rejects: a bug is a
   * logged 500. A `reset` fault resolves to `Response.error()` (a network error; see docs/fetch.md).
   */
  fetch(request: Request): Promise<Response>;
}

const WHERE = 'createFetchHandler';

/**
 * The stub as a Fetch handler `(Request) => Promise<Response>`: the same catalog, profile,
 * deviations, behaviours, journal and admin API as `startMarketStub` with the same options, for any
 * runtime with web-standard Request and Response (Bun, Deno, workerd, Node 18+, a framework route).
 * Every route the node:http server answers is answered here with the same status, headers and
 * bytes: the market routes, `/healthz`, `/openapi.json`, 404/405, CORS preflights, the admin API
 * under `/__stub` (its console's files are served by the node:http server only). Delays are
 * waited with `setTimeout`; `truncate` is a body stream that errors half-way, `slow-body` a
 * dribbled body, `reset` `Response.error()`. Returns the same controls as startMarketStub's
 * handle (`url` is `basePath`: a Fetch handler has no address of its own).
 * @throws MarketStubError OPTION_INVALID for a bad option (an unknown field, a bad basePath);
 *   MARKETS_INVALID listing every problem of `markets`; MARKET_NOT_FOUND for a deviation naming a
 *   market outside the catalog.
 */
export function createFetchHandler(options: FetchHandlerOptions = {}): MarketStubFetchHandler {
  checkFetchOptions(options, WHERE);
  const { count, clock, markets, basePath = '', ...runtimeOptions } = options;
  const seed = runtimeOptions.seed ?? 1;
  const catalog = buildDataCatalog({ markets, seed, count: count ?? 100, clock: clock ?? todayUtc() }, WHERE);
  const runtime = createStubRuntime({ ...runtimeOptions, ...(clock === undefined ? {} : { clock }), catalog, seed }, WHERE);
  const core = createStubCore(runtime);
  const answer = createFetchAnswerer(core, basePath, 'not-found');
  return Object.freeze({ ...createHandle(createStubControls(runtime), basePath), fetch: answer as (request: Request) => Promise<Response> });
}

/**
 * The core through fetch values: Request → StubRequest → core → delay → Response, journaled once.
 * A request whose path is not under `prefix` is answered 404 (`outside: 'not-found'`, the Fetch
 * handler) or resolves to undefined (`'pass'`: MSW hands it to the next handler). Used by the Fetch
 * handler and the MSW adapter alike.
 */
export function createFetchAnswerer(core: StubCore, prefix: string, outside: 'not-found' | 'pass'): (request: Request) => Promise<Response | undefined> {
  const { runtime } = core;
  return async (request) => {
    const start = performance.now();
    const timeMs = Date.now();
    const url = new URL(request.url);
    if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
      return outside === 'pass' ? undefined : toResponse(core.notFound(request.method, url.pathname), request.method);
    }
    const target = `${url.pathname.slice(prefix.length) || '/'}${url.search}`;
    const split = splitTarget(target);
    const headers = Object.fromEntries(request.headers) as Record<string, string>;
    // A client-side Request (MSW) carries no Host: the URL's is the one it was sent to.
    headers['host'] ??= url.host;
    let answer: StubAnswer;
    try {
      const handled = core.handle({ method: request.method, target, headers, body: bodyOf(request), scheme: url.protocol === 'https:' ? 'https' : 'http', mount: prefix }, split);
      answer = handled instanceof Promise ? await handled : handled;
    } catch (error) {
      runtime.reportError(error, `${request.method} ${split.path}`);
      answer = { reply: internalError(runtime.profile.errors), delayMs: 0, fault: undefined, dribbleMs: 0, labels: [] };
    }
    if (answer.delayMs > 0) await sleep(answer.delayMs, request.signal);
    const response = toResponse(answer, request.method);
    if (!answer.admin) {
      const status = response.type === 'error' ? null : response.status;
      runtime.recordExchange({ timeMs, method: request.method, target, path: split.path, query: split.query, headers, status, durationMs: Math.round((performance.now() - start) * 100) / 100, labels: answer.labels });
    }
    return response;
  };
}

function toResponse(answer: StubAnswer, method: string): Response {
  const delivered = toFetchResponse(answer, method);
  return delivered.kind === 'response' ? delivered.response : Response.error();
}

/** The request's body as chunks, read only when an admin route asks for it (GET has none). */
function bodyOf(request: Request): AsyncIterable<Uint8Array> | undefined {
  const stream = request.body;
  if (stream === null) return undefined;
  return {
    [Symbol.asyncIterator]() {
      const reader = stream.getReader();
      return {
        next: async () => {
          const { done, value } = await reader.read();
          return done ? { done: true, value: undefined } : { done: false, value };
        },
        return: async () => {
          await reader.cancel().catch(() => undefined);
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Waits `ms`, or less when the request is aborted (the client gave up). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
