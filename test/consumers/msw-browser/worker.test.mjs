// The recipe for a real browser (docs/msw.md copies it): the page registers MSW's service worker
// with market-stub's handlers; the test drives the stub through window.marketStub.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchChromium, serveDist, shownRows } from './support.mjs';

let site;
let browser;
let page;
before(async () => {
  site = await serveDist();
  browser = await launchChromium();
  page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(`${site.origin}/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  assert.deepEqual(errors, []);
});
after(async () => {
  await browser?.close();
  await site?.close();
});

test('the page shows the markets the stub serves, with prices in cents', async () => {
  const catalog = await page.evaluate(() => window.marketStub.catalog());
  const rows = await shownRows(page);
  assert.deepEqual(rows.map((r) => r.id), catalog.map((m) => m.market_id));
  assert.equal(rows[0].cells[1], `${Math.round(catalog[0].yes_price * 100)}¢`);
});

test('a deviation set from the test shows on the page; a 503 shows the retry', async () => {
  const flagged = await page.evaluate(async () => {
    const [first] = await window.marketStub.catalog();
    await window.marketStub.setDeviations([{ name: 'string-price', marketIds: [first.market_id] }]);
    await window.render();
    return first.market_id;
  });
  const rows = await shownRows(page);
  assert.equal(rows.find((r) => r.id === flagged).cells[1], '⚠ bad price');
  await page.evaluate(async () => {
    await window.marketStub.addRule({ match: { route: 'list' }, behaviour: { status: 503 }, times: 1 });
    await window.render();
  });
  assert.equal(await page.textContent('.error'), 'The market service answered 503.');
  await page.click('button');
  await page.waitForSelector('tr[data-market-id]');
  const journal = await page.evaluate(() => window.marketStub.requests({ path: '/markets' }));
  assert.deepEqual(journal.slice(-2).map((e) => e.status), [503, 200]);
});
