// Why this answer (docs/explain.md): `Market-Stub-Explain` on request (the `explain` option, or
// `Prefer: explain`), an RFC 8941 Dictionary naming the deviations, behaviours and rules (with the
// applications left) that shaped the answer, the profile and the stub instant; the journal entry
// holds the same record, in process and through connectMarketStub; off by default; odd Prefer
// values are a 400 in the profile's error shape, never a crash (fast-check over header values).
import fc from 'fast-check';
import { parseDictionary, Token, type InnerList, type Item } from 'structured-headers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMarketStub, startMarketStub, type MarketStub, type MarketStubOptions } from '../../src/index.js';
import { createFetchHandler } from '../../src/fetch.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function stub(options: MarketStubOptions = {}): Promise<MarketStub> {
  const s = await startMarketStub({ count: 6, seed: 4, clock: '2026-01-01', ...options });
  open.push(s);
  return s;
}

/** The explanation header read back as plain values with the RFC 8941 parser of `structured-headers`. */
function readExplain(value: string | null) {
  expect(value, 'Market-Stub-Explain is sent').not.toBeNull();
  const dictionary = parseDictionary(value ?? '');
  const list = (key: string) => ((dictionary.get(key) as InnerList)[0]).map(([item]) => item);
  const bare = (key: string) => {
    const [item] = dictionary.get(key) as Item;
    return item instanceof Token ? item.toString() : item;
  };
  const rules = ((dictionary.get('rule') as InnerList)[0]).map(([id, params]) => (params.has('left') ? { id, left: params.get('left') } : { id }));
  return { keys: [...dictionary.keys()], deviations: list('deviation'), behaviour: list('behaviour'), rules, envelope: bare('envelope'), paging: bare('paging'), errors: bare('errors'), instant: bare('instant') };
}

