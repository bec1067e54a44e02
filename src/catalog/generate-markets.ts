import { generateSync, type JsonSchema } from 'json-schema-faker';
import { loadMarketSchema } from '../schema/market-schema.js';
import type { Market } from '../schema/market-types.js';
import { addDays, complementaryPrices, isCalendarDate } from '../core/market-rules.js';
import { mixSeed } from '../core/seed-mix.js';

/** Inputs that fully determine a generated market. */
export interface GenerateOptions {
  /** Catalog seed, an integer in [0, 2^53). */
  seed: number;
  /** The clock date, YYYY-MM-DD (UTC): every resolution_date lies 1–730 days after it. */
  clock: string;
}

/** Largest resolution horizon in days: within two calendar years of the clock date. */
export const MAX_HORIZON_DAYS = 730;

let generatorSchema: JsonSchema | undefined;

function schemaForGenerator(): JsonSchema {
  // GeneratedMarket is self-contained (no $ref), so jsf gets it alone and resolves nothing per call.
  const schema = loadMarketSchema();
  generatorSchema ??= structuredClone(schema.$defs['GeneratedMarket']) as JsonSchema;
  return generatorSchema;
}

/**
 * Generates market number `index` (0-based) of the catalog defined by (seed, clock).
 *
 * json-schema-faker draws the id stem, title, status and yes_price from `$defs/GeneratedMarket`
 * with a seed mixed from (seed, index); seeded domain rules then complete what JSON Schema cannot
 * state: `yes_price` rounded onto the 0.01 tick in [0.01, 0.99] with `no_price` its exact
 * complement (jsf 0.6 emits float noise such as 0.5700000000000001, FIELD-NOTES §3),
 * `resolution_date` 1–730 days after the clock date, and a `-{index+1}` suffix that makes
 * `market_id` unique.
 * Pure: the result depends only on (seed, index, clock).
 * @throws RangeError when `clock` is not a YYYY-MM-DD calendar date or `index` is not a non-negative integer.
 */
export function generateMarket(index: number, options: GenerateOptions): Market {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`market index must be a non-negative integer, got ${index}`);
  if (!isCalendarDate(options.clock)) throw new RangeError(`clock must be a YYYY-MM-DD calendar date, got ${JSON.stringify(options.clock)}`);
  const draft = generateSync(schemaForGenerator(), { seed: mixSeed(options.seed, index) }) as Market;
  const days = 1 + (mixSeed(options.seed, index, 1) % MAX_HORIZON_DAYS);
  const { yes_price, no_price } = complementaryPrices(draft.yes_price);
  return {
    market_id: `${draft.market_id}-${index + 1}`,
    title: draft.title,
    status: draft.status,
    yes_price,
    no_price,
    resolution_date: addDays(options.clock, days),
  };
}

/** The catalog index encoded in a generated `market_id` (`ABCD-12JUN34-17` → 16), or undefined. */
export function indexFromGeneratedId(marketId: string): number | undefined {
  const m = /-([1-9][0-9]{0,15})$/.exec(marketId);
  if (!m) return undefined;
  const n = Number(m[1]) - 1;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Generates markets 0…count−1 of the catalog defined by (seed, clock), in catalog order. */
export function generateMarkets(count: number, options: GenerateOptions): Market[] {
  const markets: Market[] = new Array<Market>(count);
  for (let i = 0; i < count; i++) markets[i] = generateMarket(i, options);
  return markets;
}
