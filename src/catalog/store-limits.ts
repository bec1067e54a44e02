/**
 * Largest catalog whose order can be rebuilt at run time: removing a market and ticking visit
 * the whole catalog once, so they are refused above this size (LIMIT_EXCEEDED). Adding, replacing,
 * patching and faulting one market work on any catalog.
 */
export const MAX_EDITABLE = 250_000;
/** Largest number of markets added at run time on top of the start-up (or last replaced) catalog. */
export const MAX_ADDED_MARKETS = 100_000;
/** Largest `n × catalog size` of one tick call: a tick visits every market, so one call stays short. */
export const MAX_TICK_WORK = 100_000;
/** Entries with only shared deviations applied that are kept built (a flat-memory cache, emptied when full). */
export const SHARED_CACHE = 20_000;
/** Views with a `Prefer: deviation=` applied to every market that are kept (emptied when full, and on every change). */
export const PREFERRED_VIEWS = 8;
