/**
 * Which catalog positions the list shows at a stub instant under a lifecycle (market-lifecycle.ts),
 * without a pass over the catalog when the clock moves. Positions are cut into blocks of BLOCK;
 * each block keeps, built once on first use, its markets' open and retire instants in position
 * order and sorted. A market is listed at t when open ≤ t < retire, and since open < retire the
 * count a block lists at t is #(open ≤ t) − #(retire ≤ t): two binary searches. A view at one
 * instant (`listedAt`) counts every block once (size/BLOCK binary searches) and finds the
 * position of a list rank by a binary search over the block counts and a scan of one block; ranks
 * read in order (a page, a streamed list) continue from the last one found.
 */
export interface LifecycleIndex {
  /** The listed positions at stub instant `t`: how many, and the catalog position of each list rank. */
  listedAt(t: number): ListedPositions;
}

/** The positions one list view shows, in catalog order. */
export interface ListedPositions {
  readonly size: number;
  /** The catalog position of list rank `rank` (0-based), or undefined outside 0…size−1. */
  positionAt(rank: number): number | undefined;
}

/** Positions per block: a view costs size/BLOCK pairs of binary searches, a rank at most one block's scan. */
const BLOCK = 1024;

interface Block {
  open: Float64Array;
  retire: Float64Array;
  sortedOpen: Float64Array;
  sortedRetire: Float64Array;
}

/**
 * An index over `size` positions whose open and retire instants `lifeAt(position)` gives (an
 * unlisted position, such as an admin-written market, has none: it is always listed).
 */
export function createLifecycleIndex(size: number, lifeAt: (position: number) => { open: number; retire: number } | undefined): LifecycleIndex {
  const blocks: Block[] = [];
  const blockOf = (b: number): Block => (blocks[b] ??= buildBlock(b * BLOCK, Math.min(size, (b + 1) * BLOCK), lifeAt));
  const count = Math.ceil(size / BLOCK);
  return {
    listedAt(t) {
      const before = new Float64Array(count + 1);
      for (let b = 0; b < count; b++) {
        const block = blockOf(b);
        before[b + 1] = (before[b] ?? 0) + atOrBefore(block.sortedOpen, t) - atOrBefore(block.sortedRetire, t);
      }
      const total = before[count] ?? 0;
      let last = { rank: -1, position: -1 };
      const listed = (p: number): boolean => {
        const block = blockOf(Math.floor(p / BLOCK));
        const i = p % BLOCK;
        return (block.open[i] ?? 0) <= t && t < (block.retire[i] ?? 0);
      };
      return {
        size: total,
        positionAt(rank) {
          if (!Number.isInteger(rank) || rank < 0 || rank >= total) return undefined;
          // The next rank after the last one found: scan on from its position (a page, a streamed list).
          let p = rank === last.rank + 1 ? last.position + 1 : firstOfBlock(before, rank);
          let r = rank === last.rank + 1 ? rank : (before[Math.floor(p / BLOCK)] ?? 0);
          for (; p < size; p++) {
            if (!listed(p)) continue;
            if (r === rank) break;
            r += 1;
          }
          last = { rank, position: p };
          return p;
        },
      };
    },
  };
}

/** The first position of the block that holds list rank `rank`: the last block whose count before it is ≤ rank. */
function firstOfBlock(before: Float64Array, rank: number): number {
  let [lo, hi] = [0, before.length - 2];
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((before[mid] ?? 0) <= rank) lo = mid;
    else hi = mid - 1;
  }
  return lo * BLOCK;
}

/** How many sorted values are ≤ t. */
function atOrBefore(sorted: Float64Array, t: number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One block's instants: a position with no life is listed always (open −∞, retire +∞). */
function buildBlock(from: number, to: number, lifeAt: (position: number) => { open: number; retire: number } | undefined): Block {
  const open = new Float64Array(to - from);
  const retire = new Float64Array(to - from);
  for (let p = from; p < to; p++) {
    const life = lifeAt(p);
    open[p - from] = life ? life.open : -Infinity;
    retire[p - from] = life ? life.retire : Infinity;
  }
  return { open, retire, sortedOpen: open.slice().sort(), sortedRetire: retire.slice().sort() };
}
