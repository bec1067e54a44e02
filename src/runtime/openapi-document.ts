import { loadMarketSchema } from '../schema/market-schema.js';
import type { ResponseProfile } from './response-profile.js';

/**
 * What the document says about the deployment serving it: its base URL (the `servers` entry;
 * `/`, the document's own origin, when unknown) and examples from the catalog it serves.
 */
export interface OpenApiServed {
  /** `http://127.0.0.1:4010`: the stub that serves the document. */
  serverUrl?: string;
  /** A market id this stub answers 200 for, that market, and the first page of its list. */
  examples?: { marketId: string; market: unknown; list: unknown };
}

/** The one tag both routes carry. */
const MARKETS_TAG = 'markets';

/**
 * Builds the OpenAPI 3.1 document for the two market routes under `profile`: components are the
 * `$defs` of schemas/market.schema.json that the routes use, with `#/$defs/X` refs rewritten to
 * `#/components/schemas/X` (OpenAPI 3.1 §4.8.24 uses JSON Schema 2020-12 as is, so nothing else
 * changes); the list response, query parameters and error bodies follow the active profile.
 * `served` adds the `servers` entry and examples (OpenAPI 3.1 §4.8.5, §4.8.14.1); without it the
 * server is `/`, the origin the document was read from. The routes need no credentials: the
 * document says so (`security: []`, §4.8.1). Same arguments, same document.
 */
export function buildOpenApiDocument(profile: ResponseProfile, version: string, license: string, served: OpenApiServed = {}): Record<string, unknown> {
  const paths = {
    '/markets': { get: listOperation(profile, served.examples?.list) },
    '/markets/{market_id}': { get: marketOperation(profile, served.examples) },
  };
  const schemas = usedSchemas(paths, { ...(rewriteRefs(structuredClone(loadMarketSchema().$defs)) as Record<string, unknown>), Error: errorSchema(profile.errors) });
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Prediction Market Data Service (market-stub)',
      version,
      description: `Served by market-stub, a stub of the Prediction Market Data Service: markets from its catalog (generated or fixtures). Profile: envelope=${profile.envelope}, paging=${profile.paging}, errors=${profile.errors}, filterStatus=${profile.filterStatus}.`,
      contact: { name: 'market-stub' },
      license: { name: license, identifier: license },
    },
    servers: [{ url: served.serverUrl ?? '/', description: 'The market-stub that served this document' }],
    security: [],
    tags: [{ name: MARKETS_TAG, description: 'Prediction markets: the list and one market by id' }],
    paths,
    components: { schemas },
  };
}

/** The profile's error media type and a response of it: `error('Injected failure')`. */
function errorResponses(profile: ResponseProfile) {
  const media = profile.errors === 'problem' ? 'application/problem+json' : 'application/json';
  const error = (description: string) => ({ description, content: { [media]: { schema: { $ref: '#/components/schemas/Error' } } } });
  const injected = {
    '429': { ...error('Too many requests (injected by a behaviour)'), headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait (RFC 9110 §10.2.3)' } } },
    '500': error('Injected failure'),
    '503': error('Injected failure'),
  };
  return { error, injected };
}

/**
 * The validators of a conditional GET (RFC 9110 §13.1.2, §13.1.3) and what the stub answers them
 * with (src/runtime/conditional-reply.ts): the 200's `ETag` and `Cache-Control`, and the 304.
 */
const CONDITIONAL_PARAMETERS = [
  { name: 'If-None-Match', in: 'header', required: false, description: 'Entity tags from earlier answers (a list, weak comparison, or `*`): a match is answered 304 with no body (RFC 9110 §13.1.2).', schema: { type: 'string' } },
  { name: 'If-Modified-Since', in: 'header', required: false, description: 'An HTTP-date; used only without If-None-Match (RFC 9110 §13.2.2), against Last-Modified.', schema: { type: 'string' } },
];
const VALIDATOR_HEADERS = {
  ETag: { schema: { type: 'string' }, description: 'Strong entity tag of these bytes (RFC 9110 §8.8.3): it changes exactly when the body does' },
  'Last-Modified': { schema: { type: 'string' }, description: 'When the body last changed in stub time (RFC 9110 §8.8.2): the later of the last catalog change and the start of the clock\'s current price step' },
  'Cache-Control': { schema: { type: 'string', const: 'no-cache' }, description: 'Any cache may store the answer but must revalidate it before each reuse (RFC 9111 §5.2.2.4)' },
};
const NOT_MODIFIED = { '304': { description: 'Not Modified: the body the client holds (its If-None-Match or If-Modified-Since) is current; no content (RFC 9110 §15.4.5)', headers: VALIDATOR_HEADERS } };

const PREFER = { name: 'Prefer', in: 'header', required: false, description: 'market-stub per-request behaviour, e.g. `code=503, delay=200, fault=reset` (RFC 7240 syntax).', schema: { type: 'string' } };

function listOperation(profile: ResponseProfile, example: unknown): Record<string, unknown> {
  const { error, injected } = errorResponses(profile);
  const parameters: unknown[] = [PREFER, ...CONDITIONAL_PARAMETERS];
  if (profile.paging !== 'none') parameters.push({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: profile.pageSize }, description: `Page size; values above ${profile.maxPageSize} are clamped.` });
  if (profile.paging === 'offset') parameters.push({ name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Position of the first market of the page in the list, from 0.' });
  if (profile.paging === 'cursor') parameters.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: 'Opaque cursor from next_cursor or the Link header.' });
  if (profile.filterStatus) parameters.push({ name: 'status', in: 'query', required: false, schema: { type: 'string' }, description: 'Only markets with this status.' });
  const headers = profile.paging === 'none' ? VALIDATOR_HEADERS : {
    ...VALIDATOR_HEADERS,
    Link: { schema: { type: 'string' }, description: 'RFC 8288 `<…>; rel="next"` when a next page exists' },
    ...(profile.paging === 'offset' ? { 'X-Total-Count': { schema: { type: 'integer' }, description: 'Markets in the whole list' } } : {}),
  };
  const paging = { none: 'The whole list in one answer.', offset: 'Paged by `limit` and `offset`; the next page is linked.', cursor: 'Paged by `limit` and an opaque `cursor`; the next page is linked.' }[profile.paging];
  return {
    operationId: 'listMarkets',
    summary: 'List markets',
    description: `Every market of the catalog in catalog order, each as its five list fields (MarketSummary). ${paging}`,
    tags: [MARKETS_TAG],
    parameters,
    responses: {
      '200': { description: 'Markets in catalog order', headers, content: { 'application/json': { schema: listSchema(profile), ...(example === undefined ? {} : { example }) } } },
      ...NOT_MODIFIED,
      ...(profile.paging === 'none' ? {} : { '400': error('Bad limit, offset or cursor') }),
      ...injected,
    },
  };
}

