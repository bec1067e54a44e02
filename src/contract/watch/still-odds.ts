import { WATCH_RULES } from '../../floor/watch-finding-codes.js';

// How often a moving market's price stays put from one round to the next, learnt from the rounds a
// watch saw, and how long a run of unchanged rounds must be before it is no longer chance: the
// statistical part of prices-frozen (docs/contract-check.md, "prices-frozen: how long is frozen").

/** Bins by a price's distance from the nearest end of [0, 1], in whole cents: 0 … 50. */
export const STILL_BINS = 51;
/** Counters per bin: transitions, unchanged ones, transitions that followed an unchanged one, unchanged among those. */
const PER_BIN = 4;

/**
 * What a watch has learnt of round-to-round price changes, as a flat array of STILL_BINS × 4
 * whole numbers (kept in the watch state as it is): per bin of the price at the start of the
 * transition, [transitions, unchanged, transitions after an unchanged one, unchanged among those].
 * Only markets that moved at least once while watched contribute (a market stale from the start
 * never teaches what a moving market does).
 */
export type StillCounts = number[];

export function emptyStillCounts(): StillCounts {
  return new Array<number>(STILL_BINS * PER_BIN).fill(0);
}

/** The bin of a yes price: its distance in cents from 0 or 1, whichever is nearer; undefined for no price. */
export function stillBin(yes: number): number | undefined {
  if (!Number.isFinite(yes)) return undefined;
  const cents = Math.min(100, Math.max(0, Math.round(yes * 100)));
  return Math.min(cents, 100 - cents);
}

/**
 * Adds `run` unchanged transitions followed by one that `stayed` or not, all in `bin` (a price that
 * stays put stays in its bin). `afterStill` says whether the first of them followed an unchanged
 * transition already counted.
 */
export function countTransitions(counts: StillCounts, bin: number | undefined, run: number, stayed: boolean, afterStill: boolean): void {
  if (bin === undefined) return;
  const at = bin * PER_BIN;
  const total = run + 1;
  const still = run + (stayed ? 1 : 0);
  // Transitions after an unchanged one: every one but the first, and the first too when it followed one.
  const after = run + (afterStill ? 1 : 0);
  const stayedAfter = Math.max(0, still - (afterStill ? 0 : 1));
  counts[at] = (counts[at] ?? 0) + total;
  counts[at + 1] = (counts[at + 1] ?? 0) + still;
  counts[at + 2] = (counts[at + 2] ?? 0) + after;
  counts[at + 3] = (counts[at + 3] ?? 0) + stayedAfter;
}

/**
 * q: an upper bound on the probability that a moving market whose price is in `bin` stays put one
 * more round, from the bins nearest it (widening until they hold WATCH_RULES.stillSample
 * transitions after an unchanged one, or all bins): the larger of the two rates (unchanged among
 * all transitions, unchanged among those after an unchanged one: a walk whose still steps come in
 * clusters stays longer than the first rate says), each at the upper end of its one-sided Wilson
 * score interval at WATCH_RULES.stillConfidenceZ; the second only once WATCH_RULES.stillAfterSample
 * transitions after an unchanged one were seen (before, steps are taken as independent). 1 when
 * nothing was learnt yet.
 * @param bin the market's bin (stillBin), or undefined to pool every bin.
 */
export function stayBound(counts: StillCounts, bin: number | undefined): number {
  let sums = binSums(counts, 0, STILL_BINS - 1);
  if (bin !== undefined) {
    for (let width = 0; width < STILL_BINS; width++) {
      const [lo, hi] = [Math.max(0, bin - width), Math.min(STILL_BINS - 1, bin + width)];
      sums = binSums(counts, lo, hi);
      if (sums[2] >= WATCH_RULES.stillSample || (lo === 0 && hi === STILL_BINS - 1)) break;
    }
  }
  const [total, still, after, stayedAfter] = sums;
  const first = wilsonUpper(still, total);
  return after >= WATCH_RULES.stillAfterSample ? Math.max(first, wilsonUpper(stayedAfter, after)) : first;
}

/** The four counters summed over bins lo … hi. */
function binSums(counts: StillCounts, lo: number, hi: number): [number, number, number, number] {
  const sums: [number, number, number, number] = [0, 0, 0, 0];
  for (let b = lo; b <= hi; b++) for (let k = 0; k < PER_BIN; k++) sums[k as 0] += counts[b * PER_BIN + k] ?? 0;
  return sums;
}

/**
 * The upper end of the Wilson score interval (E. B. Wilson, 1927) of a rate of `hits` in `n` at
 * z = WATCH_RULES.stillConfidenceZ: a bound that stays honest on a few dozen transitions. 1 when
 * n is 0.
 */
function wilsonUpper(hits: number, n: number): number {
  if (n <= 0) return 1;
  const z = WATCH_RULES.stillConfidenceZ;
  const p = hits / n;
  const z2n = (z * z) / n;
  const centre = p + z2n / 2;
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  return Math.min(1, (centre + spread) / (1 + z2n));
}

/**
 * L: the unchanged rounds in a row that make a market frozen in round `round` of a watch judging
 * `markets` markets, when a moving market stays put a round with probability at most `q`. Round
 * r's share of the error budget α (WATCH_RULES.frozenAlpha) is α / (j (j + 1)), j = r − K (the
 * shares of all rounds add up to α, however long the watch), split evenly over the markets judged:
 * L is the least run with markets × q^L ≤ α / (j (j + 1)), and never under K
 * (WATCH_RULES.frozenRounds). A chance run of L unchanged rounds anywhere in the watch then has a
 * probability below α (a union bound over markets and rounds; P(run ≥ L) ≤ q^L).
 * @returns a whole number ≥ K, or Infinity when q is 1 (nothing learnt: no market is called frozen).
 */
export function frozenRunNeeded(q: number, markets: number, round: number): number {
  const k = WATCH_RULES.frozenRounds;
  if (!(q < 1)) return Number.POSITIVE_INFINITY;
  if (q <= 0) return k;
  const j = Math.max(1, round - k);
  const chances = Math.max(1, markets) * j * (j + 1);
  return Math.max(k, Math.ceil(Math.log(chances / WATCH_RULES.frozenAlpha) / Math.log(1 / q)));
}
