import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startMarketStub, type ClockReading, type MarketStub } from '../../src/index.js';
import { launchChromium, screenshot } from './support/chromium.js';

// The web console's clock (docs/console.md "What it shows"): the stub instant, its rate and the
// lifecycle, advanced and set from the page through POST /__stub/clock, and followed when another
// client moves it. The market is the one docs/lifecycle.md's example follows (seed 7, 50 markets,
// kalshi): active at the start, determined the day after its resolution date (2026-07-21).
// Needs `npm run build` first (the console's files are in dist/console).
const TOKEN = 'clock-console-token';
const MARKET = 'HVVQ-42JAN23-1';

let browser: Browser;
let stub: MarketStub;
let page: Page;
const pageErrors: string[] = [];

async function clock(change?: Record<string, unknown>): Promise<ClockReading> {
  const response = await fetch(`${stub.url}/__stub/clock`, { method: change ? 'POST' : 'GET', headers: { authorization: `Bearer ${TOKEN}`, ...(change ? { 'content-type': 'application/json' } : {}) }, ...(change ? { body: JSON.stringify(change) } : {}) });
  expect(response.status).toBe(200);
  return (await response.json()) as ClockReading;
}
const shown = async (id: string): Promise<string> => (await page.locator(id).textContent()) ?? '';
const statusCell = () => page.locator(`#catalog-body tr[data-id="${MARKET}"] td`).nth(2);

beforeAll(async () => {
  browser = await launchChromium();
  stub = await startMarketStub({ seed: 7, count: 50, clock: '2026-01-01', lifecycle: 'kalshi', adminToken: TOKEN });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  page.setDefaultTimeout(5000);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${stub.url}/__stub/ui`);
  await page.fill('#token-input', TOKEN);
  await page.press('#token-input', 'Enter');
  await page.locator(`#catalog-body tr[data-id="${MARKET}"]`).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await stub?.close();
});

it('shows the stub instant, that the clock is frozen, and the lifecycle that is on', async () => {
  await expect.poll(() => shown('#clock-instant')).toBe('2026-01-01T00:00:00Z');
  expect(await shown('#clock-pace')).toBe('frozen (rate 0)');
  expect(await page.locator('#clock-lifecycle').isVisible()).toBe(true);
  expect(await shown('#clock-lifecycle')).toContain('lifecycle kalshi');
  expect(await statusCell().textContent()).toBe('active');
});

it('advances the clock by an ISO 8601 duration: the stub moves, and the catalog shows the market closed, then determined', async () => {
  await page.fill('#clock-advance', 'P201DT20H');
  await page.press('#clock-advance', 'Enter');
  await expect.poll(async () => (await clock()).instant, { timeout: 3000 }).toBe('2026-07-21T20:00:00Z');
  await expect.poll(() => shown('#clock-instant'), { timeout: 3000 }).toBe('2026-07-21T20:00:00Z');
  expect(await shown('#message')).toContain('advance the clock P201DT20H ✓');
  // It closes on its resolution date at a seeded hour, and resolves an hour later (docs/lifecycle.md).
  await page.fill('#clock-advance', 'PT4H');
  await page.click('#clock-advance-form button[type=submit]');
  await expect.poll(() => shown('#clock-instant'), { timeout: 3000 }).toBe('2026-07-22T00:00:00Z');
  await expect.poll(() => statusCell().textContent(), { timeout: 3000 }).toBe('determined');
  expect(((await (await fetch(`${stub.url}/markets/${MARKET}`)).json()) as { status: string }).status).toBe('determined');
  await screenshot(page, 'console-clock');
});

it('shows the stub\'s refusal of a backward or unparsable duration, naming the field, and moves nothing', async () => {
  const before = (await clock()).instant;
  await page.fill('#clock-advance', '-PT1H');
  await page.press('#clock-advance', 'Enter');
  await expect.poll(() => page.locator('#message.error').textContent(), { timeout: 3000 }).toContain('advance');
  expect(await shown('#message')).toContain('-PT1H');
  await page.fill('#clock-advance', 'tomorrow');
  await page.press('#clock-advance', 'Enter');
  await expect.poll(() => shown('#message'), { timeout: 3000 }).toContain('"tomorrow"');
  expect((await clock()).instant).toBe(before);
  expect(await shown('#clock-instant')).toBe(before);
});

it('sets the rate: the stub runs at it, and the page runs the instant on between reads', async () => {
  await page.fill('#clock-rate', '3600');
  await page.press('#clock-rate', 'Enter');
  await expect.poll(async () => (await clock()).rate, { timeout: 3000 }).toBe(3600);
  await expect.poll(() => shown('#clock-pace'), { timeout: 3000 }).toBe('rate 3600: 1 h of stub time a second');
  const first = await shown('#clock-instant');
  // Drawn again every second while running: a later instant within 2.5 s, with no click.
  await expect.poll(() => shown('#clock-instant'), { timeout: 2500 }).not.toBe(first);
  expect(Date.parse(await shown('#clock-instant'))).toBeGreaterThan(Date.parse(first));
  await page.fill('#clock-rate', '0');
  await page.press('#clock-rate', 'Enter');
  await expect.poll(() => shown('#clock-pace'), { timeout: 3000 }).toBe('frozen (rate 0)');
  // The page shows whole seconds; a clock that ran carries milliseconds.
  expect(await shown('#clock-instant')).toBe(`${(await clock()).instant.slice(0, 19)}Z`);
  await page.fill('#clock-rate', '-5');
  await page.press('#clock-rate', 'Enter');
  await expect.poll(() => page.locator('#message.error').textContent(), { timeout: 3000 }).toContain('rate');
  expect((await clock()).rate).toBe(0);
});

it('follows a clock another client moves, within the background refresh (about 3 s)', async () => {
  await page.locator('#clock-rate').blur();
  const moved = await clock({ advance: 'P7D' });
  await expect.poll(() => shown('#clock-instant'), { timeout: 5000 }).toBe(`${moved.instant.slice(0, 19)}Z`);
});

it('Reset brings the clock back to its start, and the market back to active', async () => {
  await page.click('#reset-button');
  await page.click('#reset-button');
  await expect.poll(() => shown('#message'), { timeout: 3000 }).toBe('reset (start-up markets, deviations, tick, behaviours, clock) ✓');
  await expect.poll(() => shown('#clock-instant'), { timeout: 3000 }).toBe('2026-01-01T00:00:00Z');
  await expect.poll(() => statusCell().textContent(), { timeout: 3000 }).toBe('active');
  expect((await clock()).instant).toBe('2026-01-01T00:00:00Z');
  expect(pageErrors).toEqual([]);
});

it('says nothing of a lifecycle on a stub without one', async () => {
  const plain = await startMarketStub({ seed: 7, count: 5, clock: '2026-01-01T09:30:00Z' });
  try {
    const other = await browser.newPage();
    await other.goto(`${plain.url}/__stub/ui`);
    await expect.poll(async () => other.locator('#clock-instant').textContent(), { timeout: 3000 }).toBe('2026-01-01T09:30:00Z');
    expect(await other.locator('#clock-lifecycle').isHidden()).toBe(true);
    await other.close();
  } finally {
    await plain.close();
  }
});
