import { packageVersion } from '../floor/package-info.js';
import type { JournaledResponse, JournalEntry } from './request-journal.js';

/** One HAR name/value pair (HAR 1.2 §headers, §queryString). */
export interface HarPair {
  name: string;
  value: string;
}

/**
 * One entry of an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/): a
 * journaled request and the answer the stub decided for it. The `_marketStub…` members are HAR's
 * custom fields (names starting with `_`): the journal's sequence number, behaviours, the
 * explanation (docs/explain.md) and trace context.
 */
export interface HarEntry {
  startedDateTime: string;
  /** Time from receipt to the end of the response, ms. */
  time: number;
  request: { method: string; url: string; httpVersion: string; cookies: []; headers: HarPair[]; queryString: HarPair[]; headersSize: -1; bodySize: number };
  response: {
    status: number; statusText: string; httpVersion: string; cookies: []; headers: HarPair[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; comment?: string };
    redirectURL: string; headersSize: -1; bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _marketStubSeq: number;
  _marketStubBehaviour: string[];
  _marketStubExplain?: JournalEntry['explain'];
  _marketStubTrace?: JournalEntry['trace'];
  _marketStubRequestId?: string;
  _error?: string;
}

/** A journal entry and the response it recorded, as the journal's `exchanges` yields them. */
export interface JournaledExchange {
  entry: JournalEntry;
  response: JournaledResponse | undefined;
}

/**
 * The HAR 1.2 document of journaled exchanges, as JSON text in pieces: the `log` opening, then one
 * entry at a time (each serialised when it is reached, so the export holds one entry's text at a
 * time besides the exchanges it reads), then the closing. Request and response headers are as
 * journaled (secret values already `[redacted]`, secret query values too); a body kept by the
 * journal (at most MAX_JOURNAL_BODY_BYTES) is the response's `content.text`, as UTF-8 text or,
 * when it is not valid UTF-8, base64 (`encoding`). Every string goes through JSON.stringify, so
 * the document is valid JSON whatever bytes a request carried.
 */
export function* harChunks(exchanges: Iterable<JournaledExchange>): Generator<string> {
  const creator = { name: 'market-stub', version: packageVersion(), comment: 'the request journal: GET /__stub/requests.har' };
  yield `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`;
  let first = true;
  for (const exchange of exchanges) {
    yield `${first ? '' : ','}${JSON.stringify(harEntry(exchange))}`;
    first = false;
  }
  yield ']}}';
}

/** One exchange as a HAR entry. */
export function harEntry({ entry, response }: JournaledExchange): HarEntry {
  const har: HarEntry = {
    startedDateTime: entry.time,
    time: entry.durationMs,
    request: {
      method: entry.method, url: requestUrl(entry), httpVersion: 'HTTP/1.1', cookies: [], headers: pairs(entry.headers),
      queryString: Object.entries(entry.query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one) => ({ name, value: one }))),
      headersSize: -1, bodySize: entry.method === 'GET' || entry.method === 'HEAD' ? 0 : -1,
    },
    response: harResponse(entry.status, response),
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    _marketStubSeq: entry.seq,
    _marketStubBehaviour: entry.behaviour,
  };
  if (entry.explain !== undefined) har._marketStubExplain = entry.explain;
  if (entry.trace !== undefined) har._marketStubTrace = entry.trace;
  if (entry.requestId !== undefined) har._marketStubRequestId = entry.requestId;
  if (entry.status === null) har._error = 'no response: the connection was reset (a transport fault, or the client went away)';
  return har;
}

/** The response part: status (0 when none was sent), headers, and content as far as the journal kept it. */
function harResponse(status: number | null, response: JournaledResponse | undefined): HarEntry['response'] {
  const headers = response === undefined ? [] : pairs(response.headers);
  const header = (name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;
  return {
    status: status ?? 0, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers,
    content: harContent(response, header('content-type') ?? 'x-unknown'),
    redirectURL: header('location') ?? '', headersSize: -1, bodySize: response === undefined ? -1 : response.bodySize,
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `content`: the body as text (UTF-8) or base64, or a comment saying why it is not there. */
function harContent(response: JournaledResponse | undefined, mimeType: string): HarEntry['response']['content'] {
  if (response === undefined) return { size: 0, mimeType, comment: 'no response recorded' };
  const size = Math.max(response.bodySize, 0);
  if (response.body === undefined) {
    if (response.bodySize === 0) return { size, mimeType };
    return { size, mimeType, comment: response.bodySize < 0 ? 'a list sent in chunks: its body is not journaled' : 'a body larger than the journal keeps (docs/limits.md): not journaled' };
  }
  try {
    return { size, mimeType, text: UTF8.decode(response.body) };
  } catch {
    return { size, mimeType, text: base64(response.body), encoding: 'base64' };
  }
}

/** Bytes as base64 (RFC 4648 §4), with the web global `btoa` over chunks of the bytes as Latin-1 text. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let from = 0; from < bytes.length; from += 8192) binary += String.fromCharCode(...bytes.subarray(from, from + 8192));
  return btoa(binary);
}

/** Headers as HAR pairs: a value per pair, repeated values each their own pair. */
function pairs(headers: Readonly<Record<string, string | string[] | undefined>>): HarPair[] {
  const out: HarPair[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.push({ name, value: one });
  }
  return out;
}

/** The request's absolute URL: its Host (or `localhost`), its path and its query as journaled (secret values redacted). */
function requestUrl(entry: JournalEntry): string {
  const host = typeof entry.headers['host'] === 'string' && /^[\w.:[\]-]+$/.test(entry.headers['host']) ? entry.headers['host'] : 'localhost';
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(entry.query)) for (const one of Array.isArray(value) ? value : [value]) query.append(name, one);
  const search = query.toString();
  return `http://${host}${uriPath(entry.path)}${search === '' ? '' : `?${search}`}`;
}

/** A path as journaled (as sent), made a valid RFC 3986 path: a `%` not starting an escape, and any character outside `pchar` and `/`, percent-encoded as UTF-8 (a lone surrogate as U+FFFD). */
function uriPath(path: string): string {
  return path.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD';
    }
  });
}
