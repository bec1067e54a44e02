// The recipe for component tests in jsdom (docs/msw.md copies it): market-stub's MSW handlers in
// msw/node's setupServer, a seeded catalog, and the same controls as a stub on a port.
// msw3-jsdom runs these tests on msw 3 with its own msw-listen.js (msw 3 renamed the option).
import { createServer } from 'node:http';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMarketStubHandlers } from 'market-stub/msw';
import { renderDashboard } from './dashboard.js';
import { LISTEN_OPTIONS } from './msw-listen.js';

const BASE = 'https://api.markets.test';
const { handlers, stub } = createMarketStubHandlers({ baseUrl: BASE, seed: 7, count: 5, clock: '2026-01-01' });
const server = setupServer(...handlers);

beforeAll(() => server.listen(LISTEN_OPTIONS));
afterEach(() => stub.reset());
afterAll(() => server.close());

let root;
beforeEach(async () => {
  document.body.innerHTML = '<main id="app"></main>';
  root = document.getElementById('app');
  await stub.clearRequests();
});

describe('the dashboard against market-stub in jsdom', () => {
  it('lists every market with its prices in cents', async () => {
    const markets = await stub.catalog();
    await renderDashboard(root, BASE);
    const rows = [...root.querySelectorAll('tr[data-market-id]')];
    expect(rows.map((r) => r.dataset.marketId)).toEqual(markets.map((m) => m.market_id));
    expect(rows[0].children[1].textContent).toBe(`${Math.round(markets[0].yes_price * 100)}¢`);
    expect(await stub.requestCount({ path: '/markets' })).toBe(1);
  });

  it('survives contract drift: a price sent as a string is flagged, the rest still shows', async () => {
    const [first] = await stub.catalog();
    await stub.setDeviations([{ name: 'string-price', marketIds: [first.market_id] }]);
    await renderDashboard(root, BASE);
    const rows = [...root.querySelectorAll('tr[data-market-id]')];
    expect(rows).toHaveLength(5);
    expect(root.querySelector(`tr[data-market-id="${first.market_id}"]`).textContent).toContain('⚠ bad price');
    expect(rows.filter((r) => r.textContent.includes('⚠')).length).toBe(1);
  });

  it('survives a 503: shows the error, then the list after Retry', async () => {
    await stub.addRule({ match: { route: 'list' }, behaviour: { status: 503, retryAfter: 2 }, times: 1 });
    await renderDashboard(root, BASE);
    expect(root.querySelector('.error').textContent).toBe('The market service answered 503.');
    root.querySelector('button').click();
    await expect.poll(() => root.querySelectorAll('tr[data-market-id]').length).toBe(5);
    const journal = await stub.requests({ path: '/markets' });
    expect(journal.map((e) => e.status)).toEqual([503, 200]);
  });

  it('shows "cannot be reached" when the connection resets (MSW network error)', async () => {
    await stub.addRule({ match: { route: 'list' }, behaviour: { fault: 'reset' }, times: 1 });
    await renderDashboard(root, BASE);
    expect(root.querySelector('.error').textContent).toBe('The market service cannot be reached.');
  });

  it('waits for a latency rule (the response is delayed, not dropped)', async () => {
    await stub.setBehaviour({ delayMs: 300 });
    const started = performance.now();
    await renderDashboard(root, BASE);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(root.querySelectorAll('tr[data-market-id]').length).toBe(5);
  });

  it('refuses a request no handler answers: it fails instead of reaching the real network', async () => {
    // A real server on loopback: without the unhandled-request option set to 'error', fetch reaches it.
    const real = createServer((_req, res) => res.end('real network')).listen(0, '127.0.0.1');
    await new Promise((resolve) => real.once('listening', resolve));
    try {
      await expect(fetch(`http://127.0.0.1:${real.address().port}/markets`)).rejects.toThrow();
    } finally {
      real.close();
    }
  });
});
