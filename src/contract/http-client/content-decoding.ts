import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** The content codings market-stub decodes (RFC 9110 §8.4.1); it asks for `gzip, br`. */
export const ACCEPT_ENCODING = 'gzip, br';

/**
 * Streaming decoders for a Content-Encoding value, in the order to apply them (codings are
 * listed in the order they were applied, so they are undone last first). `identity` and an empty
 * value need none. Zlib streams work off the event loop, so decoding one body never blocks another.
 * @returns the decoders, or `unsupported` naming the coding market-stub cannot decode.
 */
export function contentDecoders(encoding: string | undefined): { decoders: Transform[]; codings: string[] } | { unsupported: string } {
  const codings = (encoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  const decoders: Transform[] = [];
  for (const coding of [...codings].reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip());
    else if (coding === 'br') decoders.push(createBrotliDecompress());
    else if (coding === 'deflate') decoders.push(createInflate());
    else return { unsupported: coding };
  }
  return { decoders, codings };
}

/** Why a body's Content-Encoding is not decodable: `the gzip body could not be decoded: incorrect header check (Z_DATA_ERROR)`. */
export function decodeFailureReason(codings: readonly string[], error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const cause = e.code === 'Z_BUF_ERROR' ? 'it ends before the compressed data does (unexpected end of file)' : e.message;
  return `the ${codings.join(', ')} body could not be decoded: ${cause}${e.code ? ` (${e.code})` : ''}`;
}

/** Why a coding is not decodable at all. */
export function unsupportedCodingReason(encoding: string | undefined, coding: string): string {
  return `the body has Content-Encoding ${JSON.stringify(encoding ?? coding)}: ${JSON.stringify(coding)} is not gzip, br or deflate (market-stub sends Accept-Encoding: ${ACCEPT_ENCODING})`;
}
