// Same seed, clock and options give the same bytes through every adapter: the MSW handlers answer
// with the status, content type and body bytes of startMarketStub (node:http), for every deviation
// of the catalogue under each response profile, many seeds, list and item, also after tick,
// setMarkets and reset.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVIATIONS, startMarketStub, type MarketStub, type MarketStubClient, type ResponseProfile } from '../../src/index.js';
import { createMarketStubHandlers } from '../../src/msw.js';

const BASE = 'http://same-bytes.market-stub.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => server.close());

const PROFILES: Record<string, Partial<ResponseProfile>> = {
  default: {},
  'cursor paging in an envelope': { envelope: 'markets', paging: 'cursor', pageSize: 4 },
  'offset paging, RFC 9457 errors': { paging: 'offset', pageSize: 5, errors: 'problem' },
  'error objects, status filter': { errors: 'error-object', filterStatus: true },
};

interface Seen {
  status: number;
  type: string | null;
  body: string;
}

/** One request as a client sees it; the body as base64 so every byte counts. */
async function seen(url: string, headers: Record<string, string> = {}): Promise<Seen> {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()).toString('base64') };
}

/** The requests compared on both sides: the list (pages too), three markets, an unknown id, bad paging, Prefer. */
async function exchange(url: string, ids: readonly string[]): Promise<Seen[]> {
  const targets = ['/markets', '/markets?limit=3', '/markets?limit=2&offset=3', '/markets?status=active', '/markets?limit=x', ...ids.map((id) => `/markets/${encodeURIComponent(id)}`), '/markets/no-such-market'];
  return Promise.all([...targets.map((t) => seen(`${url}${t}`)), seen(`${url}/markets/${encodeURIComponent(ids[0] ?? '')}`, { prefer: 'deviation=item-bom' })]);
}

async function pair(options: Parameters<typeof startMarketStub>[0] & object): Promise<{ http: MarketStub; msw: MarketStubClient }> {
  const { handlers, stub } = createMarketStubHandlers({ ...options, baseUrl: BASE } as Parameters<typeof createMarketStubHandlers>[0]);
  server.resetHandlers(...handlers);
  // shutdownGraceMs 0: every exchange has been answered before close(), which then closes the idle
  // keep-alive connections at once instead of after IDLE_CLOSE_DELAY_MS (500 ms, src/http/server.ts).
  return { http: await startMarketStub({ ...options, shutdownGraceMs: 0 }), msw: stub };
}

describe.each(Object.entries(PROFILES))('MSW and node:http give the same bytes: %s', (_name, profile) => {
  it.each(DEVIATIONS.map((d, i) => [d.name, i] as const))('deviation %s', async (name, i) => {
    const seed = 1 + ((i * 7919 + Object.keys(profile).length * 104_729) % 1_000_003);
    const deviation = DEVIATIONS[i]?.scope === 'list' ? { name } : { name, rate: 0.5 };
    const { http, msw } = await pair({ seed, count: 9, clock: '2026-01-01', profile, deviations: [deviation] });
    try {
      const ids = (await http.catalog()).slice(0, 3).map((m) => m.market_id);
      const slow = name === 'item-slow';
      const picked = slow ? ids.slice(0, 1) : ids;
      const [a, b] = await Promise.all([exchange(http.url, picked), exchange(msw.url, picked)]);
      expect(b).toEqual(a);
      expect(a.some((s) => s.status === 200)).toBe(true);
    } finally {
      await http.close();
    }
  }, 30_000);
});

describe('the same bytes after the handle changes the catalog', () => {
  it('tick, setMarkets, patchMarket, setDeviations and reset change both sides alike', async () => {
    const { http, msw } = await pair({ seed: 77, count: 12, clock: '2026-03-01', profile: { envelope: 'data' } });
    try {
      const compare = async () => {
        const ids = (await http.catalog()).slice(0, 3).map((m) => m.market_id);
        expect(await exchange(msw.url, ids)).toEqual(await exchange(http.url, ids));
        return ids;
      };
      const ids = await compare();
      await Promise.all([http.tick(3), msw.tick(3)]);
      await compare();
      const id = ids[1] ?? '';
      await Promise.all([http.patchMarket(id, { title: 'Patched on both?' }), msw.patchMarket(id, { title: 'Patched on both?' })]);
      await Promise.all([http.setDeviations([{ name: 'string-price', marketIds: [id] }, { name: 'list-bom' }]), msw.setDeviations([{ name: 'string-price', marketIds: [id] }, { name: 'list-bom' }])]);
      await compare();
      const markets = [{ market_id: 'X-1', title: 'Will X?', status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2027-01-01' }];
      await Promise.all([http.setMarkets(markets), msw.setMarkets(markets)]);
      await compare();
      await Promise.all([http.reset(), msw.reset()]);
      await compare();
    } finally {
      await http.close();
    }
  });
});
