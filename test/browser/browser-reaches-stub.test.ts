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
