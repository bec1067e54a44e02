// Order statistics for benchmark samples.

/**
 * The median of `values` (mean of the two middle values for an even count).
 * @throws RangeError on an empty list: a figure with no samples must not look like 0.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no samples');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * The p-th percentile (0 < p ≤ 100) of an ascending-sorted sample by the nearest-rank method
 * (the smallest value with at least p% of the samples at or below it), as HdrHistogram and
 * autocannon report it.
 * @throws RangeError on an empty sample or p outside (0, 100].
 */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}
