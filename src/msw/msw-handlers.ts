import { http, HttpResponse, type HttpHandler } from 'msw';
import { buildDataCatalog } from '../catalog/data-catalog.js';
import { todayUtc } from '../core/market-rules.js';
import { answerRequest, splitTarget } from '../runtime/answer-request.js';
import type { MarketStubClient } from '../runtime/market-stub-client.js';
import { createOpenApiResponder } from '../runtime/openapi-served.js';
import { jsonReply } from '../runtime/reply.js';
import { createStubControls } from '../runtime/stub-controls.js';
import { createHandle } from '../runtime/stub-handle.js';
import { createStubRuntime, type StubRuntime } from '../runtime/stub-runtime.js';
import { checkHandlersOptions, parseBaseUrl, type MarketStubHandlersOptions } from './msw-options.js';
import { toFetchResponse } from './msw-response.js';

/** What createMarketStubHandlers returns: the MSW handlers and the stub's controls. */
export interface MarketStubHandlers {
  /** Request handlers for `setupServer(...handlers)` (msw/node) or `setupWorker(...handlers)` (msw/browser). */
  handlers: HttpHandler[];
  /** The stub's controls: the same MarketStubClient as startMarketStub's handle and connectMarketStub's client; `url` is the base URL. */
  stub: MarketStubClient;
}

const WHERE = 'createMarketStubHandlers';

/**
 * The stub as Mock Service Worker handlers: the same catalog, profile, deviations, behaviours and
 * journal as `startMarketStub` with the same options, answered inside the test with no server
 * listening, byte for byte as over HTTP. Handles `GET`/`HEAD` `${baseUrl}/markets`,
 * `${baseUrl}/markets/{market_id}`, `${baseUrl}/healthz` (other methods: 405 as over HTTP),
 * `GET ${baseUrl}/openapi.json`, and CORS preflights under the base URL. A latency rule delays
 * the response; `fault: 'reset'` is MSW's network error (`HttpResponse.error()`), `truncate` a body
 * that fails mid-way, `slow-body` a dribbled body; status faults and deviations answer as over HTTP.
 * Other paths under the base URL are left to the next handler (MSW's `onUnhandledRequest`).
 * @throws MarketStubError OPTION_INVALID for a bad option (an unknown field, a baseUrl that is not
 *   an absolute http(s) URL); MARKETS_INVALID listing every problem of `markets`; MARKET_NOT_FOUND
 *   for a deviation naming a market outside the catalog.
 */
export function createMarketStubHandlers(options: MarketStubHandlersOptions): MarketStubHandlers {
  checkHandlersOptions(options, WHERE);
  const { baseUrl, count, clock, markets, ...runtimeOptions } = options;
  const base = parseBaseUrl(baseUrl, WHERE);
  const seed = runtimeOptions.seed ?? 1;
  const catalog = buildDataCatalog({ markets, seed, count: count ?? 100, clock: clock ?? todayUtc() }, WHERE);
  const runtime = createStubRuntime({ ...runtimeOptions, catalog, seed, admin: false }, WHERE);
  const answer = marketRoutesResolver(runtime, base.prefix);
  const handlers = [
    http.get(`${base.href}/openapi.json`, openApiResolver(runtime, base.prefix)),
    http.all(`${base.href}/markets`, answer),
    http.all(`${base.href}/markets/*`, answer),
    http.all(`${base.href}/healthz`, answer),
  ];
  return { handlers, stub: createHandle(createStubControls(runtime), base.href) };
}

type Resolver = (info: { request: Request }) => Promise<Response | undefined>;

/** The core through MSW: request → StubRequest → answerRequest → delay → Response, journaled once. */
function marketRoutesResolver(runtime: StubRuntime, prefix: string): Resolver {
  return async ({ request }) => {
    const start = performance.now();
    const timeMs = Date.now();
    const url = new URL(request.url);
    const target = `${url.pathname.slice(prefix.length) || '/'}${url.search}`;
    const split = splitTarget(target);
    const headers = Object.fromEntries(request.headers);
    const answer = answerRequest(runtime, { method: request.method, target, headers }, split);
    if (answer === undefined) return undefined;
    if (answer.delayMs > 0) await sleep(answer.delayMs, request.signal);
    const delivered = toFetchResponse(answer, request.method);
    const status = delivered.kind === 'response' ? delivered.response.status : null;
    runtime.recordExchange({ timeMs, method: request.method, target, path: split.path, query: split.query, headers, status, durationMs: Math.round((performance.now() - start) * 100) / 100, labels: answer.labels });
    return delivered.kind === 'response' ? delivered.response : (HttpResponse.error() as Response);
  };
}

/** `GET /openapi.json`: the document the node:http adapter serves, with the base URL as its server and examples from the catalog in force. */
function openApiResolver(runtime: StubRuntime, prefix: string): (info: { request: Request }) => Response {
  const respond = createOpenApiResponder(runtime.profile);
  return ({ request }) => {
    const url = new URL(request.url);
    const reply = jsonReply(respond(runtime.store.current(), { protocol: url.protocol.replace(/:$/, ''), baseUrl: prefix, get: () => url.host }));
    return new Response(reply.body, { status: 200, headers: { ...reply.headers, 'content-length': String(reply.body.length) } });
  };
}

/** Waits `ms`, or less when the request is aborted (the client gave up). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}


