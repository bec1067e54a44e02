import { readFileSync } from 'node:fs';

/** A JSON Schema document as parsed JSON (2020-12). */
export type JsonSchemaDocument = Record<string, unknown> & { $id: string; $defs: Record<string, unknown> };

/** Absolute file URL of `schemas/market.schema.json`, the single source of truth. */
export const marketSchemaUrl: URL = new URL('../../schemas/market.schema.json', import.meta.url);

let cached: JsonSchemaDocument | undefined;

/**
 * Loads `schemas/market.schema.json` (read once per process, on first call; never at import).
 * The returned object is deep-frozen: consumers derive from it and never mutate it.
 * @throws Error when the packaged schema file is missing or not JSON (a broken install).
 */
export function loadMarketSchema(): JsonSchemaDocument {
  if (cached) return cached;
  const text = readFileSync(marketSchemaUrl, 'utf8');
  const parsed = JSON.parse(text) as JsonSchemaDocument;
  cached = deepFreeze(parsed);
  return cached;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
