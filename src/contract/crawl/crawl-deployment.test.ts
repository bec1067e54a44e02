import { describe, expect, it } from 'vitest';
import { ContractRunError } from '../http-client/contract-run-error.js';
import { parseBaseUrl } from '../http-client/index.js';
import { marketsUrl, singleUrl, spreadSample } from './crawl-deployment.js';

describe('deployment URLs', () => {
  it.each([
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/markets'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010/markets'],
    ['https://api.test/trade-api/v2/', 'https://api.test/trade-api/v2/markets'],
    ['https://api.test/v1?x=1#f', 'https://api.test/v1/markets'],
  ])('%s → %s', (base, list) => {
    expect(marketsUrl(parseBaseUrl(base)).href).toBe(list);
  });

  it('percent-encodes a market_id as one path segment', () => {
    expect(singleUrl(new URL('https://api.test/v1'), 'a/b c?#%').href).toBe('https://api.test/v1/markets/a%2Fb%20c%3F%23%25');
  });

  it.each(['localhost:4010', 'ftp://x.test', 'http://u:p@x.test', ''])('rejects %j', (base) => {
    expect(() => parseBaseUrl(base)).toThrow(ContractRunError);
  });
});

describe('spreadSample', () => {
  it.each([
    [10, 3, [0, 3, 6]],
    [10, 10, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [3, 50, [0, 1, 2]],
    [200_000, 4, [0, 50_000, 100_000, 150_000]],
    [5, 0, []],
  ])('%i items, %i wanted', (n, count, picked) => {
    expect(spreadSample(Array.from({ length: n }, (_, i) => i), count)).toEqual(picked);
  });
});
