import { connect } from 'node:net';

/** A response as read off the wire. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Whatever was not a well-formed HTTP/1.1 response, when something was not. */
  malformed?: string;
}

/** Sends raw bytes on a fresh connection, half-closes it (so a truncated request ends there) and reads until the server closes it (bounded by `timeoutMs`). */
export function exchange(port: number, request: Buffer | string, timeoutMs = 5_000, halfClose = true): Promise<Buffer> {
  return new Promise((resolve) => {
    // Node answers a half-closed connection only what it can answer at once (a delayed reply meets a closed socket), so complete requests are not half-closed.
    const socket = connect(port, '127.0.0.1', () => (halfClose ? socket.end(request) : socket.write(request)));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.on('error', () => undefined);
  });
}

/** Parses the first final HTTP/1.1 response in `raw` (interim 1xx skipped; Content-Length or chunked body; none for HEAD). */
export function parseResponse(input: Buffer, method = 'GET'): WireResponse {
  let raw = input;
  while (/^HTTP\/1\.1 1\d\d /.test(raw.subarray(0, 13).toString('latin1'))) {
    const interimEnd = raw.indexOf('\r\n\r\n');
    if (interimEnd === -1) break;
    raw = raw.subarray(interimEnd + 4);
  }
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: Buffer.alloc(0), malformed: `no complete head (${raw.length} bytes)` };
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.1 (\d{3}) /.exec(`${statusLine} `);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const status = Number(m?.[1] ?? 0);
  let rest = raw.subarray(end + 4);
  if (method === 'HEAD') return { status, headers, body: rest, ...(m ? {} : { malformed: `status line ${JSON.stringify(statusLine)}` }) };
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd === -1) return { status, headers, body: Buffer.concat(parts), malformed: 'unterminated chunked body' };
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (size === 0) break;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
    return { status, headers, body: Buffer.concat(parts) };
  }
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const body = length === undefined ? rest : rest.subarray(0, length);
  return { status, headers, body, ...(length !== undefined && rest.length < length ? { malformed: `body ${rest.length} of ${length} bytes` } : {}), ...(m ? {} : { malformed: `status line ${JSON.stringify(statusLine)}` }) };
}

/** `exchange` for tests that send one complete request to a stub URL: the raw answer as latin1 text. */
export async function rawExchange(url: string, text: string, timeoutMs = 3_000): Promise<string> {
  return (await exchange(Number(new URL(url).port), text, timeoutMs, false)).toString('latin1');
}
