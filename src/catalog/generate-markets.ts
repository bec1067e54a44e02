import type { Market } from '../schema/generated/market-types.js';
import { MAX_COUNT, MAX_HORIZON_DAYS } from '../floor/limits.js';
import { addDays, complementaryPrices, isCalendarDate } from '../floor/market-rules.js';
import { mixSeed } from '../floor/seed-mix.js';
import { dateOfInstant, parseInstant } from '../floor/instant.js';
import { optionError } from '../floor/market-stub-error.js';
import { checkFields } from '../floor/option-fields.js';
import { int, readTyped } from '../floor/option-kind.js';
import { CATALOG_FIELDS } from './catalog-options.js';
import { poolSpan, valuePools, type PooledField } from './value-pools.js';

/** Inputs that fully determine a generated market. */
export interface GenerateOptions {
  /** Catalog seed, an integer in [0, 2^53). */
  seed: number;
  /** The clock, YYYY-MM-DD (UTC) or an RFC 3339 instant (its UTC date): every resolution_date lies 1–730 days after that date. */
  clock: string;
}


/** The mixSeed streams of the per-market mix: one per field, so fields vary independently. */
const STREAM: Readonly<Record<PooledField | 'days', number>> = { days: 1, market_id: 2, title: 3, status: 4, yes_price: 5 };

/** Resolution dates 1…MAX_HORIZON_DAYS days after each clock seen (index = days), computed once per clock. */
const horizons = new Map<string, readonly string[]>();

function horizonOf(clock: string): readonly string[] {
  let dates = horizons.get(clock);
  if (!dates) {
    // An RFC 3339 instant as the clock: its UTC date.
    const instant = isCalendarDate(clock) ? undefined : parseInstant(clock);
    const date = instant === undefined ? clock : dateOfInstant(instant);
    if (!isCalendarDate(date)) throw new RangeError(`clock must be a YYYY-MM-DD date or an RFC 3339 instant, got ${JSON.stringify(clock)}`);
    dates = Array.from({ length: MAX_HORIZON_DAYS + 1 }, (_, days) => addDays(date, days));
    if (horizons.size >= 64) horizons.clear();
    horizons.set(clock, dates);
  }
  return dates;
}

/**
 * Generates market number `index` (0-based) of the catalog defined by (seed, clock).
 *
 * Every value comes from json-schema-faker drawing the fields of `$defs/GeneratedMarket`, but not
 * once per market: each seed has a pool of drawn values per field (value-pools.ts), and market k
 * takes each field from its pool at a slot picked by a hash of (seed, k, field), among the first
 * poolSpan(field, k) values. Seeded domain rules then complete what JSON Schema cannot state:
 * `yes_price` on the 0.01 tick in [0.01, 0.99] with `no_price` its exact complement (jsf 0.6 emits
 * float noise such as 0.5700000000000001, which real deployments send), `resolution_date` 1–730 days after the
 * clock date, and a `-{index+1}` suffix that makes `market_id` unique.
 * Pure: the result depends only on (seed, index, clock), in any order and any catalog size.
 * @throws MarketStubError OPTION_INVALID naming `generateMarket` and the field, worded as every
 *   surface words it: `generateMarket: clock: expected a YYYY-MM-DD calendar date, found "2026-13-01"`;
 *   `index` must be a safe integer from 0 (any market of any catalog size).
 */
export function generateMarket(index: number, options: GenerateOptions): Market {
  checkGenerate('generateMarket', 'index', index, Number.MAX_SAFE_INTEGER, options);
  return marketAt(index, options);
}

/**
 * Market number `index` of the catalog (seed, clock), with no check of its inputs: for the catalog
 * and `market-stub generate`, whose options were checked once (CATALOG_FIELDS); generateMarket is
 * the checked door.
 */
export function marketAt(index: number, options: GenerateOptions): Market {
  const horizon = horizonOf(options.clock);
  const { seed } = options;
  const pools = valuePools(seed);
  const slot = (field: PooledField) => mixSeed(seed, index, STREAM[field]) % poolSpan(field, index);
  const { yes_price, no_price } = complementaryPrices(pools.value('yes_price', slot('yes_price')));
  return {
    market_id: `${pools.value('market_id', slot('market_id'))}-${index + 1}`,
    title: pools.value('title', slot('title')),
    status: pools.value('status', slot('status')),
    yes_price,
    no_price,
    resolution_date: horizon[1 + (mixSeed(seed, index, STREAM.days) % MAX_HORIZON_DAYS)] as string,
  };
}

/**
 * The catalog index encoded in a generated `market_id` (`ABCD-12JUN34-17` → 16): the number after
 * the last `-`, 1 to 16 digits without a leading zero, minus one; undefined otherwise. Runs on
 * every `GET /markets/{id}` of a generated catalog, so it reads the digits without a RegExp.
 */
export function indexFromGeneratedId(marketId: string): number | undefined {
  const dash = marketId.lastIndexOf('-');
  const digits = marketId.length - dash - 1;
  if (dash === -1 || digits < 1 || digits > 16 || marketId.charCodeAt(dash + 1) === 48) return undefined;
  let n = 0;
  for (let i = dash + 1; i < marketId.length; i++) {
    const digit = marketId.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return Number.isSafeInteger(n - 1) ? n - 1 : undefined;
}

/**
 * Generates markets 0…count−1 of the catalog defined by (seed, clock), in catalog order, held in
 * memory (a catalog of millions is better served lazily: buildCatalog, or streamed: `market-stub
 * generate`).
 * @throws MarketStubError OPTION_INVALID naming `generateMarkets` and the field: `count` an integer
 *   from 0 to MAX_COUNT (src/floor/limits.ts), `seed` and `clock` as buildCatalog takes them.
 */
export function generateMarkets(count: number, options: GenerateOptions): Market[] {
  checkGenerate('generateMarkets', 'count', count, MAX_COUNT, options);
  const markets: Market[] = new Array<Market>(count);
  for (let i = 0; i < count; i++) markets[i] = marketAt(i, options);
  return markets;
}

/** The checks of the public generators: `seed` and `clock` as the catalog's (CATALOG_FIELDS), no other key, and the index or count within [0, max]. */
function checkGenerate(where: string, name: string, n: number, max: number, options: GenerateOptions): void {
  const read = readTyped(int(0, max), n);
  if (!read.ok) throw optionError(where, name, read.expected, n);
  // `?? null`: checkFields lets undefined through (every field optional); here seed and clock are required.
  checkFields(options ?? null, { seed: CATALOG_FIELDS.seed, clock: CATALOG_FIELDS.clock }, where);
  for (const key of ['seed', 'clock'] as const) if (options[key] === undefined) throw optionError(where, key, key === 'seed' ? 'an integer seed' : 'a YYYY-MM-DD clock date or RFC 3339 instant', undefined);
}
