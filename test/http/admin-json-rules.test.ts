import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';

// The admin API reads its bodies with the JSON rules of every input (docs/limits.md, "Reading
// JSON"): the same limits and pointers as fixture files, in the admin API's error shape.

const json = { 'content-type': 'application/json' };
const marketText = (id: string, extra = '') => `{"market_id":"${id}","title":"Will ${id}?","status":"active","yes_price":0.5,"no_price":0.5,"resolution_date":"2027-01-01"${extra}}`;
const nested = (levels: number) => `,"extra":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

let stub: MarketStub;
beforeAll(async () => {
  stub = await startMarketStub({ markets: [JSON.parse(marketText('a')) as object] });
});
afterAll(() => stub.close());

const send = async (method: string, route: string, body: string | Uint8Array) => {
  const res = await fetch(`${stub.url}${route}`, { method, headers: json, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('admin API bodies under the JSON rules', () => {
  it('a body nested past 64 levels names the pointer where it passed the limit', async () => {
    const res = await send('PUT', '/__stub/markets/a', marketText('a', nested(70)));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'limit_exceeded', option: 'body', expected: 'JSON nested at most 64 levels' });
    expect(res.body['message']).toBe(`PUT /__stub/markets/{id}: the body is nested deeper than 64 levels (more than 64 levels at /extra${'/a'.repeat(63)}).`);
  });

  it('a market of 63 levels (within the body limit) is refused as a fixture file would be; 62 is taken and served', async () => {
    const deep = await send('PUT', '/__stub/markets/a', marketText('a', nested(62)));
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ error: 'option_invalid', option: `market/extra${'/a'.repeat(61)}`, expected: 'a market nested at most 62 levels', found: 'more than 62 levels' });
    const list = await send('PUT', '/__stub/markets', `[${marketText('b', nested(62))}]`);
    expect(list.body).toMatchObject({ error: 'option_invalid', option: `markets/0/extra${'/a'.repeat(61)}` });
    expect((await send('PUT', '/__stub/markets/a', marketText('a', nested(61)))).status).toBe(200);
    expect((await fetch(`${stub.url}/markets/a`)).status).toBe(200);
    const patched = await send('PATCH', '/__stub/markets/a', `{"meta":${'{"a":'.repeat(62)}1${'}'.repeat(62)}}`);
    expect(patched.body).toMatchObject({ error: 'option_invalid', expected: 'a market nested at most 62 levels' });
  });

  it('a body that is not UTF-8 names the byte offset; a byte-order mark is refused as in fixture files', async () => {
    const text = marketText('a');
    const bytes = new TextEncoder().encode(text);
    bytes[30] = 0xe9;
    const latin1 = await send('PUT', '/__stub/markets/a', bytes);
    expect(latin1.status).toBe(400);
    expect(latin1.body).toMatchObject({ error: 'option_invalid', option: 'body', expected: 'UTF-8 text (RFC 8259 §8.1)' });
    expect(latin1.body['message']).toBe('PUT /__stub/markets/{id}: the body is not UTF-8 text (RFC 8259 §8.1): bytes that are not UTF-8 at byte offset 30.');
    const bom = await send('PUT', '/__stub/markets/a', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]));
    expect(bom.status).toBe(400);
    expect(bom.body).toMatchObject({ error: 'option_invalid', option: 'body', expected: 'JSON text without a byte-order mark (RFC 8259 §8.1)' });
  });
});
