import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { MarketCatalog } from './catalog/market-catalog.js';
import { respondToMarkets } from './http/market-responder.js';
import { writeReply } from './http/reply.js';

/** Where to listen. */
export interface ListenOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface address, e.g. 127.0.0.1 (default for local use) or 0.0.0.0 (containers). */
  host: string;
  /** How long close() lets in-flight requests finish before cutting connections, in ms. @default 800 */
  graceMs?: number;
}

/** A listening stub. */
export interface RunningServer {
  /** `http://ADDRESS:PORT` with the address actually bound (IPv6 in brackets), never `localhost`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly server: Server;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), closes idle keep-alive sockets. Idempotent. */
  close(): Promise<void>;
}

export interface RequestHandlerOptions {
  app: Express;
  catalog: MarketCatalog;
  /** Request log; one line per request (method, path, status, ms). Omit for none. */
  logger?: Logger;
}

/**
 * The server's request handler: the two market routes go through a lean path that skips
 * Express's router (same respondToMarkets as the app, so both paths answer identically);
 * everything else goes to the Express app.
 */
export function createRequestHandler(options: RequestHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { app, catalog, logger } = options;
  return (req, res) => {
    if (logger) {
      const start = process.hrtime.bigint();
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        logger.info({ method: req.method, path: req.url, status: res.statusCode, ms: Math.round(ms * 100) / 100 }, `${req.method} ${req.url} ${res.statusCode} ${ms.toFixed(1)} ms`);
      });
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const reply = respondToMarkets(catalog, { method: req.method ?? 'GET', path: q === -1 ? url : url.slice(0, q) });
    if (reply) writeReply(res, reply);
    else app(req, res);
  };
}

/**
 * Listens with `handler` and resolves once bound.
 * @throws Error with code EADDRINUSE / EACCES / EADDRNOTAVAIL when the address cannot be bound.
 */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, options: ListenOptions): Promise<RunningServer> {
  const server = createServer({ keepAliveTimeout: 5_000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const graceMs = options.graceMs ?? 800;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    host: address.address,
    port: address.port,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
