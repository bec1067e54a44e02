import { buildDataCatalog } from '../catalog/data-catalog.js';
import { todayUtc } from '../floor/market-rules.js';
import { splitTarget, type StubAnswer } from '../runtime/answer-request.js';
import { internalError, invalidRequestTarget } from '../runtime/error-reply.js';
import type { MarketStubClient } from '../runtime/control-table.js';
import type { Exchange } from '../runtime/stub-runtime.js';
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
  /** The answer delivered and journaled (unless it is the admin API's). */
  const deliver = (answer: StubAnswer, exchange: Omit<Exchange, 'status' | 'durationMs' | 'labels' | 'instantMs'>, start: number): Response => {
    const response = toResponse(answer, exchange.method);
    if (!answer.admin) {
      const status = response.type === 'error' ? null : response.status;
      runtime.recordExchange({ ...exchange, instantMs: answer.instantMs ?? runtime.clock.now(), status, durationMs: Math.round((performance.now() - start) * 100) / 100, labels: answer.labels, explain: answer.explain, response: answer.reply });
    }
    return response;
  };
  const failed = (error: unknown, method: string, path: string): StubAnswer => {
    runtime.reportError(error, `${method} ${path}`);
    return { reply: internalError(runtime.profile.errors), delayMs: 0, fault: undefined, dribbleMs: 0, labels: [] };
  };
  // Not an async function: a market answer (synchronous, no delay) costs no promise but the one returned.
  return (request) => {
    try {
      const start = performance.now();
      const timeMs = Date.now();
      const method = request.method;
      const url = requestUrl(request.url);
      if (url.invalid) return Promise.resolve(toResponse({ reply: invalidRequestTarget(runtime.profile.errors), delayMs: 0, fault: undefined, dribbleMs: 0, labels: [] }, method));
      if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
        return Promise.resolve(outside === 'pass' ? undefined : toResponse(core.notFound(method, url.pathname), method));
      }
      const target = `${url.pathname.slice(prefix.length) || '/'}${url.search}`;
      const split = splitTarget(target);
      const headers = headersOf(request.headers, url.host);
      const exchange = { timeMs, method, target, path: split.path, query: split.query, headers };
      let handled: StubAnswer | Promise<StubAnswer>;
      try {
        handled = core.handle({ method, target, headers, body: method === 'GET' || method === 'HEAD' ? undefined : bodyOf(request), scheme: url.https ? 'https' : 'http', mount: prefix }, split);
      } catch (error) {
        handled = failed(error, method, split.path);
      }
      if (!(handled instanceof Promise) && handled.delayMs <= 0) return Promise.resolve(deliver(handled, exchange, start));
      return (async () => {
        const answer = await Promise.resolve(handled).catch((error: unknown) => failed(error, method, split.path));
        if (answer.delayMs > 0) await sleep(answer.delayMs, request.signal);
        return deliver(answer, exchange, start);
      })();
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
}

/** The parts of a request's URL the answerer reads. */
interface RequestUrl {
  pathname: string;
  /** `?` and the query, or '' (as URL#search). */
  search: string;
  host: string;
  https: boolean;
  /** A request-target node:http's parser refuses (neither `/…` nor `*`): answered 400 as node:http answers it. */
  invalid?: true;
}

/**
 * The parts of `request.url`. Usually an absolute URL already serialised by the runtime (WHATWG URL
 * standard §4.5: `scheme://host[:port]/path[?query][#fragment]`, never with credentials: the Fetch
 * standard refuses them in a Request), cut at its delimiters: parsing it again with `new URL` was a
 * visible share of a request under Bun and Deno (bench/README.md, "Figures behind the code's
 * comments"). A runtime also hands over what it could not make absolute (Bun: an HTTP/1.0 request
 * without Host, a Host with userinfo such as `127.0.0.1@evil.example`, a CONNECT's authority-form
 * `host:port`): those are taken as node:http takes its request-target (RFC 9112 §3.2), the path as
 * sent, so the core answers them as it answers node:http (404, 405, 400), never a 500.
 */
function requestUrl(href: string): RequestUrl {
  const https = href.startsWith('https://');
  const hostAt = https ? 8 : href.startsWith('http://') ? 7 : -1;
  if (hostAt === -1) return href.startsWith('/') || href === '*' ? targetUrl(href, '', false) : { ...targetUrl(href, '', false), invalid: true };
  const pathAt = href.indexOf('/', hostAt);
  if (pathAt === -1) return parsedUrl(href);
  const hash = href.indexOf('#', pathAt);
  const end = hash === -1 ? href.length : hash;
  const q = href.indexOf('?', pathAt);
  const queryAt = q === -1 || q > end ? end : q;
  // URL#search is '' for an empty query (`/markets?`), as for none.
  const search = end - queryAt > 1 ? href.slice(queryAt, end) : '';
  return { pathname: href.slice(pathAt, queryAt), search, host: href.slice(hostAt, pathAt), https };
}

/** An absolute URL without a path (`http://host:port`), through the URL parser; a URL it refuses is taken as a request-target. */
function parsedUrl(href: string): RequestUrl {
  try {
    const url = new URL(href);
    return { pathname: url.pathname, search: url.search, host: url.host, https: url.protocol === 'https:' };
  } catch {
    return targetUrl(href, '', false);
  }
}

/**
 * A request-target that is not an absolute URL (origin-form `/markets?x`, authority-form
 * `host:443`, asterisk-form `*`), cut at `?` and `#` as node:http's `req.url` is read
 * (http/node-handler.ts): the path as sent, no host but the Host header's.
 */
function targetUrl(target: string, host: string, https: boolean): RequestUrl {
  const hash = target.indexOf('#');
  const end = hash === -1 ? target.length : hash;
  const q = target.indexOf('?');
  const queryAt = q === -1 || q > end ? end : q;
  const search = end - queryAt > 1 ? target.slice(queryAt, end) : '';
  return { pathname: target.slice(0, queryAt), search, host, https };
}

function toResponse(answer: StubAnswer, method: string): Response {
  const delivered = toFetchResponse(answer, method);
  return delivered.kind === 'response' ? delivered.response : Response.error();
}

/**
 * The request's headers as the core reads them (lower-case names, repeats joined by the Headers
 * object); a client-side Request (MSW) carries no Host: the URL's is the one it was sent to.
 * `forEach`, not `Object.fromEntries(headers)`: several times cheaper under Deno, whose Headers
 * iterator builds an array per field (bench/README.md, "Figures behind the code's comments").
 */
function headersOf(fields: Headers, host: string): Record<string, string> {
  const headers: Record<string, string> = {};
  fields.forEach((value, name) => {
    headers[name] = value;
  });
  if (host !== '') headers['host'] ??= host;
  return headers;
}

/** The request's body as chunks, read only when an admin route asks for it (not looked at for GET and HEAD, whose bodies no route reads). */
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
