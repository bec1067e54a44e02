import type { Market } from '../schema/generated/market-types.js';
import { fnv1a } from '../floor/text-hash.js';
import { fmix32, mixSeed } from '../floor/seed-mix.js';

/**
 * The price of a market at step k of its walk, as a pure function of (seed, market, start price,
 * k): no state, no earlier step visited, the same on every machine (integer hashing and
 * correctly rounded arithmetic only).
 *
 * The walk: one step per price step of stub time, each −1, 0 or +1 cent, reflected at the ends so
 * the price stays in [0.01, 0.99] on the 0.01 tick. An unbounded walk W(k) (the sum of the first k
 * steps) is drawn top-down on a dyadic tree (a random midpoint displacement, as a Brownian bridge
 * is drawn): the root is the sum of 2^40 steps, and each block's sum is split between its halves by
 * a seeded draw that keeps each half reachable by steps of at most one cent. W(k) is the sum of the
 * left halves on the path to k: 40 levels, O(log) per read at any k, and every unit step of the
 * tree is −1, 0 or +1 by construction. The price is the start price moved by W(k) and folded into
 * [1, 99] cents (a reflection: a step of one cent stays a step of at most one cent).
 */
export function walkedCents(startCents: number, key: number, step: number): number {
  if (step <= 0) return startCents;
  const offset = startCents - 1 + walkSum(key, Math.min(step, SPAN));
  return 1 + fold(offset);
}

/** The walk's key for one market: (seed, the market's id hash) mixed once, for every read of it. */
export function walkKey(seed: number, idHash: number): number {
  return mixSeed(seed, idHash, WALK_STREAM);
}

/** Tree depth: 2^40 steps (with a one-second step, 34,000 years; the clock stops at 9999). */
const LEVELS = 40;
const SPAN = 2 ** LEVELS;
/** A mixSeed stream of its own (generate-markets.ts uses 1–5, the deviations theirs). */
const WALK_STREAM = 37;
/** Width of the fold: prices 1…99 cents are offsets 0…98, a triangle wave of period 196. */
const TOP = 98;
/** Variance of one step uniform on {−1, 0, +1}. */
const STEP_VARIANCE = 2 / 3;
/** The spread of the root's sum (2^40 steps), and of a left half's sum given its block's at each level (a half of 2^level steps). */
const ROOT_SPREAD = Math.sqrt(SPAN * STEP_VARIANCE);
const SPREAD = Array.from({ length: LEVELS }, (_, level) => Math.sqrt((2 ** level * STEP_VARIANCE) / 2));

/** The sum of steps [0, k) of the unbounded walk of `key`, 0 < k ≤ SPAN: down the tree to k, adding each left half passed. */
function walkSum(key: number, k: number): number {
  let [from, size, level, index, before] = [0, SPAN, LEVELS, 0, 0];
  let sum = clamp(Math.round(normal(key, LEVELS, 0) * ROOT_SPREAD), -SPAN, SPAN);
  while (k !== from && k !== from + size) {
    level -= 1;
    size /= 2;
    const left = splitLeft(key, level, index, sum, size);
    if (k >= from + size) {
      before += left;
      sum -= left;
      from += size;
      index = index * 2 + 1;
    } else {
      sum = left;
      index *= 2;
    }
  }
  return k === from ? before : before + sum;
}

/**
 * How much of a block's `sum` falls in its left half of `half` steps: around half of it, spread as
 * a bridge's midpoint is (variance half × STEP_VARIANCE / 2), kept where both halves can still be
 * walked in steps of one cent (|left| ≤ half, |sum − left| ≤ half).
 */
function splitLeft(key: number, level: number, index: number, sum: number, half: number): number {
  const drawn = Math.round(sum / 2 + normal(key, level, index) * (SPREAD[level] ?? 0));
  return clamp(drawn, Math.max(-half, sum - half), Math.min(half, sum + half));
}

/**
 * A seeded draw of mean 0 and variance 1 for one node of the tree: two 16-bit uniforms of one
 * MurmurHash3 fmix32 chain over (key, level, index) summed (a triangular distribution, Irwin–Hall
 * of two), scaled by √6.
 */
function normal(key: number, level: number, index: number): number {
  let h = fmix32(key ^ Math.imul(level + 1, 0x9e3779b9));
  h = fmix32(h ^ (index >>> 0));
  h = fmix32(h ^ Math.floor(index / 4_294_967_296));
  return (((h & 0xffff) + (h >>> 16)) / 65_536 - 1) * SQRT6;
}

const SQRT6 = Math.sqrt(6);

/** Folds an unbounded offset into [0, TOP]: a triangle wave, so a reflected step stays one step. */
function fold(offset: number): number {
  const period = 2 * TOP;
  const r = ((offset % period) + period) % period;
  return r > TOP ? period - r : r;
}

function clamp(n: number, lo: number, hi: number): number {
  return n < lo ? lo : n > hi ? hi : n;
}

/**
 * A market with its prices at step `step` of its walk (catalog/price-walk.ts), keyed by the seed and
 * its market_id: yes_price walks in cents from its start (its value rounded to the 0.01 tick), and
 * no_price is its complement. Integer cents divided once: the JSON text never carries float noise.
 * @returns the market itself when the walk is back at its start price.
 */
export function walkedMarket(market: Market, seed: number, step: number): Market {
  const start = Math.min(99, Math.max(1, Math.round(market.yes_price * 100)));
  const yes = walkedCents(start, walkKey(seed, fnv1a(market.market_id)), step);
  if (yes === start && market.yes_price === start / 100 && market.no_price === (100 - start) / 100) return market;
  return { ...market, yes_price: yes / 100, no_price: (100 - yes) / 100 };
}
