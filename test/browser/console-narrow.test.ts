import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { launchChromium, screenshot } from './support/chromium.js';

// The web console on a 1,024 px wide window (a laptop with a side panel open): the catalog's
// titles and the journal's paths stay readable, nothing scrolls sideways, and a share deviation
// tags exactly the markets the stub counted as serving it. Needs `npm run build` first.
const WIDTH = 1024;
let browser: Browser;
let stub: MarketStub;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  stub = await startMarketStub({ seed: 1, count: 40, clock: '2026-01-01', deviations: [{ name: 'string-price', rate: 0.3 }] });
  page = await browser.newPage({ viewport: { width: WIDTH, height: 768 }, colorScheme: 'light' });
});
afterAll(async () => {
  await browser?.close();
  await stub?.close();
});

interface Box { width: number; scroll: number; client: number }
/** The page-side element shape read here (the test's own types have no DOM). */
interface Measured { getBoundingClientRect(): { width: number }; scrollWidth: number; clientWidth: number }
const measure = (el: Measured): Box => ({ width: el.getBoundingClientRect().width, scroll: el.scrollWidth, client: el.clientWidth });

it('reads well at 1,024 px: no sideways scroll, titles and journal paths wide enough to read', async () => {
  await page.goto(`${stub.url}/__stub/ui`);
  await page.locator('#catalog-body tr').nth(39).waitFor();
  const [first] = await stub.catalog();
  const longPath = `/markets/${first?.market_id}?status=active&limit=25&cursor=eyJvZmZzZXQiOjI1fQ&trace=journal-width`;
  await fetch(`${stub.url}${longPath}`);
  const entry = page.locator('#journal-list details', { hasText: 'journal-width' });
  await entry.waitFor({ timeout: 5000 });
  await screenshot(page, 'console-1024');

  // The three panes side by side or stacked, never over one another, each with room.
  const panes = await Promise.all(['#controls', '#catalog', '#journal'].map(async (id) => ({ id, box: (await page.locator(id).boundingBox())! })));
  for (const { id, box } of panes) expect(box.width * box.height, id).toBeGreaterThan(200 * 200);
  // A pane whose content is taller than its box must scroll it (overflow auto), not spill it over the next pane.
  for (const { id } of panes) {
    const spill = await page.locator(id).evaluate((el: Measured & { scrollHeight: number; clientHeight: number }) => ({ overflow: (globalThis as unknown as { getComputedStyle(e: unknown): { overflowY: string } }).getComputedStyle(el).overflowY, scroll: el.scrollHeight, client: el.clientHeight }));
    if (spill.overflow === 'visible') expect(spill.scroll, `${id} spills over its neighbours`).toBeLessThanOrEqual(spill.client + 1);
  }
  for (let i = 0; i < panes.length; i++) {
    for (let j = i + 1; j < panes.length; j++) {
      const [a, b] = [panes[i]!.box, panes[j]!.box];
      const overlap = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
      expect(overlap, `${panes[i]!.id} and ${panes[j]!.id} overlap`).toBeLessThan(1);
    }
  }
  const pageWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  expect(pageWidth).toBeLessThanOrEqual(WIDTH);
  const title = (await page.locator('#catalog-body tr td.title').first().evaluate(measure));
  expect(title.width, 'the title column').toBeGreaterThanOrEqual(220);
  const path = (await entry.locator('.path').evaluate(measure));
  expect(path.width, 'the journal path').toBeGreaterThanOrEqual(200);
});

it('tags only the markets the share selected, as GET /__stub/deviations counts them', async () => {
  const { reach } = (await (await fetch(`${stub.url}/__stub/deviations`)).json()) as { reach: { name: string; marketIds: string[] }[] };
  const selected = reach[0]?.marketIds ?? [];
  expect(selected.length).toBeGreaterThan(0);
  expect(selected.length).toBeLessThan(40);
  const tagged = await page.locator('#catalog-body tr', { has: page.locator('.chip', { hasText: 'string-price' }) }).evaluateAll((rows: { getAttribute(name: string): string | null }[]) => rows.map((r) => r.getAttribute('data-id')));
  expect([...(tagged as string[])].sort()).toEqual([...selected].sort());
  const served = (await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string; yes_price: unknown }[];
  expect(served.filter((m) => typeof m.yes_price === 'string').map((m) => m.market_id).sort()).toEqual([...selected].sort());
});
