import { MarketStubError } from '../floor/market-stub-error.js';

/**
 * What a failed bind means for whoever asked to listen (the stub, the recording proxy): the
 * system errors a caller can fix (EADDRINUSE, EACCES, EADDRNOTAVAIL, ENOTFOUND) become one
 * MarketStubError `LISTEN_FAILED` naming the option to change (`port` or `host`), the address and
 * what to do; any other error is returned unchanged. `where` names the caller (`startMarketStub`).
 */
export function listenFailed(error: unknown, where: string, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, [string, string]> = {
    EADDRINUSE: ['port', `port ${port} is already in use on ${host}; choose another port (0 picks a free one)`],
    EACCES: ['port', `no permission to listen on port ${port} (ports below 1024 need privileges); choose another port (0 picks a free one)`],
    EADDRNOTAVAIL: ['host', `${host} is not an address of this machine; choose one it has (127.0.0.1, 0.0.0.0)`],
    ENOTFOUND: ['host', `host ${JSON.stringify(host)} does not resolve; give an IP address such as 127.0.0.1`],
  };
  const known = code === undefined ? undefined : reasons[code];
  if (!known) return error;
  return new MarketStubError({ code: 'LISTEN_FAILED', where, option: known[0], message: `${where}: cannot listen on ${host}:${port} (${code}): ${known[1]}`, cause: error });
}
