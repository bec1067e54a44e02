/** Entries with only shared deviations applied that are kept built (a flat-memory cache, emptied when full). */
export const SHARED_CACHE = 20_000;
/** Views with a `Prefer: deviation=` applied to every market that are kept (emptied when full, and on every change). */
export const PREFERRED_VIEWS = 8;
