import { NO_CONTENT_STATUSES, type Reply } from '../runtime/reply.js';
import type { StubAnswer } from '../runtime/answer-request.js';

/** What a fetch-based adapter (the Fetch handler, MSW) returns: a fetch Response, or a network error (`Response.error()`). */
export type Delivered = { kind: 'response'; response: Response } | { kind: 'network-error' };

/**
 * Turns the core's answer into what a fetch client sees, with the node:http adapter's semantics:
 * `reset` is a network error before any byte; `truncate` sends the head and half the body, then the
 * body stream errors (as a cut connection does); `malformed` a complete response of half the body;
 * `slow-body` the body in up to 20 chunks over `dribbleMs`. A HEAD or no-content status carries no
 * body (RFC 9110 §9.3.2, §15.3.5, §15.3.6, §15.4.5). Headers as node:http sends them, content-length included.
 */
export function toFetchResponse(answer: StubAnswer, method: string): Delivered {
  const { reply } = answer;
  const fault = reply.chunks && answer.fault !== 'reset' ? undefined : answer.fault;
  if (fault === 'reset') return { kind: 'network-error' };
  if (answer.preflight) return respond(reply.status, reply.headers, null);
  if (NO_CONTENT_STATUSES.has(reply.status)) return respond(reply.status, noContentHeaders(reply), null);
  // The common answer (a market, the list, nothing broken): Headers kept per shared body.
  if (reply.shared && fault === undefined && method !== 'HEAD' && !reply.chunks) return respond(reply.status, keptHeaders(reply.body, reply.headers), reply.body);
  const body = fault === 'malformed' ? reply.body.subarray(0, Math.max(1, Math.floor(reply.body.length / 2))) : reply.body;
  const headers = reply.chunks ? reply.headers : { ...reply.headers, 'content-length': String(body.length) };
  if (method === 'HEAD') return respond(reply.status, headers, null);
  if (reply.chunks) return respond(reply.status, headers, iterableStream(reply.chunks));
  if (fault === 'truncate') return respond(reply.status, headers, truncatedStream(body));
  if (fault === 'slow-body') return respond(reply.status, headers, dribbledStream(body, answer.dribbleMs));
  return respond(reply.status, headers, body);
}

/** A shared body's Headers (content-length included) and the reply headers they were built from, in order. */
interface KeptHeaders {
  names: string[];
  values: string[];
  headers: Headers;
}

// Per shared body (Reply.shared: a catalog's market or list bytes), the Headers last built for it.
// A catalog's bodies go when the catalog does (edits swap in a new one), and so do their entries.
const keptByBody = new WeakMap<Uint8Array, KeptHeaders>();

/**
 * The Headers of a complete answer around a shared body, built once per body and kept: when the
 * next answer with that body has the same field names, only the values that changed are set
 * (its `Date`, once a second of stub time, and with a running clock its `Last-Modified`), which
 * costs far less than a new Headers. Bun builds a Response from a Headers object faster than from
 * a record, Deno at the same cost (bench/README.md, "Figures behind the code's comments"). The
 * Response copies the fields (Fetch standard §5.4, fill), so changing the kept Headers afterwards,
 * or a client changing its own, changes no Response already made.
 */
function keptHeaders(body: Uint8Array, fields: Record<string, string>): Headers {
  const kept = keptByBody.get(body);
  if (kept !== undefined && sameNames(fields, kept)) {
    updateValues(fields, kept);
    return kept.headers;
  }
  const names = Object.keys(fields);
  const values = names.map((name) => fields[name] ?? '');
  const headers = new Headers(fields);
  headers.set('content-length', String(body.length));
  keptByBody.set(body, { names, values, headers });
  return headers;
}

/** Whether `fields` has the names `kept` was built from, in the same order. */
function sameNames(fields: Record<string, string>, kept: KeptHeaders): boolean {
  let i = 0;
  for (const name in fields) {
    if (kept.names[i] !== name) return false;
    i += 1;
  }
  return i === kept.names.length;
}

/** Sets on the kept Headers each value of `fields` that differs from the one it holds. */
function updateValues(fields: Record<string, string>, kept: KeptHeaders): void {
  let i = 0;
  for (const name in fields) {
    const value = fields[name] ?? '';
    if (kept.values[i] !== value) {
      kept.headers.set(name, value);
      kept.values[i] = value;
    }
    i += 1;
  }
}

function respond(status: number, headers: Record<string, string> | Headers, body: ConstructorParameters<typeof Response>[0]): Delivered {
  return { kind: 'response', response: new Response(body, { status, headers }) };
}

/** 204 and 304 send neither content-type nor content-length; 205 says `content-length: 0` (RFC 9110 §15.3.6). */
function noContentHeaders(reply: Reply): Record<string, string> {
  const headers = { ...reply.headers };
  delete headers['content-type'];
  delete headers['content-length'];
  if (reply.status === 205) headers['content-length'] = '0';
  return headers;
}

/** A streamed list (huge generated catalogs), pulled chunk by chunk: flat memory. */
function iterableStream(chunks: Iterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.iterator]();
  return new ReadableStream({
    pull(controller) {
      const next = iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

/** Half the body, then the stream errors: the client's body read fails as on a cut connection. */
function truncatedStream(body: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(body.subarray(0, Math.floor(body.length / 2)));
      controller.error(new TypeError('market-stub: connection closed mid-body (fault=truncate)'));
    },
  });
}

/** The body in up to 20 chunks, one every `dribbleMs / chunks` ms. */
function dribbledStream(body: Uint8Array, dribbleMs: number): ReadableStream<Uint8Array> {
  const chunks = Math.max(1, Math.min(20, body.length));
  const size = Math.ceil(body.length / chunks);
  let i = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream({
    pull(controller) {
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          controller.enqueue(body.subarray(i * size, (i + 1) * size));
          i += 1;
          if (i >= chunks) controller.close();
          resolve();
        }, dribbleMs / chunks);
      });
    },
    cancel() {
      clearTimeout(timer);
    },
  });
}
