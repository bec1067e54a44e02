import type { ReplyEdit } from './deviation-definition.js';
import { concatBytes, copyBytes, utf8 } from '../floor/bytes.js';

/** The UTF-8 byte-order mark (RFC 8259 §8.1: JSON implementations MUST NOT add one). */
const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

/** What `body: 'html'` serves: the page a proxy, CDN or maintenance mode sends where JSON was expected. */
export const HTML_PAGE = utf8('<!doctype html>\n<html><head><title>Down for maintenance</title></head><body><h1>We will be back soon</h1><p>This page stands where the JSON was expected (a market-stub deviation).</p></body></html>\n');

/** A streamed list is cut within its first this many bytes. */
const TRUNCATE_WINDOW = 1_048_576;

/**
 * A body with a ReplyEdit's byte changes: `body` (replace with an HTML page, cut in half, or nest
 * a list one level deeper), then the byte-order mark. Status, media type and delay are the HTTP
 * layer's. Pure: a new buffer, the given one untouched.
 */
export function editBody(body: Uint8Array, edit: ReplyEdit): Uint8Array {
  let out = body;
  if (edit.body === 'html') out = HTML_PAGE;
  else if (edit.body === 'truncated') out = out.subarray(0, Math.max(1, Math.floor(out.length / 2)));
  else if (edit.body === 'nested') out = concatBytes([nestPrefix(out[0]), out, nestSuffix(out[0])]);
  return edit.bom ? concatBytes([BOM, out]) : copyBytes(out);
}

/** editBody for a body sent in chunks (a list too large to hold): the same edits, flat memory; `truncated` cuts within the first MiB. */
export function* editChunks(chunks: Iterable<Uint8Array>, edit: ReplyEdit): Generator<Uint8Array> {
  if (edit.bom) yield BOM;
  if (edit.body === 'html') {
    yield HTML_PAGE;
    return;
  }
  if (edit.body === 'truncated') {
    const head: Uint8Array[] = [];
    let size = 0;
    for (const chunk of chunks) {
      head.push(chunk);
      size += chunk.length;
      if (size >= TRUNCATE_WINDOW) break;
    }
    const joined = concatBytes(head);
    yield joined.subarray(0, Math.max(1, Math.floor(Math.min(size, TRUNCATE_WINDOW) / 2)));
    return;
  }
  let first: number | undefined;
  for (const chunk of chunks) {
    if (edit.body === 'nested' && first === undefined && chunk.length > 0) {
      first = chunk[0];
      yield nestPrefix(first);
    }
    yield chunk;
  }
  if (edit.body === 'nested') yield nestSuffix(first);
}

/** A bare array `[…]` goes into `{"payload":{"markets":[…]}}`, an object `{…}` into `{"payload":{…}}` (no standard names `payload`: check finds no list). */
function nestPrefix(firstByte: number | undefined): Uint8Array {
  return utf8(firstByte === 0x5b ? '{"payload":{"markets":' : '{"payload":');
}

function nestSuffix(firstByte: number | undefined): Uint8Array {
  return utf8(firstByte === 0x5b ? '}}' : '}');
}
