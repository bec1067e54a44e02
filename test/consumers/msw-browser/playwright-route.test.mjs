// The recipe for flows where the service worker cannot be controlled from the test (docs/msw.md
// copies it): Playwright's page.route answers the app's requests from market-stub's MSW handlers
// running in the test process, through msw's getResponse; a network error aborts the request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { getResponse } from 'msw';
import { createMarketStubHandlers } from 'market-stub/msw';
import { launchChromium, serveDist, shownRows } from './support.mjs';

const BASE = 'https://api.markets.test';
const { handlers, stub } = createMarketStubHandlers({ baseUrl: BASE, seed: 7, count: 5, clock: '2026-01-01' });

/** page.route handler: the stub's answer, or an aborted request for its network error. */
async function answerFromStub(route) {
  const request = route.request();
  const response = await getResponse(handlers, new Request(request.url(), { method: request.method(), headers: request.headers() }));
  if (!response) return route.continue();
  if (response.type === 'error') return route.abort('connectionreset');
  let body;
  try {
    body = Buffer.from(await response.arrayBuffer());
  } catch {
    return route.abort('connectionreset');
  }
  return route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body });
}

let site;
let browser;
let page;
before(async () => {
  site = await serveDist();
  browser = await launchChromium();
  page = await browser.newPage();
  await page.route(`${BASE}/**`, answerFromStub);
});
after(async () => {
  await browser?.close();
  await site?.close();
});

test('page.route serves the dashboard from the handlers; the test controls the stub directly', async () => {
  await page.goto(`${site.origin}/plain.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  const catalog = await stub.catalog();
  assert.deepEqual((await shownRows(page)).map((r) => r.id), catalog.map((m) => m.market_id));
  await stub.setDeviations([{ name: 'null-price', marketIds: [catalog[1].market_id] }]);
  await page.evaluate(() => window.render());
  const flagged = (await shownRows(page)).find((r) => r.id === catalog[1].market_id);
  assert.ok(flagged.cells.includes('⚠ bad price'), `a null price is flagged: ${flagged.cells.join(' | ')}`);
  assert.equal(await stub.requestCount({ path: '/markets' }), 2);
});

test('a reset fault is an aborted request: the page says the service cannot be reached', async () => {
  await stub.addRule({ match: { route: 'list' }, behaviour: { fault: 'reset' }, times: 1 });
  await page.evaluate(() => window.render());
  assert.equal(await page.textContent('.error'), 'The market service cannot be reached.');
});
