import { http, type HttpHandler } from 'msw';
import { buildDataCatalog } from '../catalog/data-catalog.js';
import { todayUtc } from '../floor/market-rules.js';
import { createFetchAnswerer } from '../fetch/fetch-handler.js';
import type { MarketStubClient } from '../runtime/control-table.js';
import { createStubControls } from '../runtime/stub-controls.js';
import { createStubCore } from '../runtime/stub-core.js';
import { createHandle } from '../runtime/stub-handle.js';
import { createStubRuntime } from '../runtime/stub-runtime.js';
import { checkHandlersOptions, handlerBase, type MarketStubHandlersOptions } from './msw-options.js';

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
 * listening, byte for byte as over HTTP (headers and `Date` included): every request under the base
 * URL goes to the request core, so `${baseUrl}/markets`, `${baseUrl}/markets/{market_id}`,
 * `${baseUrl}/healthz`, `${baseUrl}/openapi.json`, CORS preflights, 404 and 405 answer as over
 * HTTP, and with `admin: true` the admin API under `${baseUrl}/__stub` too (its Host rule allows the
 * base URL's host; its console's files are served by the node:http server only). A latency rule
 * delays the response; `fault: 'reset'` is a network error (`Response.error()`), `truncate` a body
 * that fails mid-way, `slow-body` a dribbled body. Requests outside the base URL are left to the
 * next handler (MSW's `onUnhandledRequest`).
 * @throws MarketStubError OPTION_INVALID for a bad option (an unknown field, a baseUrl that is not
 *   an absolute http(s) URL); MARKETS_INVALID listing every problem of `markets`; MARKET_NOT_FOUND
 *   for a deviation naming a market outside the catalog.
 */
export function createMarketStubHandlers(options: MarketStubHandlersOptions): MarketStubHandlers {
  checkHandlersOptions(options, WHERE);
  const { baseUrl, count, clock, markets, ...runtimeOptions } = options;
  const base = handlerBase(baseUrl, WHERE);
  const seed = runtimeOptions.seed ?? 1;
  const catalog = buildDataCatalog({ markets, seed, count: count ?? 100, clock: clock ?? todayUtc() }, WHERE);
  const allowedHosts = [...(runtimeOptions.allowedHosts ?? []), new URL(base.origin).hostname];
  const runtime = createStubRuntime({ admin: false, ...runtimeOptions, allowedHosts, ...(clock === undefined ? {} : { clock }), catalog, seed }, WHERE);
  const answer = createFetchAnswerer(createStubCore(runtime), base.prefix, 'pass');
  const resolver = ({ request }: { request: Request }) => answer(request);
  // A RegExp without capture groups: MSW decodes the captures of a path pattern (`*`), and a
  // malformed percent-encoding there (`/markets/%E0%A4%A`) would throw instead of answering 400.
  const under = new RegExp(`^${base.href.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/.*)?$`);
  const handlers = [http.all(under, resolver)];
  return { handlers, stub: createHandle(createStubControls(runtime), base.href) };
}
