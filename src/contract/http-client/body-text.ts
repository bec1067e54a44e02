import { Utf8Watch } from '../../floor/bounded-json.js';

/**
 * Turns a body's bytes into UTF-8 text chunk by chunk, the way `Response.text()` would (WHATWG
 * "UTF-8 decode": a leading byte-order mark is dropped, invalid bytes become U+FFFD), while
 * noting what that hides: whether a BOM was there, where the first bytes that are not UTF-8 were
 * (RFC 8259 §8.1; such a body breaks the JSON rules of floor/bounded-json.ts), and how many bytes came.
 */
export class BodyText {
  /** True when the body started with the UTF-8 byte-order mark EF BB BF. */
  bom = false;
  /** Bytes written so far. */
  bytes = 0;
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private head: Uint8Array | undefined = new Uint8Array(0);
  private readonly utf8 = new Utf8Watch();

  /** Byte offset of the first sequence that is not UTF-8 (known for sure once `end` was called), or undefined. */
  get notUtf8At(): number | undefined {
    return this.utf8.offset;
  }

  /** Decodes the next chunk; returns the text it completes (possibly empty). */
  write(chunk: Uint8Array): string {
    this.bytes += chunk.length;
    this.utf8.push(chunk);
    if (this.head === undefined) return this.decoder.decode(chunk, { stream: true });
    const joined = new Uint8Array(this.head.length + chunk.length);
    joined.set(this.head);
    joined.set(chunk, this.head.length);
    if (joined.length < 3) {
      this.head = joined;
      return '';
    }
    this.head = undefined;
    return this.decoder.decode(this.stripBom(joined), { stream: true });
  }

  /** Flushes what is left (an incomplete sequence becomes U+FFFD). */
  end(): string {
    this.utf8.end();
    const rest = this.head;
    this.head = undefined;
    return (rest && rest.length > 0 ? this.decoder.decode(this.stripBom(rest), { stream: true }) : '') + this.decoder.decode();
  }

  private stripBom(bytes: Uint8Array): Uint8Array {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      this.bom = true;
      return bytes.subarray(3);
    }
    return bytes;
  }
}

/** A whole body as text (bounded by the client's size limit), with its facts. */
export interface CollectedBody {
  text: string;
  bytes: number;
  bom: boolean;
  /** Byte offset of the first sequence that is not UTF-8, when there is one. */
  notUtf8At?: number;
}

/**
 * Reads a body to its end as text; with `maxBytes`, keeps only that many leading bytes' text
 * (for describing an error body) and stops reading past it.
 */
export async function collectBodyText(chunks: AsyncIterable<Uint8Array>, maxBytes = Number.POSITIVE_INFINITY): Promise<CollectedBody> {
  const text = new BodyText();
  const parts: string[] = [];
  for await (const chunk of chunks) {
    const room = maxBytes - text.bytes;
    parts.push(text.write(room < chunk.length ? chunk.subarray(0, Math.max(0, room)) : chunk));
    if (text.bytes >= maxBytes) break;
  }
  parts.push(text.end());
  return { text: parts.join(''), bytes: text.bytes, bom: text.bom, ...(text.notUtf8At === undefined ? {} : { notUtf8At: text.notUtf8At }) };
}
