// A real HTTP forward proxy on loopback for the network tests (the `proxy` package, Squid-like):
// absolute-form requests for http:// targets, CONNECT tunnels for https:// ones. It records what it
// saw: the request line's target and the headers of each request or CONNECT.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';

/** One request the proxy received: `GET http://127.0.0.1:5000/markets` or `CONNECT 127.0.0.1:5000`. */
export interface ProxiedRequest {
  method: string;
  target: string;
  headers: IncomingHttpHeaders;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a forward proxy; with `credentials` ("user:password") it answers 407 to any request
 * without the matching `Proxy-Authorization: Basic`.
 */
export async function startForwardProxy(options: { credentials?: string } = {}): Promise<ForwardProxy> {
  const seen: ProxiedRequest[] = [];
  const server = createServer();
  server.prependListener('request', (req) => seen.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers }));
  server.prependListener('connect', (req) => seen.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers }));
  const proxy = createProxy(server);
  if (options.credentials !== undefined) {
    const expected = `Basic ${Buffer.from(options.credentials).toString('base64')}`;
    proxy.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
