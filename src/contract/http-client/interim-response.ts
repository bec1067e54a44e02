import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import type { ClientTls } from './tls-failure.js';

/** An answer whose body is still to be read: what the deployment client needs of one. */
export interface RawAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>;
  body: Readable;
}

/**
 * Whether undici refused an answer for beginning with an interim `100 Continue` it did not ask
 * for: undici ends such a connection with `SocketError: bad response` (its client does not
 * support 100 responses, nodejs/undici#201), while RFC 9110 §15.2 says a client must accept any
 * 1xx before the final answer, even unexpected. Other 1xx (103 Early Hints) undici already skips.
 */
export function isRefusedInterim(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === 'UND_ERR_SOCKET' && e.message === 'bad response';
}

/**
 * GETs `url` once with Node's HTTP client, which skips every interim 1xx answer (its
 * `information` event) and reads the final one: the way round undici's refusal of `100
 * Continue`. Same headers, TLS material, time limit (`signal`) as the undici attempt; a direct
 * connection (through a forward proxy this way round is not taken: docs/networks.md).
 * @throws the request's error (ECONNRESET, a TLS error...), mapped by the caller like undici's.
 */
export function getSkippingInterim(url: URL, headers: Record<string, string>, tls: ClientTls, signal: AbortSignal): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(url, { method: 'GET', headers, signal, ...(url.protocol === 'https:' ? tls : {}), agent: false });
    outgoing.once('response', (answer) => resolve({ statusCode: answer.statusCode ?? 0, headers: answer.headers, body: answer }));
    outgoing.once('error', reject);
    outgoing.end();
  });
}
