/**
 * Bytes over web-standard values (Uint8Array, TextEncoder, TextDecoder) for the platform-neutral
 * core. Where Node's Buffer exists (it is a Uint8Array) it does the work: its UTF-8 encoder and
 * concat are the fastest there, and every figure of the node:http fast path was measured with them.
 * In a browser the web APIs do the same, byte for byte.
 */
type NodeBufferLike = {
  from(text: string, encoding?: 'utf8' | 'latin1'): Uint8Array;
  from(bytes: Uint8Array): Uint8Array;
  concat(parts: readonly Uint8Array[]): Uint8Array;
};

const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 bytes of a string (WHATWG Encoding §UTF-8 encode: lone surrogates become U+FFFD). */
export const utf8: (text: string) => Uint8Array = NodeBuffer ? (text) => NodeBuffer.from(text, 'utf8') : (text) => encoder.encode(text);

/** A copy of some bytes (a Buffer in Node, as the rest of this module). */
export const copyBytes: (bytes: Uint8Array) => Uint8Array = NodeBuffer ? (bytes) => NodeBuffer.from(bytes) : (bytes) => bytes.slice();

/** The string of UTF-8 bytes (invalid sequences become U+FFFD). */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** One byte array of several, in order. */
export const concatBytes: (parts: readonly Uint8Array[]) => Uint8Array = NodeBuffer
  ? (parts) => NodeBuffer.concat(parts)
  : (parts) => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const part of parts) {
        out.set(part, at);
        at += part.length;
      }
      return out;
    };

/** base64url without padding (RFC 4648 §5) of a string's UTF-8 bytes. */
export function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of utf8(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The string a base64url text (RFC 4648 §5, padding optional) encodes, or undefined when it is not base64url. */
export function fromBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return utf8Text(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
