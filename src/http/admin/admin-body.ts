import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type getRawBody from 'raw-body';
import { jsonSyntaxReason } from '../../catalog/load-fixtures.js';
import { MAX_JSON_DEPTH } from '../../catalog/json-input.js';
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
 * Parses a body read by readAdminBody: UTF-8, nested at most MAX_JSON_DEPTH levels, valid JSON.
 * @returns the value, or undefined for an empty body.
 * @throws AdminFailure as readAdminBody says.
 */
export function parseAdminBody(raw: Buffer, where: string): unknown {
  if (raw.length === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw adminFailure('OPTION_INVALID', where, 'the body is not UTF-8 text (RFC 8259 §8.1).', { option: 'body', expected: 'UTF-8 JSON', found: 'bytes that are not UTF-8' });
  }
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    throw adminFailure('LIMIT_EXCEEDED', where, `the body is nested deeper than ${MAX_JSON_DEPTH} levels.`, { status: 400, option: 'body', expected: `JSON nested at most ${MAX_JSON_DEPTH} levels`, found: `more than ${MAX_JSON_DEPTH} levels` });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = jsonSyntaxReason(error, text);
    throw adminFailure('OPTION_INVALID', where, `the body is not valid JSON: ${reason}.`, { option: 'body', expected: 'valid JSON', found: reason });
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

/**
 * Whether JSON text nests arrays/objects deeper than `max` (brackets inside strings ignored). One
 * linear pass over the text, no allocation: cheaper than parsing, and it bounds what parsing and
 * validation then see (a million nested `[` parse fine in V8 but cost ~70 ms, and recursive
 * walkers overflow the stack).
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