describe('Market-Stub-Explain', () => {
  it('is off by default: no explanation header, no Preference-Applied, no journal field', async () => {
    const s = await stub({ deviations: [{ name: 'string-price' }] });
    const id = (await s.catalog())[0]?.market_id ?? '';
    for (const path of ['/markets', `/markets/${id}`, '/markets/none', '/healthz', '/openapi.json']) {
      const res = await fetch(`${s.url}${path}`);
      await res.arrayBuffer();
      expect([...res.headers.keys()].filter((k) => k.startsWith('market-stub') || k === 'preference-applied'), path).toEqual([]);
    }
    expect((await s.requests()).every((e) => !('explain' in e))).toBe(true);
  });

  it('Prefer: explain names the deviations, the rule and its times left, the profile and the instant (the Date sent)', async () => {
    const s = await stub({ deviations: [{ name: 'string-price' }], profile: { envelope: 'markets', paging: 'cursor', pageSize: 2 } });
    const id = (await s.catalog())[1]?.market_id ?? '';
    await s.addRule({ id: 'slow-item', match: { route: 'item', marketId: id }, behaviour: { delayMs: 5 }, times: 3 });
    const res = await fetch(`${s.url}/markets/${id}`, { headers: { prefer: 'explain' } });
    await res.arrayBuffer();
    const explained = readExplain(res.headers.get('market-stub-explain'));
    expect(explained).toEqual({
      keys: ['deviation', 'behaviour', 'rule', 'envelope', 'paging', 'errors', 'instant'],
      deviations: ['string-price'], behaviour: ['delay=5 (rule slow-item)'], rules: [{ id: 'slow-item', left: 2 }],
      envelope: 'markets', paging: 'cursor', errors: 'default', instant: new Date(res.headers.get('date') ?? '').toISOString().replace('.000Z', 'Z'),
    });
    expect(explained.instant).toMatch(/^2026-01-01T\d\d:\d\d:\d\dZ$/);
    expect(res.headers.get('preference-applied')).toBe('explain');
    expect(res.headers.get('access-control-expose-headers')).toBe('*');
    // The last application of the rule: 0 left, and it is gone.
    await (await fetch(`${s.url}/markets/${id}`)).arrayBuffer();
    const last = await fetch(`${s.url}/markets/${id}`, { headers: { prefer: 'explain, deviation=null-price' } });
    await last.arrayBuffer();
    expect(readExplain(last.headers.get('market-stub-explain')).rules).toEqual([{ id: 'slow-item', left: 0 }]);
    expect(readExplain(last.headers.get('market-stub-explain')).deviations).toEqual(['string-price', 'null-price']);
    const behaviours = (await (await fetch(`${s.url}/__stub/behaviours`)).json()) as { rules: unknown[] };
    expect(behaviours.rules).toEqual([]);
  });

  it('the journal entry holds the same record, in process and through connectMarketStub', async () => {
    const s = await stub({ explain: true });
    await s.setBehaviour({ status: 503 });
    const res = await fetch(`${s.url}/markets`);
    await res.arrayBuffer();
    expect(res.status).toBe(503);
    const header = readExplain(res.headers.get('market-stub-explain'));
    expect(res.headers.get('preference-applied')).toBeNull();
    const [entry] = await s.requests();
    expect(entry?.explain).toEqual({ deviations: [], behaviour: ['status=503'], rules: [], profile: { envelope: 'bare', paging: 'none', errors: 'default' }, instant: header.instant });
    const remote = await connectMarketStub(s.url);
    expect((await remote.requests())[0]?.explain).toEqual(entry?.explain);
  });

  it('the explain option explains every answer, a 404 and /healthz included; Prefer: explain=?0 leaves one out', async () => {
    const s = await stub({ explain: true });
    for (const path of ['/markets', '/markets/none', '/healthz', '/openapi.json', '/nowhere']) {
      const res = await fetch(`${s.url}${path}`);
      await res.arrayBuffer();
      expect(readExplain(res.headers.get('market-stub-explain')).paging, path).toBe('none');
    }
    const off = await fetch(`${s.url}/markets`, { headers: { prefer: 'explain=?0' } });
    await off.arrayBuffer();
    expect(off.headers.get('market-stub-explain')).toBeNull();
    expect((await s.requests()).at(-1)).not.toHaveProperty('explain');
  });

  it('a CORS preflight is answered as it is, never explained', async () => {
    const s = await stub({ explain: true });
    const res = await fetch(`${s.url}/markets`, { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET', origin: 'http://app.test' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('market-stub-explain')).toBeNull();
  });

  it.each([['default', {}], ['problem', { errors: 'problem' as const }]])('an odd explain value is a 400 in the %s error shape, saying what to send', async (_name, profile) => {
    const s = await stub({ profile });
    for (const value of ['explain=maybe', 'explain="yes please"', 'code=200, explain=2', `explain=${'x'.repeat(5000)}`]) {
      const res = await fetch(`${s.url}/markets`, { headers: { prefer: value } });
      const body = await res.text();
      expect(res.status, value).toBe(400);
      expect(body).toContain('is not a switch: send \\"Prefer: explain\\"');
      expect(body.length).toBeLessThan(1000);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('labels outside printable ASCII are escaped, so the field always parses (the error-rate arrow)', async () => {
    const s = await stub();
    await s.setBehaviour({ errorRate: 1, status: 502 });
    const res = await fetch(`${s.url}/markets`, { headers: { prefer: 'explain' } });
    await res.arrayBuffer();
    expect(readExplain(res.headers.get('market-stub-explain')).behaviour).toEqual(['error-rate=1 \\u2192 502']);
    expect((await s.requests())[0]?.explain?.behaviour).toEqual(['error-rate=1 → 502']);
  });

  it('any Prefer value gives an answer the market routes give, never a 500, and an explanation that parses (fast-check)', async () => {
    const handler = createFetchHandler({ count: 3, seed: 2, clock: '2026-01-01', errorLog: () => {} });
    const token = fc.constantFrom('explain', 'explain=?0', 'explain=?1', 'explain=1', 'explain=""', 'explain=;', 'code=201', 'deviation=string-price', 'delay=0', ' ', ';', '=', 'Explain', 'EXPLAIN=TRUE');
    const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 });
    await fc.assert(fc.asyncProperty(fc.array(fc.oneof(token, printable), { maxLength: 5 }), async (parts) => {
      const prefer = parts.join(', ');
      const res = await handler.fetch(new Request('http://stub.test/markets', { headers: { prefer } }));
      await res.arrayBuffer();
      expect([200, 201, 400], prefer).toContain(res.status);
      const header = res.headers.get('market-stub-explain');
      if (header !== null) expect(() => parseDictionary(header), prefer).not.toThrow();
    }), { numRuns: 300 });
  });
});
