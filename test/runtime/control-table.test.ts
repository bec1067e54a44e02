// "A new control is its implementation plus one row": the control table (src/runtime/control-table.ts)
// is the one list of controls, and each surface exposes exactly its rows, read through the public
// surfaces: the in-process handle (startMarketStub, MSW, Fetch), the remote client
// (connectMarketStub) and the admin API over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMarketStub, startMarketStub, type MarketStub, type MarketStubClient } from '../../src/index.js';
import { createMarketStubHandlers } from '../../src/msw.js';
import { createFetchHandler } from '../../src/fetch.js';
import { CONTROLS, LIBRARY_CONTROLS } from '../../src/runtime/control-table.js';

const STUB = { seed: 3, count: 2, clock: '2026-01-01' } as const;
const libraryNames = () => LIBRARY_CONTROLS.map((row) => row.name).sort();
/** The function-valued members of a client, `url` aside. */
const methodsOf = (client: object) => Object.entries(client).filter(([, value]) => typeof value === 'function').map(([key]) => key).sort();

let stub: MarketStub;
beforeAll(async () => {
  stub = await startMarketStub({ ...STUB });
});
afterAll(async () => {
  await stub.close();
});

describe('the control table', () => {
  it('lists each control once, each route once, and every library control on an admin route', () => {
    const names = CONTROLS.map((row) => row.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = CONTROLS.map((row) => `${row.method} ${row.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    // The library controls: MarketStubClient's methods (the type requires one row per method).
    expect(libraryNames()).toEqual(['addRule', 'catalog', 'clearRequests', 'clock', 'har', 'patchMarket', 'putMarket', 'removeMarket', 'removeRule', 'requestCount', 'requests', 'reset', 'setBehaviour', 'setClock', 'setDeviations', 'setMarkets', 'tick']);
    for (const row of CONTROLS) expect(row.doc.length, row.name).toBeGreaterThan(10);
  });
});

describe('the in-process handle is made from the table', () => {
  it('startMarketStub, the MSW handle and the Fetch handler have exactly the library rows as methods', () => {
    const extras = new Set(['close', 'fetch']);
    const { stub: msw } = createMarketStubHandlers({ ...STUB, baseUrl: 'http://rows.market-stub.test' });
    const fetchHandler = createFetchHandler({ ...STUB });
    for (const handle of [stub, msw, fetchHandler] as MarketStubClient[]) {
      expect(methodsOf(handle).filter((name) => !extras.has(name))).toEqual(libraryNames());
    }
  });

  it('each method is named after its row in errors (stub.<name>)', async () => {
    await expect(stub.removeMarket('no-such-market')).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND', where: 'stub.removeMarket' });
    await expect(stub.tick(0)).rejects.toMatchObject({ code: 'OPTION_INVALID', where: 'stub.tick' });
  });
});

describe('the remote client is made from the table', () => {
  it('connectMarketStub has exactly the library rows as methods, and each reaches its row (same errors as in process)', async () => {
    const remote = connectMarketStub(stub.url);
    expect(methodsOf(remote)).toEqual(libraryNames());
    await expect(remote.removeMarket('no-such-market')).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND', where: 'stub.removeMarket' });
    await expect(remote.tick(0)).rejects.toMatchObject({ code: 'OPTION_INVALID', where: 'stub.tick' });
    expect(await remote.requestCount({ path: '/nothing-here' })).toBe(0);
  });
});

describe('the admin routes are made from the table', () => {
  it('GET /__stub lists the index and then one route per row, in table order, with its doc', async () => {
    const index = (await (await fetch(`${stub.url}/__stub`)).json()) as { routes: { method: string; path: string; describe: string }[] };
    expect(index.routes).toEqual([
      { method: 'GET', path: '/__stub', describe: 'this index: routes, limits, and the deviations in force with how many markets each reaches' },
      ...CONTROLS.map((row) => ({ method: row.method, path: `/__stub${row.path}`, describe: row.doc })),
    ]);
  });

  it('every row answers at its method and path (never admin_route_not_found), and a method no row has is 405', async () => {
    for (const row of CONTROLS) {
      const path = row.path.replace('{id}', 'no-such-id');
      const response = await fetch(`${stub.url}/__stub${path}`, { method: row.method, ...(row.method === 'GET' || row.method === 'DELETE' ? {} : { headers: { 'content-type': 'application/json' }, body: 'null' }) });
      const text = await response.text();
      expect(text, `${row.method} ${row.path}`).not.toContain('admin_route_not_found');
    }
    const stray = await fetch(`${stub.url}/__stub/tick`, { method: 'DELETE' });
    expect(stray.status).toBe(405);
    expect(stray.headers.get('allow')).toBe('POST');
  });
});
