/**
 * FNV-1a (32-bit) over the UTF-16 code units of `text`: a fast, non-cryptographic hash to tell
 * texts apart without keeping them (listed titles, spooled market bodies). Collisions are
 * possible; callers compare lengths too. `from` continues a hash over text that came in pieces
 * (a body's decoded chunks): `fnv1a(b, fnv1a(a))` is `fnv1a(a + b)`.
 */
export function fnv1a(text: string, from = 0x811c9dc5): number {
  let hash = from;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
