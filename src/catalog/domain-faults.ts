// Kept apart from the store so option tables can name the faults without loading the catalog code.
import { findDeviation } from '../deviation/deviation-catalogue.js';
import type { MarketDeviation } from '../deviation/deviation-definition.js';

/**
 * The five domain faults of market-stub 0.1, now deviations of the catalogue (src/deviation):
 * `missing` is `listed-but-404`, `stale` is `stale-prices`, `unknown-status` is
 * `non-active-status`, and `price-out-of-range` and `price-sum` kept their names.
 * @deprecated Use deviations: `--deviation NAME[=RATE]`, `setDeviations`, `PUT /__stub/markets/{id}/deviations`.
 */
export const DOMAIN_FAULTS = ['missing', 'stale', 'unknown-status', 'price-out-of-range', 'price-sum'] as const;
/** @deprecated A deviation name (DeviationSetting). */
export type DomainFault = (typeof DOMAIN_FAULTS)[number];

/**
 * A domain fault applied to a seeded share of all markets (`rate` in [0, 1]).
 * @deprecated Use `deviations: [{ name, rate }]`.
 */
export interface GlobalDomainFault {
  fault: DomainFault;
  rate: number;
}

/** The deviation a domain fault now is. */
export function faultDeviation(fault: DomainFault): MarketDeviation {
  const deviation = findDeviation(fault);
  if (deviation?.scope !== 'market') throw new Error(`domain fault ${fault} has no deviation of one market in the catalogue`);
  return deviation;
}

/** The domain-fault name of a deviation that was one, or undefined. */
export function deviationFault(deviation: MarketDeviation): DomainFault | undefined {
  return DOMAIN_FAULTS.find((fault) => faultDeviation(fault) === deviation);
}
