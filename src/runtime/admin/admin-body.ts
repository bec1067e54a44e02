import { concatBytes } from '../../floor/bytes.js';
import { MAX_ADMIN_BODY_BYTES, MAX_JSON_DEPTH } from '../../floor/limits.js';
import { decodeJsonBytes, JsonInputError, parseJsonText } from '../../floor/bounded-json.js';
import type { StubRequest } from '../answer-request.js';
import { AdminFailure, adminFailure } from './admin-error.js';


const NO_BYTES = new Uint8Array(0);

/**
 * Reads an admin request's body with a byte limit (`limit`: MAX_ADMIN_BODY_BYTES, or an admin
 * endpoint's own, admin-endpoint.ts): a declared Content-Length over it is refused
 * before a byte is read, a chunked body as soon as it passes it (the rest is never read: the
 * adapter closes the connection), a body shorter or longer than its Content-Length is refused;
 * compressed bodies are refused. parseAdminBody then checks the text is UTF-8, nested at most
 * MAX_JSON_DEPTH levels (scanned before parsing, so no parser or walker ever sees a deeper
 * document) and valid JSON.
 * @throws AdminFailure LIMIT_EXCEEDED (413 body size) or OPTION_INVALID (`body` 400, `content-encoding` 415).
 */
export async function readAdminBody(request: StubRequest, where: string, limit = MAX_ADMIN_BODY_BYTES): Promise<Uint8Array> {
  const encoding = single(request.headers['content-encoding']);
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    throw adminFailure('OPTION_INVALID', where, 'compressed bodies are not accepted; send plain JSON.', { status: 415, option: 'content-encoding', expected: 'identity (no Content-Encoding)' });
  }
  const lengthText = single(request.headers['content-length']);
  const declared = lengthText === undefined ? undefined : /^\d{1,15}$/.test(lengthText.trim()) ? Number(lengthText.trim()) : Number.NaN;
  if (Number.isNaN(declared)) throw unreadable(where, 'invalid Content-Length');
  if (declared !== undefined && declared > limit) throw tooLarge(where, `${declared} bytes`, limit);
  const bytes = await collect(request.body, where, limit);
  if (declared !== undefined && bytes.length !== declared) throw unreadable(where, 'request size did not match content length');
  return bytes;
}

/** The body's bytes, stopping (and refusing) as soon as they pass `limit` (MAX_ADMIN_BODY_BYTES for the control routes). */
async function collect(body: StubRequest['body'], where: string, limit: number): Promise<Uint8Array> {
  if (body === undefined) return NO_BYTES;
  if (body instanceof Uint8Array) {
    if (body.length > limit) throw tooLarge(where, `${body.length} bytes`, limit);
    return body;
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      total += chunk.length;
      // Leaving the loop stops reading: the rest of the body is never read.
      if (total > limit) throw tooLarge(where, 'more', limit);
      parts.push(chunk);
    }
  } catch (error) {
    if (error instanceof AdminFailure) throw error;
    throw unreadable(where, (error as Error).message || 'request aborted');
  }
  return parts.length === 1 ? (parts[0] as Uint8Array) : concatBytes(parts);
}

/** The one value of a header field (a repeated one has been refused before the body is read). */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function tooLarge(where: string, found: string, limit: number): AdminFailure {
  return adminFailure('LIMIT_EXCEEDED', where, `the body is larger than ${limit} bytes; nothing was read past the limit.`, { status: 413, option: 'body', expected: `at most ${limit} bytes`, found });
}

function unreadable(where: string, why: string): AdminFailure {
  return adminFailure('OPTION_INVALID', where, `the body could not be read (${why}).`, { status: 400, option: 'body', expected: 'a complete request body' });
}

/**
 * Parses a body read by readAdminBody under the JSON rules of floor/bounded-json.ts: UTF-8 without
 * a byte-order mark, nested at most MAX_JSON_DEPTH levels (scanned before parsing), valid JSON.
 * Member names (`__proto__`…) are refused by the controls each value goes to (checkJsonInput), in
 * the same words as the in-process handle.
 * @returns the value, or undefined for an empty body.
 * @throws AdminFailure as readAdminBody says.
 */
export function parseAdminBody(raw: Uint8Array, where: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return parseJsonText(decodeJsonBytes(raw), MAX_JSON_DEPTH, false);
  } catch (error) {
    if (!(error instanceof JsonInputError)) throw error;
    const facts = { option: 'body', expected: error.expected, found: error.found };
    if (error.rule === 'depth') throw adminFailure('LIMIT_EXCEEDED', where, `the body is nested deeper than ${MAX_JSON_DEPTH} levels${error.pointer === undefined ? '' : ` (${error.found})`}.`, { status: 400, ...facts });
    if (error.rule === 'utf8') throw adminFailure('OPTION_INVALID', where, `the body is not UTF-8 text (RFC 8259 §8.1): ${error.found}.`, facts);
    if (error.rule === 'bom') throw adminFailure('OPTION_INVALID', where, 'the body starts with a byte-order mark (RFC 8259 §8.1); send JSON text without one.', facts);
    throw adminFailure('OPTION_INVALID', where, `the body is not valid JSON: ${error.found}.`, facts);
  }
}
