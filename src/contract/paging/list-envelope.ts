import { pointerToken } from '../../schema/finding.js';
import { StreamedArray } from '../http-client/index.js';
import { readPaging } from './paging-reading.js';

/** Keys that may hold the market array of an enveloped list, in the order they are tried. */
export const ENVELOPE_KEYS = ['markets', 'data', 'results', 'items'] as const;

/**
 * The standard wrappers a `GET /markets` body is recognised in (docs/contract-check.md, "List
 * envelopes"): `keyed` is an object holding the array under one of ENVELOPE_KEYS, `only-array`
 * an object whose only array member holds it, whatever its key; the others are named for the
 * format whose shape they have.
 */
export type EnvelopeName = 'keyed' | 'only-array' | 'graphql' | 'hal' | 'json-api' | 'siren' | 'odata';

/** Words for an envelope name in findings and reports (`GraphQL`, `HAL`, `JSON:API`, …). */
export const ENVELOPE_TITLES: Readonly<Record<EnvelopeName, string>> = {
  'keyed': 'an object',
  'only-array': 'an object',
  'graphql': 'GraphQL',
  'hal': 'HAL',
  'json-api': 'JSON:API',
  'siren': 'Siren',
  'odata': 'OData',
};

/**
 * Where an item of a market array holds its market: the item itself (`''`), a JSON:API
 * resource's `attributes` (JSON:API 1.1 §7.2.2) or a Siren entity's `properties` (Siren, "Entities").
 */
export type ItemWrapper = '' | '/attributes' | '/properties';

/** Where the market array of a `GET /markets` body was found, and how many items it had. */
export type ListShape =
  | { kind: 'array'; count: number; basePointer: ''; itemPointer: '' }
  | {
    kind: 'envelope';
    envelope: EnvelopeName;
    /** Member path of the array, dotted (`markets`, `data.markets`, `_embedded.markets`). */
    key: string;
    count: number;
    /** RFC 6901 pointer of the array (`/data/markets`). */
    basePointer: string;
    /** Where each item holds its market, below the item. */
    itemPointer: ItemWrapper;
    /** The envelope's other top-level members. */
    otherKeys: string[];
  };

/** Top-level members of a GraphQL response (GraphQL spec, "Response Format": `data`, `errors`, `extensions`). */
const GRAPHQL_MEMBERS: ReadonlySet<string> = new Set(['data', 'errors', 'extensions']);

/** Items of an array, real or streamed (the StreamedArray placeholder of a list-mode read); undefined for any other value. */
function arrayLength(value: unknown): number | undefined {
  return Array.isArray(value) ? value.length : value instanceof StreamedArray ? value.streamedItems : undefined;
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof StreamedArray) ? (value as Record<string, unknown>) : undefined;
}

