import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StubRuntime } from './http/stub-runtime.js';
import type { StubRequestListener } from './http/create-app.js';

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

/**
 * The server's request handler: the runtime answers the two market routes (and CORS preflights)
 * without entering Express's router; everything else goes to the Express app, whose first
 * middleware is the same runtime.handle, so both paths answer identically.
 */
export function createRequestHandler(options: { createApp: () => StubRequestListener; runtime: StubRuntime }): (req: IncomingMessage, res: ServerResponse) => void {
  const { runtime } = options;
  // The Express app is built on the first request the runtime does not answer, so start-up (and
  // test suites that only call the market routes) never load Express.
  let app: StubRequestListener | undefined;
  return (req, res) => {
    if (runtime.handle(req, res)) return;
    app ??= options.createApp();
    app(req, res);
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
