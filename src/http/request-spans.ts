// A span per answered request, through @opentelemetry/api, when the process has registered a tracer
// provider before the stub starts (docs/har.md, "OpenTelemetry spans"). Nothing is loaded and
// nothing runs per request otherwise: the registration is read from the API's global registry
// (the symbol every 1.x copy of @opentelemetry/api shares), and the package is an optional peer.
import type * as OtelApiModule from '@opentelemetry/api';
import type { Exchange } from '../runtime/stub-runtime.js';
import { explainHeader } from '../runtime/explain.js';
import type { SecretNames } from '../floor/secret-names.js';
import { formatInstant } from '../floor/instant.js';

/** The global registry key of @opentelemetry/api 1.x (its `api.1` major-version key). */
const OTEL_REGISTRY = Symbol.for('opentelemetry.js.api.1');

/** HTTP methods named as they are in the semantic conventions; any other is `_OTHER` (OpenTelemetry HTTP semconv, `http.request.method`). */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/** The served routes a span names (`http.route`): the contract's two, in the OpenAPI document's template form. */
function routeOf(path: string): string | undefined {
  if (path === '/markets') return '/markets';
  return /^\/markets\/[^/]+$/.test(path) ? '/markets/{market_id}' : undefined;
}

/** Whether a tracer provider is registered in this process (by any copy of @opentelemetry/api 1.x). */
export function tracerProviderRegistered(): boolean {
  const registry = (globalThis as Record<symbol, unknown>)[OTEL_REGISTRY];
  return typeof registry === 'object' && registry !== null && 'trace' in registry;
}

type OtelApi = typeof OtelApiModule;

/**
 * The span recorder of a stub, or undefined when no tracer provider is registered or
 * @opentelemetry/api cannot be loaded from here (then `warn` says so once).
 *
 * Each recorded exchange becomes one SERVER span named `GET /markets/{market_id}` (method and route;
 * the method alone off the contract's routes), started at the request's receipt and ended at the
 * end of its response (`Exchange.timeMs`, `durationMs`), child of the caller's span when the request
 * carried context the process's propagator reads (W3C `traceparent` with the SDK's defaults).
 * Attributes (OpenTelemetry HTTP semantic conventions): `http.request.method`, `url.path`,
 * `url.query` (secret values `[redacted]`, as the journal shows them), `url.scheme`, `http.route`,
 * `http.response.status_code`, `error.type`; and `market_stub.stub_time` (the stub instant, RFC
 * 3339), `market_stub.behaviour` (the journal's labels), `market_stub.explain` (the
 * `Market-Stub-Explain` value, when the answer was explained). Status ERROR for a 5xx or a reset.
 * Headers are never recorded. A failure inside the API is swallowed: a span never costs a request.
 */
export async function loadRequestSpans(secrets: SecretNames, version: string, warn: (message: string) => void): Promise<((exchange: Exchange) => void) | undefined> {
  if (!tracerProviderRegistered()) return undefined;
  let api: OtelApi;
  try {
    api = await import('@opentelemetry/api');
  } catch {
    warn('a tracer provider is registered in this process, but @opentelemetry/api cannot be loaded from market-stub: no spans are recorded (npm install @opentelemetry/api beside market-stub)');
    return undefined;
  }
  const tracer = api.trace.getTracer('market-stub', version);
  return (x) => {
    try {
      recordSpan(api, tracer, x, secrets);
    } catch {
      // A tracer that throws must not turn into a failed request; the journal has the exchange.
    }
  };
}

/** Stage: one exchange as one ended span. */
function recordSpan(api: OtelApi, tracer: ReturnType<OtelApi['trace']['getTracer']>, x: Exchange, secrets: SecretNames): void {
  const parent = api.propagation.extract(api.ROOT_CONTEXT, x.headers);
  const route = routeOf(x.path);
  const method = KNOWN_METHODS.has(x.method) ? x.method : '_OTHER';
  const attributes: Record<string, string | number | string[]> = { 'http.request.method': method, 'url.path': x.path, 'url.scheme': 'http', 'market_stub.stub_time': formatInstant(x.instantMs) };
  if (method === '_OTHER') attributes['http.request.method_original'] = x.method;
  if (x.query !== '') attributes['url.query'] = secrets.redactQuery(x.query);
  if (route !== undefined) attributes['http.route'] = route;
  if (x.status !== null) attributes['http.response.status_code'] = x.status;
  if (x.labels.length > 0) attributes['market_stub.behaviour'] = [...x.labels];
  if (x.explain !== undefined) attributes['market_stub.explain'] = explainHeader(x.explain);
  const failed = x.status === null || x.status >= 500;
  if (failed) attributes['error.type'] = x.status === null ? 'reset' : String(x.status);
  const span = tracer.startSpan(route === undefined ? method : `${method} ${route}`, { kind: api.SpanKind.SERVER, startTime: x.timeMs, attributes }, parent);
  if (failed) span.setStatus({ code: api.SpanStatusCode.ERROR });
  span.end(x.timeMs + x.durationMs);
}
