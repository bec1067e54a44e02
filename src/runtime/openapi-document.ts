import { loadMarketSchema } from '../schema/market-schema.js';
import type { ResponseProfile } from './response-profile.js';

/**
 * Builds the OpenAPI 3.1 document for the two market routes under `profile`: components are the
 * `$defs` of schemas/market.schema.json with `#/$defs/X` refs rewritten to
 * `#/components/schemas/X` (OpenAPI 3.1 §4.8.24 uses JSON Schema 2020-12 as is, so nothing else
 * changes); the list response, query parameters and error bodies follow the active profile.
 */
export function buildOpenApiDocument(profile: ResponseProfile, version: string): Record<string, unknown> {
  const schema = loadMarketSchema();
  const schemas: Record<string, unknown> = rewriteRefs(structuredClone(schema.$defs)) as Record<string, unknown>;
  schemas['Error'] = errorSchema(profile.errors);
  const errorMedia = profile.errors === 'problem' ? 'application/problem+json' : 'application/json';
  const error = (description: string) => ({ description, content: { [errorMedia]: { schema: { $ref: '#/components/schemas/Error' } } } });
  const injected = {
    '429': { ...error('Too many requests (injected by a behaviour)'), headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait (RFC 9110 §10.2.3)' } } },
    '500': error('Injected failure'),
    '503': error('Injected failure'),
  };
  const prefer = { name: 'Prefer', in: 'header', required: false, description: 'market-stub per-request behaviour, e.g. `code=503, delay=200, fault=reset` (RFC 7240 syntax).', schema: { type: 'string' } };
  const listParameters: unknown[] = [prefer];
  if (profile.paging !== 'none') listParameters.push({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: profile.pageSize }, description: `Page size; values above ${profile.maxPageSize} are clamped.` });
  if (profile.paging === 'offset') listParameters.push({ name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } });
  if (profile.paging === 'cursor') listParameters.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: 'Opaque cursor from next_cursor or the Link header.' });
  if (profile.filterStatus) listParameters.push({ name: 'status', in: 'query', required: false, schema: { type: 'string' }, description: 'Only markets with this status.' });
  const listHeaders = profile.paging === 'none' ? undefined : {
    Link: { schema: { type: 'string' }, description: 'RFC 8288 `<…>; rel="next"` when a next page exists' },
    ...(profile.paging === 'offset' ? { 'X-Total-Count': { schema: { type: 'integer' } } } : {}),
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Prediction Market Data Service (market-stub)',
      version,
      description: `Served by market-stub. Profile: envelope=${profile.envelope}, paging=${profile.paging}, errors=${profile.errors}, filterStatus=${profile.filterStatus}.`,
    },
    paths: {
      '/markets': {
        get: {
          operationId: 'listMarkets',
          summary: 'List markets',
          parameters: listParameters,
          responses: {
            '200': { description: 'Markets in catalog order', ...(listHeaders ? { headers: listHeaders } : {}), content: { 'application/json': { schema: listSchema(profile) } } },
            ...(profile.paging === 'none' ? {} : { '400': error('Bad limit, offset or cursor') }),
            ...injected,
          },
        },
      },
      '/markets/{market_id}': {
        get: {
          operationId: 'getMarket',
          summary: 'One market',
          parameters: [{ name: 'market_id', in: 'path', required: true, schema: { $ref: '#/components/schemas/MarketId' } }, prefer],
          responses: {
            '200': { description: 'The market', content: { 'application/json': { schema: { $ref: '#/components/schemas/Market' } } } },
            '400': error('Malformed percent-encoding in market_id'),
            '404': error('No market with this market_id'),
            ...injected,
          },
        },
      },
    },
    components: { schemas },
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
