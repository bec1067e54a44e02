import { pointerToken } from '../schema/finding.js';
import { StreamedArray } from './json-body-reader.js';
import { resolveHttpUrl } from './deployment-client.js';
import { findLinkTarget } from './link-header.js';

/** Keys that may hold the market array of an enveloped list, in the order they are tried. */
export const ENVELOPE_KEYS = ['markets', 'data', 'results', 'items'] as const;

/** Envelope fields that carry the next page, in the order they are tried. */
export const CURSOR_FIELDS = ['next_cursor', 'next', 'cursor'] as const;

/** Where the market array of a `GET /markets` body was found, and how many items it had. */
export type ListShape =
  | { kind: 'array'; count: number; basePointer: '' }
  | { kind: 'envelope'; key: string; count: number; basePointer: string; otherKeys: string[] };

/**
 * Finds the market array in a list body: the body itself when it is an array (the documented
 * examples), else the first of `markets`, `data`, `results`, `items` holding an array (the shapes
 * real exchanges use, FIELD-NOTES §2), else the only array-valued field of the object, whatever
 * its key. Returns undefined when there is none (or several candidates and none of the known keys).
 * Arrays may be real arrays or the StreamedArray placeholders of a streamed read.
 */
export function findMarketArray(body: unknown): ListShape | undefined {
  const length = (value: unknown) => (Array.isArray(value) ? value.length : value instanceof StreamedArray ? value.streamedItems : undefined);
  const top = length(body);
  if (top !== undefined) return { kind: 'array', count: top, basePointer: '' };
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const envelope = (key: string): ListShape => ({ kind: 'envelope', key, count: length(record[key]) ?? 0, basePointer: `/${pointerToken(key)}`, otherKeys: Object.keys(record).filter((k) => k !== key) });
  for (const key of ENVELOPE_KEYS) if (length(record[key]) !== undefined) return envelope(key);
  // Another key is undocumented too: accept it when it is the only array in the object.
  const arrays = Object.keys(record).filter((k) => length(record[k]) !== undefined);
  return arrays.length === 1 ? envelope(arrays[0] as string) : undefined;
}

/** How the next page was signalled. */
export interface NextPage {
  url: URL;
  /** `link` (a `Link: rel="next"` header) or the envelope field that held the cursor or URL. */
  via: 'link' | (typeof CURSOR_FIELDS)[number];
  /** The opaque cursor value, when the next page is `?cursor=VALUE` (a repeated one is a loop). */
  cursor?: string;
}

/**
 * The next page of a list response, or undefined when the deployment signals none.
 *
 * - `Link: <…>; rel="next"` (RFC 8288), resolved against the URL of the response (after redirects);
 * - else, for an envelope, the first non-empty `next_cursor`, `next` or `cursor` field: a value
 *   that is an absolute URL, a path (`/…`) or a query (`?…`) is resolved against the response URL;
 *   any other value is an opaque cursor sent back as `?cursor=VALUE` on the current page's URL
 *   (other query parameters such as `limit` are kept).
 */
export function findNextPage(body: unknown, shape: ListShape, linkHeader: string | null, responseUrl: URL): NextPage | undefined {
  const linked = findLinkTarget(linkHeader, 'next');
  if (linked !== undefined) {
    const url = resolveHttpUrl(linked, responseUrl);
    if (url) return { url, via: 'link' };
  }
  if (shape.kind !== 'envelope') return undefined;
  const record = body as Record<string, unknown>;
  for (const field of CURSOR_FIELDS) {
    const value = record[field];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value);
    if (text === '') continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.startsWith('/') || text.startsWith('?')) {
      const url = resolveHttpUrl(text, responseUrl);
      if (url) return { url, via: field };
      continue;
    }
    const url = new URL(responseUrl);
    url.searchParams.set('cursor', text);
    return { url, via: field, cursor: text };
  }
  return undefined;
}
