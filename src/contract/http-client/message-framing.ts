import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ClientTls } from './tls-failure.js';

/**
 * How a deployment frames its answers, read as RFC 9112 §6 and RFC 9110 §8.4 say, and named the
 * way `curl -v` would show it (the header, what was expected, what came):
 * - `Transfer-Encoding` and `Content-Length` together (RFC 9112 §6.1: a sender MUST NOT; §6.3
 *   item 3: such a message may be an attempt at request smuggling), which undici refuses;
 * - a `Content-Length` repeated or listed (`9, 10`; even `9, 9`: RFC 9110 §8.6's ABNF is one
 *   number, and undici refuses any list), or one the body does not fill;
 * - a transfer coding other than `chunked` (`Transfer-Encoding: gzip, chunked`): the checker
 *   sends no `TE`, so none may be used (RFC 9112 §7.4); undici passes such a body on undecoded;
 * - a coded body whose `Content-Length` is its decoded length (RFC 9110 §8.6: the length counts
 *   the bytes sent, after the content coding), which leaves the client waiting for bytes that
 *   never come.
 */

/**
 * Whether an error is an HTTP client's refusal of a message's framing: undici's (check, record) or
 * node:http's llhttp `HPE_*` parse errors (the recording proxy's direct calls), each in its parser's words.
 */
export function isFramingRefusal(error: unknown): boolean {
  const e = error as { code?: string; message?: string; name?: string } | undefined;
  const parser = e?.name === 'HTTPParserError' || (typeof e?.code === 'string' && e.code.startsWith('HPE_'));
  return e?.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || (parser && /Content-Length|Transfer-Encoding|chunk/i.test(e?.message ?? ''));
}

/** The framing fields of an answer as they were sent, each line kept (a repeated field twice). */
export interface FramingFields {
  contentLength: string[];
  transferEncoding: string[];
  contentEncoding: string[];
}

/**
 * Why an answer's framing is wrong, from its fields as sent: one sentence naming the header, what
 * was expected and what was received; undefined when the fields frame the message correctly.
 */
export function describeFraming(fields: FramingFields): string | undefined {
  const lengths = fields.contentLength.flatMap((line) => line.split(',').map((v) => v.trim()));
  const shownLength = fields.contentLength.map((v) => `Content-Length: ${v}`).join(', ');
  if (fields.transferEncoding.length > 0 && lengths.length > 0) {
    return `the answer is framed twice: Transfer-Encoding: ${fields.transferEncoding.join(', ')} and ${shownLength}; expected one of them (RFC 9112 §6.1: a sender MUST NOT send Content-Length with Transfer-Encoding; §6.3: the message cannot be trusted)`;
  }
  if (lengths.length > 1) {
    return `Content-Length is ${fields.contentLength.length > 1 ? `sent ${fields.contentLength.length} times` : 'a list'} (${shownLength}); expected one decimal number (RFC 9110 §8.6; RFC 9112 §6.3 item 5: differing values are an unrecoverable error)`;
  }
  const codings = fields.transferEncoding.flatMap((line) => line.split(',').map((c) => c.trim().toLowerCase())).filter((c) => c !== '');
  const other = codings.filter((c) => c !== 'chunked');
  if (other.length > 0) {
    return `Transfer-Encoding: ${fields.transferEncoding.join(', ')} applies ${other.join(', ')}, a transfer coding the checker never asked for (it sends no TE); expected chunked only, or a Content-Encoding for compression (RFC 9112 §7.4: a server MUST NOT send a transfer coding the request's TE did not list)`;
  }
  return undefined;
}

/** The framing reading of a transfer coding header as undici delivered it (flattened with `, `): undefined when it is `chunked` or absent. */
export function unaskedTransferCoding(transferEncoding: string | undefined): string | undefined {
  if (transferEncoding === undefined) return undefined;
  return describeFraming({ contentLength: [], transferEncoding: [transferEncoding], contentEncoding: [] });
}

/**
 * Why a coded body never completed (a timeout, a closed connection) when its `Content-Length` is
 * its decoded size: the coded bytes received (`received`, fewer than announced) decoded to exactly
 * `Content-Length` bytes (`decoded`). Undefined otherwise.
 */
export function decodedLengthAsContentLength(contentLength: string | undefined, coding: string, received: number, decoded: number): string | undefined {
  const declared = contentLength !== undefined && /^\d+$/.test(contentLength.trim()) ? Number(contentLength) : undefined;
  if (declared === undefined || received >= declared || decoded !== declared) return undefined;
  return `Content-Length: ${declared} is the decoded length: the ${coding} body is ${received} bytes and decodes whole to ${decoded}; expected Content-Length: ${received} (RFC 9110 §8.6: it counts the bytes sent, after the content coding), so the answer never ends for a client that trusts it`;
}

/**
 * Asks once more for `url` on a socket of its own and reads the answer's header section as sent
 * (at most 64 KiB, within `timeoutMs`), to name the framing undici refused: its parser says what
 * broke, not which values came. A direct connection only (never through a forward proxy).
 * @returns the framing fields, or undefined when the header section could not be read.
 */
export function probeFraming(url: URL, headers: Readonly<Record<string, string>>, tls: ClientTls, timeoutMs: number): Promise<FramingFields | undefined> {
  return new Promise((resolve) => {
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket: Socket = url.protocol === 'https:' ? tlsConnect({ host, port, servername: /^[\d.]+$|:/.test(host) ? undefined : host, ...tls }) : netConnect({ host, port });
    let head = '';
    const done = (fields: FramingFields | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(fields);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      const lines = Object.entries({ ...headers, host: url.host, connection: 'close' }).map(([name, value]) => `${name}: ${value}`);
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end !== -1) done(framingFields(head.slice(0, end)));
      else if (head.length > 65_536) done(undefined);
    });
    socket.once('error', () => done(undefined));
    socket.once('close', () => done(undefined));
  });
}

/** The framing fields of a header section (status line first), each field line kept. */
function framingFields(section: string): FramingFields {
  const fields: FramingFields = { contentLength: [], transferEncoding: [], contentEncoding: [] };
  for (const line of section.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') fields.contentLength.push(value);
    else if (name === 'transfer-encoding') fields.transferEncoding.push(value);
    else if (name === 'content-encoding') fields.contentEncoding.push(value);
  }
  return fields;
}
