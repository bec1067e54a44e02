import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { launchChromium, screenshot } from './support/chromium.js';

// The harness itself: Debian's chromium, driven by playwright-core, reads a stub on loopback.
let browser: Browser;
let stub: MarketStub;

beforeAll(async () => {
  browser = await launchChromium();
  stub = await startMarketStub({ seed: 3, count: 5, clock: '2026-01-01' });
});
afterAll(async () => {
  await browser?.close();
  await stub?.close();
});

it('a page in Chromium fetches the list the stub serves, with CORS', async () => {
  const page = await browser.newPage();
  await page.goto(`${stub.url}/healthz`);
  const list = await page.evaluate(async (url) => (await fetch(`${url}/markets`)).json(), stub.url);
  const expected = await (await fetch(`${stub.url}/markets`)).json();
  expect(list).toEqual(expected);
  await page.setContent(`<pre id="list">${JSON.stringify(list, null, 1).replace(/</g, '&lt;')}</pre>`);
  expect(await page.locator('#list').textContent()).toContain((expected as { market_id: string }[])[0]?.market_id);
  await screenshot(page, 'browser-reaches-stub');
  await page.close();
});

it('a page on another origin reads the paging, limit and versioning headers the stub exposes (Access-Control-Expose-Headers: *)', async () => {
  const paged = await startMarketStub({ seed: 3, count: 5, clock: '2026-01-01', profile: { paging: 'offset', pageSize: 2 }, deviations: [{ name: 'item-deprecated' }] });
  try {
    const page = await browser.newPage();
    // Another origin than the stub's: the healthz page of the first stub (another port).
    await page.goto(`${stub.url}/healthz`);
    const read = await page.evaluate(async (url) => {
      const list = await fetch(`${url}/markets`);
      const ids = ((await list.json()) as { market_id: string }[]).map((m) => m.market_id);
      const item = await fetch(`${url}/markets/${encodeURIComponent(ids[0] ?? '')}`);
      await item.arrayBuffer();
      return { link: list.headers.get('link'), total: list.headers.get('x-total-count'), date: list.headers.get('date'), deprecation: item.headers.get('deprecation') };
    }, paged.url);
    expect(read.link).toMatch(/rel="next"/);
    expect(read.total).toBe('5');
    expect(read.date).toMatch(/^Thu, 01 Jan 2026 /);
    expect(read.deprecation).not.toBeNull();
    await page.close();
  } finally {
    await paged.close();
  }
});
