// Small node:http deployments for the contract tests: a conforming Market API by default, with
// per-route overrides that make it deviate on purpose. Always on 127.0.0.1, port 0.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type ServerOptions as TlsServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A market as a deployment would hold it (fields may be deliberately wrong). */
export type RawMarket = Record<string, unknown>;

/**
 * What a route answers: a complete response (after `delayMs`), `hang` (never answers), `reset`
 * (drops the connection), or `stream` (writes the response itself: endless or slow bodies).
 */
export type Answer = { status?: number; headers?: Record<string, string | string[]>; body: string | Buffer; delayMs?: number } | { stream: (res: ServerResponse) => void } | 'hang' | 'reset';

/** Route overrides; anything not overridden behaves like a conforming deployment. */
export interface Deviations {
  /** Answer for `GET {prefix}/markets` (any query). */
  list?: (url: URL, req: IncomingMessage) => Answer;
  /** Answer for `GET {prefix}/markets/{id}`; return undefined for the default. */
  single?: (id: string, url: URL, req: IncomingMessage) => Answer | undefined;
  /** Anything else (checked first); return undefined to fall through. */
  other?: (url: URL, req: IncomingMessage) => Answer | undefined;
  /** Path prefix the market routes live under (e.g. `/v2` behind a redirect). */
  prefix?: string;
  /** Serve https:// with these TLS options (key, cert; ca and requestCert for mutual TLS). */
  tls?: TlsServerOptions;
}

/** A running deployment and the requests it has seen. */
export interface DeviantServer {
  url: string;
  requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** A conforming market number `i`: active, prices on the 0.01 tick summing to 1, a future date, no extra fields. */
export function conformingMarket(i: number, overrides: RawMarket = {}): RawMarket {
  const cents = 1 + ((i * 37) % 99);
  return {
    market_id: `DEV-${i}`,
    title: `Will deviant market ${i} resolve yes?`,
    status: 'active',
    yes_price: cents / 100,
    no_price: (100 - cents) / 100,
    resolution_date: '2099-12-31',
    ...overrides,
  };
}

/** `count` conforming markets DEV-1…DEV-count. */
export function conformingMarkets(count: number): RawMarket[] {
  return Array.from({ length: count }, (_, i) => conformingMarket(i + 1));
}

/** The list view of a market: every field but resolution_date. */
export function summaryOf(market: RawMarket): RawMarket {
  const { resolution_date: _date, ...rest } = market;
  return rest;
}

/** A JSON answer (application/json). */
export function json(value: unknown, status = 200, headers: Record<string, string | string[]> = {}): { status: number; headers: Record<string, string | string[]>; body: string } {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

/**
 * Starts a deployment serving `markets` (list: bare array of summaries; single: the market, or a
 * 404 JSON body) with the given deviations.
 */
export async function startDeviantServer(markets: readonly RawMarket[], deviations: Deviations = {}): Promise<DeviantServer> {
  const prefix = deviations.prefix ?? '';
  const byId = new Map(markets.map((m) => [String(m['market_id']), m]));
  const requests: DeviantServer['requests'] = [];
  const answer = (req: IncomingMessage, url: URL): Answer => {
    const other = deviations.other?.(url, req);
    if (other !== undefined) return other;
    if (url.pathname === `${prefix}/markets`) return deviations.list?.(url, req) ?? json(markets.map(summaryOf));
    const m = new RegExp(`^${prefix}/markets/([^/]+)$`).exec(url.pathname);
    if (m) {
      const id = decodeURIComponent(m[1] ?? '');
      const custom = deviations.single?.(id, url, req);
      if (custom !== undefined) return custom;
      const market = byId.get(id);
      return market ? json(market) : json({ error: 'not found', market_id: id }, 404);
    }
    return json({ error: 'no route' }, 404);
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    const reply = answer(req, new URL(req.url ?? '/', 'http://deviant.invalid'));
    if (reply === 'hang') return;
    if (reply === 'reset') {
      req.socket.destroy();
      return;
    }
    if ('stream' in reply) {
      reply.stream(res);
      return;
    }
    const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
    const send = () => {
      res.writeHead(reply.status ?? 200, { 'content-length': String(body.length), ...reply.headers });
      res.end(body);
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  };
  const server = deviations.tls ? createTlsServer(deviations.tls, handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${deviations.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Runs `body` against a deviant server started for it, and always closes the server. */
export async function withServer(markets: readonly RawMarket[], deviations: Deviations | undefined, body: (server: DeviantServer) => Promise<void>): Promise<void> {
  const server = await startDeviantServer(markets, deviations);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

/** A port that was free a moment ago and has nothing listening on it (connections are refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
