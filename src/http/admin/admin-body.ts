import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type getRawBody from 'raw-body';
import { decodeJsonBytes, JsonInputError, MAX_JSON_DEPTH, parseJsonText } from '../../core/bounded-json.js';
import { adminFailure } from './admin-error.js';

/**
 * Largest admin request body, bytes (about 1,400 markets); refused with 413 while it is read. Kept
 * small so that parsing and validating one body stays a few milliseconds: the market routes and
 * /healthz keep answering within 50 ms p99 while the admin API is abused (README, reliability).
 */
export const MAX_ADMIN_BODY_BYTES = 256 * 1024;

let rawBody: typeof getRawBody | undefined;

/**
 * Reads an admin request's body with raw-body and a byte limit: a declared Content-Length over
 * it is refused before a byte is read, a chunked body as soon as it passes it (the rest is never
 * read: the answer closes the connection); compressed bodies are refused. parseAdminBody then
 * checks the text is UTF-8, nested at most MAX_JSON_DEPTH levels (scanned before parsing, so no
 * parser or walker ever sees a deeper document) and valid JSON.
 * @throws AdminFailure LIMIT_EXCEEDED (413 body size, 400 depth) or OPTION_INVALID (`body`, 400/415).
 */
export async function readAdminBody(req: IncomingMessage, where: string): Promise<Buffer> {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') throw bodyError({ type: 'encoding.unsupported' }, where);
  rawBody ??= createRequire(import.meta.url)('raw-body') as typeof getRawBody;
  const length = req.headers['content-length'];
  let raw: Buffer;
  try {
    raw = await rawBody(req, { limit: MAX_ADMIN_BODY_BYTES, ...(length === undefined ? {} : { length }) });
  } catch (error) {
    throw bodyError(error, where);
  }
  return raw;
}

/**
 * Parses a body read by readAdminBody under the JSON rules of core/bounded-json.ts: UTF-8 without
 * a byte-order mark, nested at most MAX_JSON_DEPTH levels (scanned before parsing), valid JSON.
 * Member names (`__proto__`…) are refused by the controls each value goes to (checkJsonInput), in
 * the same words as the in-process handle.
 * @returns the value, or undefined for an empty body.
 * @throws AdminFailure as readAdminBody says.
 */
export function parseAdminBody(raw: Buffer, where: string): unknown {
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

/** body-parser's errors (http-errors with a `type`) as admin failures. */
function bodyError(error: unknown, where: string) {
  const e = error as { type?: string; status?: number; message?: string; length?: number };
  if (e.type === 'entity.too.large') {
    return adminFailure('LIMIT_EXCEEDED', where, `the body is larger than ${MAX_ADMIN_BODY_BYTES} bytes; nothing was read past the limit.`, { status: 413, option: 'body', expected: `at most ${MAX_ADMIN_BODY_BYTES} bytes`, found: e.length === undefined ? 'more' : `${e.length} bytes` });
  }
  if (e.type === 'encoding.unsupported') {
    return adminFailure('OPTION_INVALID', where, 'compressed bodies are not accepted; send plain JSON.', { status: 415, option: 'content-encoding', expected: 'identity (no Content-Encoding)' });
  }
  return adminFailure('OPTION_INVALID', where, `the body could not be read (${e.message ?? 'unknown error'}).`, { status: e.status && e.status >= 400 && e.status < 500 ? e.status : 400, option: 'body', expected: 'a complete request body' });
}
