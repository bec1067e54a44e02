// Kept apart from the store so option tables can name the faults without loading the catalog code.

/**
 * Domain faults a market client must survive, applied to the record so list and item stay one
 * projection: `missing` (listed, but the single endpoint answers 404), `stale` (prices stop moving
 * on tick), `unknown-status` (status `"suspended"`), `price-out-of-range` (yes_price 1.25),
 * `price-sum` (no_price 0.05 higher, so yes + no ≠ 1).
 */
export const DOMAIN_FAULTS = ['missing', 'stale', 'unknown-status', 'price-out-of-range', 'price-sum'] as const;
export type DomainFault = (typeof DOMAIN_FAULTS)[number];

/** A domain fault applied to a seeded share of all markets (`rate` in [0, 1]). */
export interface GlobalDomainFault {
  fault: DomainFault;
  rate: number;
}
