import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEVIATIONS, startMarketStub, type MarketStub } from 'market-stub';
import { loadMarkets } from './market-client.js';

const CONTRACT_BREAKING = DEVIATIONS.filter((d) => d.class === 'contract');
// Deviations this client deliberately tolerates: it ignores list fields it does not use.
const TOLERATED = new Set(['list-resolution-date']);

let stub: MarketStub;
let ids: string[];
beforeAll(async () => {
  stub = await startMarketStub({ seed: 7, count: 6, clock: '2030-01-01' });
  ids = (await stub.catalog()).map((m) => m.market_id);
});
afterAll(() => stub.close());
afterEach(() => stub.setDeviations([]));

describe.each(CONTRACT_BREAKING)('$name ($endpoints)', (deviation) => {
  it('is handled', async () => {
    const bad = ids[2]!;
    await stub.setDeviations([deviation.scope === 'market' ? { name: deviation.name, marketIds: [bad] } : { name: deviation.name }]);
    const log: string[] = [];
    const { markets, listError } = await loadMarkets(stub.url, (line) => log.push(line));
    if (deviation.scope === 'list') {
      expect(markets).toEqual([]);
      expect(listError).toBeDefined();
      expect(log).toEqual([expect.stringMatching(/^market list unavailable: /)]);
    } else if (TOLERATED.has(deviation.name)) {
      expect(markets.map((m) => m.id)).toEqual(ids);
      expect(log).toEqual([]);
    } else {
      expect(markets.map((m) => m.id)).toEqual(ids.filter((id) => id !== bad));
      expect(log).toEqual([expect.stringMatching(/^rejected market /)]);
    }
  });
});
