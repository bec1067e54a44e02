/**
 * Largest catalog whose order can be rebuilt at run time: removing a market visits the whole
 * catalog once, so it is refused above this size (LIMIT_EXCEEDED; ticking has its own, lower
 * bound, MAX_TICK_WORK). Adding, replacing,
 * patching and faulting one market work on any catalog.
 */
export const MAX_EDITABLE = 250_000;
/** Largest number of markets added at run time on top of the start-up (or last replaced) catalog. */
export const MAX_ADDED_MARKETS = 100_000;
/**
 * Largest `n × catalog size` of one tick call: a tick visits every market synchronously, so this
 * bounds how long one call holds the server (other requests wait): 25,000 markets hold it for tens
 * of milliseconds, 100,000 for hundreds (bench/README.md "Figures behind the code's comments"), so
 * catalogs above 25,000 markets do not tick (LIMIT_EXCEEDED).
 */
export const MAX_TICK_WORK = 25_000;
/** Entries with only shared deviations applied that are kept built (a flat-memory cache, emptied when full). */
export const SHARED_CACHE = 20_000;
/** Views with a `Prefer: deviation=` applied to every market that are kept (emptied when full, and on every change). */
export const PREFERRED_VIEWS = 8;
