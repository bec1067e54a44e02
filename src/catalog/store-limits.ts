import { MAX_EDITABLE } from '../floor/limits.js';
import { MarketStubError } from '../floor/market-stub-error.js';

/** Entries with only shared deviations applied that are kept built (a flat-memory cache, emptied when full). */
export const SHARED_CACHE = 20_000;
/** Views with a `Prefer: deviation=` applied to every market that are kept (emptied when full, and on every change). */
export const PREFERRED_VIEWS = 8;

/** Refuses an edit that must visit every market of a catalog above MAX_EDITABLE markets. @throws MarketStubError LIMIT_EXCEEDED naming `what`. */
export function requireEditable(size: number, where: string, what: string): void {
  if (size > MAX_EDITABLE) {
    throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'catalog', expected: `a catalog of at most ${MAX_EDITABLE} markets for ${what}`, found: size });
  }
}
