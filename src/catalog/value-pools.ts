import { generateSync, type JsonSchema } from 'json-schema-faker';
import { loadMarketSchema } from '../schema/market-schema.js';
import { mixSeed } from '../floor/seed-mix.js';

/** The fields json-schema-faker draws, as `$defs/GeneratedMarket` declares them. */
export type PooledField = 'market_id' | 'title' | 'status' | 'yes_price';

/**
 * How large each field's pool grows: market k may draw from the first
 * `min(max, base + floor(k / growth))` values. The expensive field (titles: jsf's regex generator,
 * tens of µs a value from node_modules, less from the bundles, which parse each pattern once:
 * scripts/jsf-pattern-memo.mjs) starts small and grows with the catalog; prices are cheap and have 99
 * possible values, so their pool starts larger. A catalog of 100 markets so costs about 150 jsf
 * draws, one of 1,000 about 230 (too slow for a cold start if every title were drawn: bench/README.md
 * "Figures behind the code's comments"), any catalog at most
 * 4,612. In 1,000 markets about 55 titles and 65 prices show up; in 100,000, about 1,180 titles.
 */
export const POOL_SIZES: Readonly<Record<PooledField, { base: number; growth: number; max: number }>> = {
  // The title pattern has 1,680 combinations: ~1,200 of them show up in 2,048 draws.
  title: { base: 24, growth: 32, max: 2048 },
  market_id: { base: 24, growth: 32, max: 2048 },
  status: { base: 4, growth: Number.POSITIVE_INFINITY, max: 4 },
  yes_price: { base: 96, growth: 64, max: 512 },
};

/** Seeds whose pools are kept; past it the oldest seed's pools are dropped (drawn again when needed). */
const SEEDS_KEPT = 16;
/** mixSeed streams of the pools' values, apart from the streams a market's mix uses (0–15). */
const FIELD_STREAM: Readonly<Record<PooledField, number>> = { market_id: 16, title: 17, status: 18, yes_price: 19 };

/** A seed's pools: `value(field, slot)` is jsf's draw of the field for (seed, field, slot), drawn on first use and kept. */
export interface ValuePools {
  value(field: 'yes_price', slot: number): number;
  value(field: Exclude<PooledField, 'yes_price'>, slot: number): string;
}

const fieldSchemas = new Map<PooledField, JsonSchema>();
const pools = new Map<number, ValuePools>();

/** How many values of `field`'s pool market `index` may draw from (POOL_SIZES); depends on the index alone, never on the catalog's size. */
export function poolSpan(field: PooledField, index: number): number {
  const { base, growth, max } = POOL_SIZES[field];
  return Math.min(max, base + Math.floor(index / growth));
}

/**
 * The value pools of `seed`: slot j of a field is `generateSync(<the field's schema in
 * $defs/GeneratedMarket>, { seed: mixSeed(seed, j, <field stream>) })`, so a value depends only on
 * (seed, field, slot), never on which market asked for it first. Pools of the last SEEDS_KEPT seeds
 * are kept (at most 4,612 values, ~0.3 MB, each).
 */
export function valuePools(seed: number): ValuePools {
  let found = pools.get(seed);
  if (found) return found;
  const drawn = new Map<PooledField, (string | number | undefined)[]>();
  const value = (field: PooledField, slot: number): string | number => {
    let values = drawn.get(field);
    if (!values) drawn.set(field, (values = []));
    return (values[slot] ??= generateSync(fieldSchema(field), { seed: mixSeed(seed, slot, FIELD_STREAM[field]) }) as string | number);
  };
  found = { value } as ValuePools;
  if (pools.size >= SEEDS_KEPT) pools.delete(pools.keys().next().value as number);
  pools.set(seed, found);
  return found;
}

/** The field's own schema in `$defs/GeneratedMarket` (self-contained, no $ref: jsf resolves nothing per call). */
function fieldSchema(field: PooledField): JsonSchema {
  let schema = fieldSchemas.get(field);
  if (!schema) {
    const generated = loadMarketSchema().$defs['GeneratedMarket'] as { properties: Record<PooledField, unknown> };
    schema = structuredClone(generated.properties[field]) as JsonSchema;
    fieldSchemas.set(field, schema);
  }
  return schema;
}
