/**
 * Objects of a list envelope that may hold its paging fields, besides the envelope itself:
 * `meta` (JSON:API §7.1), `pagination`, `paging`, `page_info`, `links` and `_links` (HAL).
 */
export const PAGING_CONTAINERS = ['meta', 'pagination', 'paging', 'page_info', 'links', '_links'] as const;

/** A field of a list envelope, found at `path` (e.g. `meta.next_cursor`). */
export interface FoundField {
  path: string;
  value: unknown;
}

/** Nested objects of an envelope looked at for paging fields, besides PAGING_CONTAINERS (a hostile envelope costs no more). */
const MAX_OTHER_SCOPES = 16;

/**
 * The objects of a list envelope paging fields may sit in, each with its path prefix, in the order
 * they are searched: the envelope itself, then PAGING_CONTAINERS, then any other object member one
 * level deep in document order (`response_metadata` as Slack sends it), MAX_OTHER_SCOPES at most.
 */
export function pagingScopes(body: unknown): Array<[string, Record<string, unknown>]> {
  const top = asRecord(body);
  if (!top) return [];
  const scopes: Array<[string, Record<string, unknown>]> = [['', top]];
  const known: ReadonlySet<string> = new Set(PAGING_CONTAINERS);
  for (const key of PAGING_CONTAINERS) {
    const inner = Object.hasOwn(top, key) ? asRecord(top[key]) : undefined;
    if (inner) scopes.push([`${key}.`, inner]);
  }
  let others = 0;
  for (const key in top) {
    if (known.has(key) || !Object.hasOwn(top, key)) continue;
    const inner = asRecord(top[key]);
    if (!inner || isLinkObject(inner)) continue;
    scopes.push([`${key}.`, inner]);
    if (++others >= MAX_OTHER_SCOPES) break;
  }
  return scopes;
}

/** A HAL/JSON:API link object (`{"href": …}`): the value of a field, not a scope of fields. */
function isLinkObject(value: Record<string, unknown>): boolean {
  return typeof value['href'] === 'string';
}

/**
 * The first of `names` present in the envelope itself, else in one of its paging scopes
 * (pagingScopes), in that order; undefined when none is (or the body is not an object). A value
 * that is an object with a string `href` (HAL, JSON:API link objects) stands for that `href`.
 */
export function findField(body: unknown, names: readonly string[]): FoundField | undefined {
  for (const [prefix, scope] of pagingScopes(body)) {
    for (const name of names) {
      if (!Object.hasOwn(scope, name)) continue;
      const value = scope[name];
      const href = asRecord(value)?.['href'];
      return { path: `${prefix}${name}`, value: typeof href === 'string' ? href : value };
    }
  }
  return undefined;
}

/** A number field among `names` (see findField) that is a non-negative safe integer, or undefined. */
export function findCount(body: unknown, names: readonly string[]): { path: string; value: number } | undefined {
  const found = findField(body, names);
  return found && isCount(found.value) ? { path: found.path, value: found.value } : undefined;
}

/** A non-negative safe integer, or a header value spelling one (`"42"`). */
export function countOf(value: unknown): number | undefined {
  if (isCount(value)) return value;
  if (typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value)) return Number(value);
  return undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** True when `text` is a URL reference a client follows as written: absolute (`https://…`), a path (`/…`) or a query (`?…`). */
export function looksLikeUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.startsWith('/') || text.startsWith('?');
}

/** `base` with the query parameters in `set` replaced (every other parameter, such as `limit` or a filter, kept). */
export function withQuery(base: URL, set: Readonly<Record<string, string>>): URL {
  const url = new URL(base);
  for (const [name, value] of Object.entries(set)) url.searchParams.set(name, value);
  url.hash = '';
  return url;
}

/** `value` as a record when it is a plain JSON object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Short JSON text of a value for evidence: at most 80 characters. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
