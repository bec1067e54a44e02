/**
 * Derives the 32-bit seed of market `index` from the catalog seed, so market k depends only on
 * (seed, k): the same in any request order and for any count. MurmurHash3's fmix32 finaliser
 * over both halves of the seed and the index (public domain, Austin Appleby).
 */
export function mixSeed(seed: number, index: number, stream = 0): number {
  let h = fmix32((seed >>> 0) ^ Math.imul(stream + 1, 0x9e3779b9));
  h = fmix32(h ^ Math.floor(seed / 2 ** 32));
  h = fmix32(h ^ (index >>> 0));
  h = fmix32(h ^ Math.floor(index / 2 ** 32));
  return h >>> 0;
}

/** MurmurHash3's 32-bit finaliser (public domain, Austin Appleby): a 32-bit integer in, its avalanche-mixed 32-bit unsigned integer out. */
export function fmix32(input: number): number {
  let h = input >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
