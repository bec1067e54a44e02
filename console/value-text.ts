/** Any JSON value as compact text for a cell: strings as they are, the rest as JSON. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}
