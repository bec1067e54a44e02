// A minimal HTTP GET on node:http (not fetch: undici's lazy load costs tens of ms on first use,
// which would land inside cold-start timings), and a free-port finder.
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';

/** A complete response. */
export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A keep-alive agent for harness checks (many sequential requests to the same server). */
export function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 8 });
}

/**
 * GETs `url` and reads the whole body.
 * @param agent a keep-alive agent, or false for a fresh connection (cold-start polling).
 * @throws the socket error (ECONNREFUSED while a server is still starting), or an Error after `timeoutMs`.
 */
export function httpGet(url: string, options: { timeoutMs: number; agent?: Agent | false }): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`GET ${url} got no response within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('could not read the port of a probe socket');
  return address.port;
}
