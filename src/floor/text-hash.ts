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

/**
 * A 64-bit non-cryptographic digest of `bytes` as 16 lower-case hex digits: two 32-bit lanes read
 * four bytes a step (an FNV-1a-style multiply and MurmurHash3's block mix), each finished with
 * MurmurHash3's fmix32. Each step is a bijection of a lane's state for a given block, so two
 * byte strings of one length that differ in a single 4-byte block never share a digest (a price
 * moved, a status changed); other differences collide about once in 2^64. What the stub's entity
 * tags are made of (runtime/conditional-reply.ts); about 1 ns a byte.
 */
export function bytesDigest(bytes: Uint8Array): string {
  const length = bytes.length;
  let a = 0x811c9dc5 ^ length;
  let b = 0x9747b28c ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = (bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24);
    a = Math.imul(a ^ k, 0x01000193);
    k = Math.imul(k, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    b ^= k;
    b = (Math.imul((b << 13) | (b >>> 19), 5) + 0xe6546b64) | 0;
  }
  let tail = 0;
  for (let i = whole; i < length; i++) tail |= (bytes[i] ?? 0) << (8 * (i - whole));
  a = Math.imul(a ^ tail, 0x01000193);
  b ^= Math.imul(Math.imul(tail, 0xcc9e2d51) << 15 | Math.imul(tail, 0xcc9e2d51) >>> 17, 0x1b873593);
  return hex8(fmix32(a)) + hex8(fmix32(b ^ a));
}

/**
 * The strong entity tag of some bytes (RFC 9110 §8.8.3): `"`, the 16 hex digits of bytesDigest,
 * `"`. What every market answer's `ETag` is (runtime/conditional-reply.ts), whoever computes it: a
 * catalog entry keeps its body's (catalog/market-catalog.ts), the conditional stage makes the rest.
 */
export function strongTag(bytes: Uint8Array): string {
  return `"${bytesDigest(bytes)}"`;
}

/** MurmurHash3's 32-bit finaliser: every input bit reaches every output bit. */
function fmix32(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}