/** The array member of `record` under `markets`, else its only array member (never `errors`). */
function innerArrayKey(record: Record<string, unknown>): string | undefined {
  if (arrayLength(record['markets']) !== undefined) return 'markets';
  const arrays = Object.keys(record).filter((k) => k !== 'errors' && arrayLength(record[k]) !== undefined);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/**
 * True when the object has the shape of a GraphQL response (GraphQL spec, "Response Format"):
 * no member but `data`, `errors` and `extensions`; `data` an object or null, or absent with `errors` a list.
 * Its `errors` list is never the market list.
 */
export function isGraphqlResponse(body: unknown): boolean {
  const record = objectOf(body);
  if (!record || !Object.keys(record).every((k) => GRAPHQL_MEMBERS.has(k))) return false;
  if (Object.hasOwn(record, 'data')) return record['data'] === null || objectOf(record['data']) !== undefined;
  return arrayLength(record['errors']) !== undefined;
}

/**
 * Finds the market array in a list body (docs/contract-check.md, "List envelopes"), the first
 * of these that applies:
 * - the body itself when it is an array (the documented examples);
 * - GraphQL (`{"data": {"markets": […]}, "errors": […]}`): the array under `data.markets`, else the
 *   only array in `data`; `errors` is never read as the list;
 * - HAL (`_embedded`, draft-kelly-json-hal §4.1.2): `_embedded.markets`, else the only array in `_embedded`;
 * - OData (`value`, OData JSON Format 4.01 §12) and Siren (`entities`, Siren "Entities");
 * - the first of `markets`, `data`, `results`, `items` holding an array (Kalshi, Polymarket,
 *   Manifold); `data` is JSON:API (§7.1) when its items are resources (`wrapperOf('/data')` says
 *   `/attributes`) or the document has a `jsonapi` or `included` member;
 * - the only array-valued member of the object other than `errors`, whatever its key;
 * - a `data` object holding `markets` or one array (`{"data": {"markets": […]}, "meta": {…}}`, a
 *   REST answer shaped like GraphQL's).
 * Returns undefined when there is none. Arrays may be real or the StreamedArray placeholders of a
 * streamed read. `wrapperOf` tells where the items of the array at a pointer held their market
 * (the checker sees the items; this sees only the top level).
 */
export function findMarketArray(body: unknown, wrapperOf: (pointer: string) => ItemWrapper = () => ''): ListShape | undefined {
  const top = arrayLength(body);
  if (top !== undefined) return { kind: 'array', count: top, basePointer: '', itemPointer: '' };
  const record = objectOf(body);
  if (!record) return undefined;
  const at = (envelope: EnvelopeName, path: readonly string[]): ListShape => {
    let value: unknown = record;
    for (const key of path) value = (value as Record<string, unknown>)[key];
    const basePointer = path.map((k) => `/${pointerToken(k)}`).join('');
    return { kind: 'envelope', envelope, key: path.join('.'), count: arrayLength(value) ?? 0, basePointer, itemPointer: wrapperOf(basePointer), otherKeys: Object.keys(record).filter((k) => k !== path[0]) };
  };
  const nested = (envelope: EnvelopeName, outer: string): ListShape | undefined => {
    const inner = objectOf(record[outer]);
    const key = inner ? innerArrayKey(inner) : undefined;
    return key === undefined ? undefined : at(envelope, [outer, key]);
  };
  if (isGraphqlResponse(record)) return nested('graphql', 'data');
  const hal = nested('hal', '_embedded');
  if (hal) return hal;
  if (arrayLength(record['value']) !== undefined) return at('odata', ['value']);
  if (arrayLength(record['entities']) !== undefined) return at('siren', ['entities']);
  for (const key of ENVELOPE_KEYS) {
    if (arrayLength(record[key]) === undefined) continue;
    const jsonApi = key === 'data' && (wrapperOf('/data') === '/attributes' || Object.hasOwn(record, 'jsonapi') || Object.hasOwn(record, 'included'));
    return at(jsonApi ? 'json-api' : 'keyed', [key]);
  }
  const only = innerArrayKey(record);
  if (only !== undefined) return at('only-array', [only]);
  return nested('keyed', 'data');
}

/**
 * Where an item of the market array at `arrayPointer` holds its market: a JSON:API resource
 * (an object with a string `type` and an object `attributes`, in a top-level `data` array) is read
 * through its `attributes` (the resource's `id` is not read as the market_id: the contract's
 * members are the market's, and JSON:API §7.2.2 keeps `id` and `type` out of `attributes`); a
 * Siren entity (an object with an object `properties`, in a top-level `entities` array) through its
 * `properties`; any other item is the market itself.
 */
export function itemWrapper(arrayPointer: string, item: unknown): ItemWrapper {
  const record = objectOf(item);
  if (!record) return '';
  if (arrayPointer === '/data' && typeof record['type'] === 'string' && objectOf(record['attributes'])) return '/attributes';
  if (arrayPointer === '/entities' && objectOf(record['properties'])) return '/properties';
  return '';
}

/** The market an item of the array at `arrayPointer` holds, and where below the item it is (itemWrapper). */
export function marketOfItem(arrayPointer: string, item: unknown): { market: unknown; wrapper: ItemWrapper } {
  const wrapper = itemWrapper(arrayPointer, item);
  return { market: wrapper === '' ? item : (item as Record<string, unknown>)[wrapper.slice(1)], wrapper };
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