function marketOperation(profile: ResponseProfile, examples: OpenApiServed['examples']): Record<string, unknown> {
  const { error, injected } = errorResponses(profile);
  const id = { name: 'market_id', in: 'path', required: true, description: 'The market\'s market_id, percent-encoded as a path segment.', schema: { $ref: '#/components/schemas/MarketId' }, ...(examples ? { example: examples.marketId } : {}) };
  return {
    operationId: 'getMarket',
    summary: 'One market',
    description: 'The market with this market_id, with every field the catalog holds for it (list fields and details).',
    tags: [MARKETS_TAG],
    parameters: [id, PREFER, ...CONDITIONAL_PARAMETERS],
    responses: {
      '200': { description: 'The market', headers: VALIDATOR_HEADERS, content: { 'application/json': { schema: { $ref: '#/components/schemas/Market' }, ...(examples ? { example: examples.market } : {}) } } },
      '400': error('Malformed percent-encoding in market_id'),
      ...NOT_MODIFIED,
      '404': error('No market with this market_id'),
      ...injected,
    },
  };
}

function listSchema(profile: ResponseProfile): Record<string, unknown> {
  const items = { type: 'array', items: { $ref: '#/components/schemas/MarketSummary' } };
  if (profile.envelope === 'bare') return items;
  const properties: Record<string, unknown> = { [profile.envelope]: items };
  if (profile.paging === 'offset') Object.assign(properties, { limit: { type: 'integer' }, offset: { type: 'integer' }, total: { type: 'integer' }, next: { type: ['string', 'null'] } });
  if (profile.paging === 'cursor') Object.assign(properties, { limit: { type: 'integer' }, next_cursor: { type: ['string', 'null'] } });
  return { type: 'object', required: [profile.envelope], properties };
}

function errorSchema(shape: ResponseProfile['errors']): Record<string, unknown> {
  if (shape === 'problem') {
    return { type: 'object', description: 'RFC 9457 problem details', required: ['type', 'title', 'status', 'detail'], properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } } };
  }
  if (shape === 'error-object') {
    return { type: 'object', required: ['error'], properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } } };
  }
  return { type: 'object', required: ['status', 'error', 'message'], properties: { status: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } } };
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(v)]));
  }
  return node;
}

/** The component schemas reachable from `root` through `#/components/schemas/X` refs, in `all`'s order (no unused component). */
function usedSchemas(root: unknown, all: Record<string, unknown>): Record<string, unknown> {
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        const name = k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/') ? v.slice('#/components/schemas/'.length) : undefined;
        if (name === undefined) visit(v);
        else if (!used.has(name)) {
          used.add(name);
          visit(all[name]);
        }
      }
    }
  };
  visit(root);
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}
