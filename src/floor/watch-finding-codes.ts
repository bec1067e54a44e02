import { LIST_ENDPOINT, SINGLE_ENDPOINT } from './vocabulary.js';
import type { FindingKind } from './finding-codes.js';

/**
 * The findings of a watch (`check --watch`, watchDeployment): what no single crawl can see, found by
 * comparing a round with the rounds before it. Apart from FINDING_KINDS (one crawl's), because
 * each takes rounds to see: docs/contract-check.md ("Watching a deployment") documents each row and
 * the rounds it takes (a test holds the two together), and the deviation catalogue (src/deviation)
 * provokes each warning within those rounds or says why it cannot (UNWATCHED_FINDINGS).
 * None is an error: the contract documents no lifecycle order, no cache and no clock, so each is
 * an assumption, a warning (exit 1 under --strict).
 */
export const WATCH_FINDING_KINDS = [
  { code: 'prices-frozen', severity: 'warning', endpoints: [LIST_ENDPOINT] },
  { code: 'status-regression', severity: 'warning', endpoints: [LIST_ENDPOINT] },
  { code: 'prices-after-resolution', severity: 'warning', endpoints: [LIST_ENDPOINT] },
  { code: 'market-flapped', severity: 'warning', endpoints: [LIST_ENDPOINT] },
  { code: 'item-flapped', severity: 'warning', endpoints: [SINGLE_ENDPOINT] },
  { code: 'list-lags-items', severity: 'warning', endpoints: [LIST_ENDPOINT] },
  { code: 'items-lag-list', severity: 'warning', endpoints: [SINGLE_ENDPOINT] },
  { code: 'etag-kept', severity: 'warning', endpoints: [LIST_ENDPOINT, SINGLE_ENDPOINT] },
  { code: 'last-modified-backwards', severity: 'warning', endpoints: [LIST_ENDPOINT, SINGLE_ENDPOINT] },
  { code: 'clock-skew', severity: 'warning', endpoints: [LIST_ENDPOINT] },
  { code: 'prices-static', severity: 'info', endpoints: ['deployment'] },
] as const satisfies readonly FindingKind[];

/** A finding code of a watch. */
export type WatchFindingCode = (typeof WATCH_FINDING_KINDS)[number]['code'];

/**
 * The rounds of a watch a rule needs before it can report (docs/contract-check.md states them):
 * K, the fewest rounds a market's prices must stay still while most others move (more when chance
 * explains a run of K: still-odds.ts), and the skew a `Date` may have from this machine's clock
 * beyond the request's own duration.
 */
export const WATCH_RULES = {
  /** K: the fewest rounds without a price change (so K + 1 lists seen) before prices-frozen; also the window of prices-static. */
  frozenRounds: 10,
  /** More than this share of the tracked active markets moved in the same K rounds. */
  movingShare: 0.5,
  /**
   * α: the chance, over a whole watch, that a moving market is called frozen by a run of unchanged
   * rounds that is only chance (contract/watch/still-odds.ts frozenRunNeeded).
   */
  frozenAlpha: 0.01,
  /** Transitions after an unchanged one that the bins nearest a market's price must hold before its own bins alone tell its odds of staying put (still-odds.ts stayBound). */
  stillSample: 200,
  /** Transitions after an unchanged one needed before their rate (a walk whose still steps cluster) enters the odds of staying put. */
  stillAfterSample: 30,
  /** z of the one-sided 95% Wilson bound on the odds of staying put. */
  stillConfidenceZ: 1.645,
  /** Rounds in a row a side must lag for more than half of the markets whose other side moved (a price that moved between the two requests of a round lags for a few). */
  lagRounds: 3,
  /** Rounds of list and item prices kept per market to tell a lag (so lags of 1 to lagHistory − 1 rounds). */
  lagHistory: 4,
  /** A `Date` more than this far outside [request sent, answer read] is clock-skew, ms (an HTTP-date has whole seconds: 1 s more is allowed). */
  skewMs: 60_000,
} as const;
