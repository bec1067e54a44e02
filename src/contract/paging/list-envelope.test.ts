import { describe, expect, it } from 'vitest';
import { findMarketArray, findNextPage, marketOfItem } from './list-envelope.js';

const page = new URL('https://api.test/v1/markets?limit=2');

describe('findMarketArray', () => {
  it.each([
    [[{ a: 1 }], { kind: 'array', basePointer: '' }],
    [{ markets: [], cursor: 'x' }, { kind: 'envelope', key: 'markets', basePointer: '/markets', otherKeys: ['cursor'] }],
    [{ data: [] }, { kind: 'envelope', key: 'data', basePointer: '/data' }],
    [{ results: [], count: 0 }, { kind: 'envelope', key: 'results' }],
    [{ items: [] }, { kind: 'envelope', key: 'items' }],
    [{ markets: 'nope', data: [] }, { kind: 'envelope', key: 'data' }],
    [{ entries: [], total: 3 }, { kind: 'envelope', key: 'entries', basePointer: '/entries', otherKeys: ['total'] }],
    [{ data: [], tags: [] }, { kind: 'envelope', key: 'data' }],
  ])('%j', (body, shape) => {
    expect(findMarketArray(body)).toMatchObject(shape);
  });

  it.each([
    [{ data: { markets: [] }, errors: [] }, { envelope: 'graphql', key: 'data.markets', basePointer: '/data/markets', otherKeys: ['errors'] }],
    [{ data: { marketList: [] }, extensions: {} }, { envelope: 'graphql', key: 'data.marketList' }],
    [{ _embedded: { markets: [] }, _links: {} }, { envelope: 'hal', key: '_embedded.markets', basePointer: '/_embedded/markets' }],
    [{ _embedded: { 'ms:market': [] } }, { envelope: 'hal', key: '_embedded.ms:market', basePointer: '/_embedded/ms:market' }],
    [{ '@odata.context': 'x', value: [] }, { envelope: 'odata', key: 'value' }],
    [{ class: ['markets'], entities: [], links: [] }, { envelope: 'siren', key: 'entities' }],
    [{ jsonapi: { version: '1.1' }, data: [] }, { envelope: 'json-api', key: 'data' }],
    [{ data: [], errors: [] }, { envelope: 'keyed', key: 'data' }],
    [{ entries: [], errors: [] }, { envelope: 'only-array', key: 'entries' }],
    [{ data: { markets: [] }, meta: { total: 0 } }, { envelope: 'keyed', key: 'data.markets', basePointer: '/data/markets', otherKeys: ['meta'] }],
  ])('a standard envelope: %j', (body, shape) => {
    expect(findMarketArray(body)).toMatchObject({ kind: 'envelope', ...shape });
  });

  it('JSON:API is told by its items (the checker says where they held their market)', () => {
    expect(findMarketArray({ data: [] }, (at) => (at === '/data' ? '/attributes' : ''))).toMatchObject({ envelope: 'json-api', itemPointer: '/attributes' });
    expect(marketOfItem('/data', { type: 'markets', id: '1', attributes: { market_id: 'm' } })).toEqual({ market: { market_id: 'm' }, wrapper: '/attributes' });
    expect(marketOfItem('/data', { market_id: 'm', attributes: {} })).toEqual({ market: { market_id: 'm', attributes: {} }, wrapper: '' });
    expect(marketOfItem('/entities', { properties: { market_id: 'm' } })).toEqual({ market: { market_id: 'm' }, wrapper: '/properties' });
    expect(marketOfItem('/markets', { properties: { market_id: 'm' } }).wrapper).toBe('');
  });

  it.each([[{ errors: [{ message: 'x' }] }], [{ data: null, errors: [] }], [{ data: { count: 1 } }], [{ errors: [] }]])('a GraphQL answer without a list, never its errors: %j', (body) => {
    expect(findMarketArray(body)).toBeUndefined();
  });

  it.each([[{ a: [], b: [] }], [null], ['[]'], [42], [{}], [{ market: {} }]])('no market array in %j', (body) => {
    expect(findMarketArray(body)).toBeUndefined();
  });
});

describe('findNextPage', () => {
  const envelope = (extra: Record<string, unknown>) => {
    const body = { markets: [], ...extra };
    const shape = findMarketArray(body);
    if (!shape) throw new Error('no shape');
    return [body, shape] as const;
  };

  it.each([
    [{ next_cursor: 'abc' }, 'https://api.test/v1/markets?limit=2&cursor=abc', 'next_cursor'],
    [{ cursor: 'c 2/3' }, 'https://api.test/v1/markets?limit=2&cursor=c+2%2F3', 'cursor'],
    [{ next: 'https://other.test/markets?p=2' }, 'https://other.test/markets?p=2', 'next'],
    [{ next: '/v1/markets?p=2' }, 'https://api.test/v1/markets?p=2', 'next'],
    [{ next: '?p=3' }, 'https://api.test/v1/markets?p=3', 'next'],
    [{ next: 'opaque-token' }, 'https://api.test/v1/markets?limit=2&cursor=opaque-token', 'next'],
    [{ next_cursor: 'a', cursor: 'current' }, 'https://api.test/v1/markets?limit=2&cursor=a', 'next_cursor'],
    [{ next_cursor: 7 }, 'https://api.test/v1/markets?limit=2&cursor=7', 'next_cursor'],
    [{ next: '1700000000:abc' }, 'https://api.test/v1/markets?limit=2&cursor=1700000000%3Aabc', 'next'],
    [{ '@odata.nextLink': 'https://api.test/v1/markets?$skiptoken=9' }, 'https://api.test/v1/markets?$skiptoken=9', '@odata.nextLink'],
    [{ links: [{ rel: ['self'], href: '/x' }, { rel: ['next'], href: '/v1/markets?p=2' }] }, 'https://api.test/v1/markets?p=2', 'links'],
  ])('envelope %j → %s', (extra, url, via) => {
    const [body, shape] = envelope(extra);
    expect(findNextPage(body, shape, null, page)).toMatchObject({ url: new URL(url), via });
  });

  it.each([[{ next_cursor: null }], [{ next_cursor: '' }], [{ cursor: false }], [{ next: 'ftp://files.test/markets' }], [{}]])('envelope %j → no next page', (extra) => {
    const [body, shape] = envelope(extra);
    expect(findNextPage(body, shape, null, page)).toBeUndefined();
  });

  it('follows Link rel="next" relative to the response URL, for bare arrays and before envelope fields', () => {
    const array = findMarketArray([]);
    if (!array) throw new Error('no shape');
    expect(findNextPage([], array, '<markets?page=2>; rel="next"', page)).toEqual({ url: new URL('https://api.test/v1/markets?page=2'), via: 'link' });
    expect(findNextPage([], array, null, page)).toBeUndefined();
    const [body, shape] = envelope({ next_cursor: 'x' });
    expect(findNextPage(body, shape, '</other>; rel=next', page)?.via).toBe('link');
  });
});
