// Where a market's identity sits in a body: the market_id a list item names, the envelope key of a wrapped single market.

/** The id a list item names: its market_id when a non-empty string, or the decimal text of a numeric one. */
export function listedId(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const id = (item as Record<string, unknown>)['market_id'];
  if (typeof id === 'string') return id === '' ? undefined : id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

/** `market` or `data` when the single body is an object wrapping a market under that one key (Kalshi's `{"market": {…}}`). */
export function singleEnvelopeKey(doc: unknown): string | undefined {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const record = doc as Record<string, unknown>;
  if ('market_id' in record) return undefined;
  for (const key of ['market', 'data']) {
    const inner = record[key];
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && 'market_id' in inner) return key;
  }
  return undefined;
}
