// A market_id is never "." or "..": URL parsers remove those path segments (RFC 3986 §5.2.4, the
// WHATWG URL parser; `%2E` and `%2E%2E` too), so no console, fetch client or browser could ask for
// such a market. schemas/market.schema.json ($defs/MarketId) refuses them, so every surface that
// loads markets refuses them the same way: fixtures, `markets`, setMarkets, the admin API, the
// validator the checker uses; the generator never makes them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, connectMarketStub, createApp, generateMarkets, getMarketValidator, MarketStubError, startMarketStub, type MarketStub } from '../../src/index.js';
import { createFetchHandler } from '../../src/fetch.js';

const valid = (id: string) => ({ market_id: id, title: 'Will it?', status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2027-01-01' });
/** What buildCatalog needs besides where the markets come from (used by the generator only). */
const GENERATOR = { seed: 1, count: 1, clock: '2026-01-01' };
const EXPECTED = 'a market_id other than "." and ".." (URL parsers remove those path segments, RFC 3986 §5.2.4, so GET /markets/{market_id} could never reach it; rename the market)';

async function refusal(promise: Promise<unknown>): Promise<MarketStubError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MarketStubError);
  return error as MarketStubError;
}

describe.each(['.', '..'])('market_id %j', (id) => {
  it('the validator names the field, the rule and the fix (the checker reports it on a deployment)', () => {
    const findings = getMarketValidator().market(valid(id));
    expect(findings).toEqual([{ severity: 'error', code: 'dot-segment-id', pointer: '/market_id', expected: EXPECTED, found: JSON.stringify(id), message: `/market_id: expected ${EXPECTED}, found ${JSON.stringify(id)}` }]);
    expect(getMarketValidator().summary({ market_id: id, title: 't', status: 'active', yes_price: 0.4, no_price: 0.6 }).map((f) => f.code)).toEqual(['dot-segment-id']);
    // Only the two dot segments: ids that merely hold dots are fine.
    for (const ok of ['...', '.a', 'a.', '.%2E', 'a..b']) expect(getMarketValidator().market(valid(ok)), ok).toEqual([]);
  });

  it('fixtures: refused at load with the file, the market and the pointer', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dot-segment-'));
    try {
      writeFileSync(path.join(dir, 'markets.json'), JSON.stringify([valid('OK-1'), valid(id)]));
      const error = await refusal(buildCatalog({ fixtures: dir, ...GENERATOR }));
      expect(error.code).toBe('MARKETS_INVALID');
      expect(error.message).toContain('markets.json');
      expect(error.message).toContain(`/1/market_id: expected ${EXPECTED}, found ${JSON.stringify(id)}`);
      expect(error.findings.map((f) => f.pointer)).toEqual(['/1/market_id']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('markets given in code: refused by startMarketStub and createFetchHandler alike', async () => {
    const error = await refusal(startMarketStub({ markets: [valid(id)] }));
    expect(error.code).toBe('MARKETS_INVALID');
    expect(error.message).toMatch(/^startMarketStub: invalid markets \(1 problem\); nothing was changed:/);
    expect(error.message).toContain(`/0/market_id: expected ${EXPECTED}`);
    expect(() => createFetchHandler({ markets: [valid(id)] })).toThrow(EXPECTED);
  });

  describe('at run time', () => {
    let stub: MarketStub;
    beforeAll(async () => {
      stub = await startMarketStub({ markets: [valid('KEEP-1')] });
    });
    afterAll(() => stub.close());

    it('setMarkets, putMarket and a patch to market_id are refused; nothing changes', async () => {
      expect((await refusal(stub.setMarkets([valid('A'), valid(id)]))).findings.map((f) => f.pointer)).toEqual(['/1/market_id']);
      expect((await refusal(stub.putMarket(valid(id)))).message).toContain(EXPECTED);
      expect((await refusal(stub.patchMarket('KEEP-1', { market_id: id }))).message).toContain('market_id cannot change');
      expect((await stub.catalog()).map((m) => m.market_id)).toEqual(['KEEP-1']);
    });

    it('the admin API refuses PUT /__stub/markets, POST /__stub/markets and PUT /__stub/markets/%2E with 400', async () => {
      const app = createApp({ catalog: await buildCatalog({ markets: [valid('KEEP-1')], ...GENERATOR }) });
      const put = await request(app).put('/__stub/markets').set('content-type', 'application/json').send([valid(id)]).expect(400);
      expect(put.body).toMatchObject({ error: 'markets_invalid' });
      expect(put.body.message).toContain(`/0/market_id: expected ${EXPECTED}, found ${JSON.stringify(id)}`);
      await request(app).post('/__stub/markets').set('content-type', 'application/json').send(valid(id)).expect(400);
      const encoded = id === '.' ? '%2E' : '%2E%2E';
      const one = await request(app).put(`/__stub/markets/${encoded}`).set('content-type', 'application/json').send(valid(id));
      expect(one.status).toBe(400);
      expect(JSON.parse((await request(app).get('/__stub/markets').expect(200)).text)).toEqual([valid('KEEP-1')]);
    });

    it('the remote client answers MARKET_NOT_FOUND as in process, never asking another route', async () => {
      const remote = connectMarketStub(stub.url);
      for (const client of [stub, remote]) {
        const error = await refusal(client.patchMarket(id, { title: 'x' }));
        expect(error.code).toBe('MARKET_NOT_FOUND');
        expect(error.message).toMatch(new RegExp(`^stub\\.patchMarket: no market with market_id "${id.replaceAll('.', '\\.')}"`));
      }
      await expect(remote.removeMarket(id)).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND' });
      expect((await stub.catalog()).map((m) => m.market_id)).toEqual(['KEEP-1']);
    });
  });
});

it('the generator never makes a dot-segment id', () => {
  for (const seed of [1, 2, 3, 99, 12_345]) {
    for (const market of generateMarkets(200, { seed, clock: '2026-01-01' })) expect(['.', '..']).not.toContain(market.market_id);
  }
});
