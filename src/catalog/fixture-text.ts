/**
 * A market as it appears inside a fixtures file's array: `JSON.stringify(market, null, 2)`,
 * indented two more spaces (one level deep), no trailing comma or newline. `generate`, `record` and
 * the recording proxy all write fixture files item by item with it, so the three give the same bytes
 * for the same market. Pure: no I/O, any JSON value.
 */
export function fixtureText(market: unknown): string {
  return `  ${JSON.stringify(market, null, 2).replaceAll('\n', '\n  ')}`;
}
