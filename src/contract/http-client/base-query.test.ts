import { describe, expect, it } from 'vitest';
import { baseUrlSecrets, readBaseQuery, withBaseQuery } from './base-query.js';

describe('the --base-url query on every request', () => {
  const query = readBaseQuery(new URL('https://api.example.com/v1?api_key=K%2F1+x&region=eu'));

  it('is appended as written to a request on the base origin, after the request\'s own query, which is not re-encoded', () => {
    const sent = withBaseQuery(new URL('https://api.example.com/v1/markets?cursor=a%20b%2Fc'), query);
    expect(sent.search).toBe('?cursor=a%20b%2Fc&api_key=K%2F1+x&region=eu');
    expect(withBaseQuery(new URL('https://api.example.com/v1/markets/M-1'), query).search).toBe('?api_key=K%2F1+x&region=eu');
  });

  it('leaves a parameter the request carries itself (a paging link repeating the key) with the request\'s value', () => {
    expect(withBaseQuery(new URL('https://api.example.com/v1/markets?page=2&api_key=K2'), query).search).toBe('?page=2&api_key=K2&region=eu');
  });

  it('never goes to another origin (scheme, host or port differing)', () => {
    for (const other of ['http://api.example.com/v1/markets', 'https://cdn.example.com/v1/markets', 'https://api.example.com:8443/v1/markets']) {
      const url = new URL(other);
      expect(withBaseQuery(url, query)).toBe(url);
    }
  });

  it('names the secret parameters (defaults and --redact-query, any case, percent-decoded) and their decoded values', () => {
    expect(query.secretParams).toEqual(['api_key']);
    expect(query.secretValues).toEqual(['K/1 x']);
    const extended = readBaseQuery(new URL('https://h/?AppId=s3cr3t-v4lue&Token=t0k3n&sig=&lang=en'), ['appid']);
    expect(extended.secretParams).toEqual(['AppId', 'Token', 'sig']);
    expect(extended.secretValues).toEqual(['s3cr3t-v4lue', 't0k3n']);
  });

  it('is nothing for a base URL without a query, and baseUrlSecrets is empty for text that is not a URL', () => {
    const none = readBaseQuery(new URL('https://h/v1'));
    const url = new URL('https://h/v1/markets');
    expect(none.params).toEqual([]);
    expect(withBaseQuery(url, none)).toBe(url);
    expect(baseUrlSecrets('not a url?api_key=K')).toEqual([]);
    expect(baseUrlSecrets('https://h/?key=abcd1234&page=1')).toEqual(['abcd1234']);
  });
});
