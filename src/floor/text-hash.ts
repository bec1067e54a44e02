/**
 * FNV-1a (32-bit) over the UTF-16 code units of `text`: a fast, non-cryptographic hash to tell
 * texts apart without keeping them (listed titles, spooled market bodies). Collisions are
 * possible; callers compare lengths too.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
