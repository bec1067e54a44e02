import { pointerToken } from '../../schema/finding.js';
import { StreamedArray } from '../http-client/index.js';
import { readPaging } from './paging-reading.js';

/** Keys that may hold the market array of an enveloped list, in the order they are tried. */
export const ENVELOPE_KEYS = ['markets', 'data', 'results', 'items'] as const;

/** Where the market array of a `GET /markets` body was found, and how many items it had. */
export type ListShape =
  | { kind: 'array'; count: number; basePointer: '' }
  | { kind: 'envelope'; key: string; count: number; basePointer: string; otherKeys: string[] };

/**
 * Finds the market array in a list body: the body itself when it is an array (the documented
 * examples), else the first of `markets`, `data`, `results`, `items` holding an array (the shapes
 * real exchanges use: Kalshi, Polymarket, Manifold), else the only array-valued field of the object, whatever
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
  /** What signalled it: `link` (a `Link: rel="next"` header), the envelope field (`next_cursor`, `meta.next_cursor`, `offset`…) or the header (`X-Next-Page`). */
  via: string;
  /** The opaque cursor or last id, when a repeated one means a loop. */
  cursor?: string;
}

/**
 * The next page of a list response, or undefined when the deployment signals none: the paging
 * dialects of paging-dialects.ts read from the body and the `Link` header (docs/paging.md), the
 * first page of a list (no last market id, so no Stripe-style `starting_after`).
 */
export function findNextPage(body: unknown, shape: ListShape, linkHeader: string | null, responseUrl: URL): NextPage | undefined {
  const reading = readPaging({ body, envelope: shape.kind === 'envelope', headers: linkHeader === null ? {} : { link: linkHeader }, url: responseUrl, lastId: undefined, items: shape.count, pageIndex: 0 });
  if (!reading.next || reading.signal === undefined) return undefined;
  return { url: reading.next.url, via: reading.signal, ...(reading.next.cursor === undefined ? {} : { cursor: reading.next.cursor }) };
}
