import { createServer } from 'node:net';

/**
 * A TCP port that is free on every interface right now (bound on 0.0.0.0, then released), for a
 * container on the host network that binds HOST=0.0.0.0. Another process could take it before the
 * container binds; the container would then exit with serve's EADDRINUSE message.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '0.0.0.0', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port was assigned'))));
    });
  });
}
