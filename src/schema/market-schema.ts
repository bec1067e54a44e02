// The schema is imported, not read from disk: the bundles (ESM and CommonJS) carry it inline, so
// no path has to be resolved from the module's location at run time. The package still ships the
// file itself, exported as `market-stub/schemas/market.schema.json`.
import schemaDocument from '../../schemas/market.schema.json' with { type: 'json' };

/** A JSON Schema document as parsed JSON (2020-12). */
export type JsonSchemaDocument = Record<string, unknown> & { $id: string; $defs: Record<string, unknown> };

let cached: JsonSchemaDocument | undefined;

/**
 * Returns `schemas/market.schema.json`, the single source of truth, as parsed JSON (built into
 * market-stub; the same object on every call). It is deep-frozen on the first call: consumers
 * derive from it and never mutate it.
 */
export function loadMarketSchema(): JsonSchemaDocument {
  cached ??= deepFreeze(schemaDocument as JsonSchemaDocument);
  return cached;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
