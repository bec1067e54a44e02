// The HTML report as a reviewer sees it: written by the built CLI from a run against a hostile
// deployment, opened from a file in Chromium. The verdict and charts are drawn, nothing runs,
// nothing is requested, no secret shows; the screenshot is kept in test-results/screenshots/.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliProcess } from '../support/cli-process.js';
import { HOSTILE_ID, HOSTILE_TITLE, SECRET_HEADER, SECRET_VALUE, startHostileDeployment } from '../contract/hostile-deployment.js';
import type { DeviantServer } from '../contract/deviant-server.js';
import { launchChromium, screenshot } from './support/chromium.js';

let browser: Browser;
let server: DeviantServer;
let file: string;

beforeAll(async () => {
  server = await startHostileDeployment();
  file = path.join(await mkdtemp(path.join(tmpdir(), 'market-stub-html-report-')), 'report.html');
  const run = await runCliProcess(['check', '--base-url', server.url, '--all', '--report', `html:${file}`], { env: { MARKET_STUB_HEADER: SECRET_HEADER } });
  expect(run.code, run.stderr).toBe(1);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens the report with every request, console error, page error and dialog recorded. */
async function openReport(): Promise<{ page: Page; requests: string[]; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, requests, problems };
}

it('shows the verdict first and draws its charts, with no console error and no request but the file', async () => {
  const { page, requests, problems } = await openReport();
  const verdict = page.locator('header.verdict h1');
  expect(await verdict.textContent()).toBe('FAIL');
  expect(await page.locator('main > *').first().getAttribute('class')).toBe('verdict fail');
  const charts = page.locator('svg.chart');
  expect(await charts.count()).toBe(4);
  for (const chart of await charts.all()) {
    const box = await chart.boundingBox();
    expect(box?.width).toBeGreaterThan(100);
    expect(box?.height).toBeGreaterThan(50);
  }
  const heights = await page.locator('svg.chart rect.bar').evaluateAll((rects: Array<{ getBoundingClientRect(): { height: number } }>) => rects.map((r) => r.getBoundingClientRect().height));
  const drawn = heights.filter((h) => h > 0).length;
  expect(drawn).toBeGreaterThan(4);
  const labels = await page.locator('figcaption strong').allTextContents();
  expect(labels).toEqual(['Price distribution', 'yes + no', 'Response times, GET /markets (ms)', 'Response times, GET /markets/{market_id} (ms)']);
  await screenshot(page, 'html-report');
  expect(problems).toEqual([]);
  expect(requests).toEqual([pathToFileURL(file).href]);
  await page.close();
});

it('keeps the hostile id and title as text, shows no secret, and drills down to what was expected and found', async () => {
  const { page, requests, problems } = await openReport();
  expect(await page.locator('img, script').count()).toBe(0);
  const market = page.locator('details.market', { hasText: HOSTILE_ID });
  await market.locator('summary').click();
  const row = market.locator('tbody tr').first();
  await expect.poll(() => row.isVisible()).toBe(true);
  expect(await row.textContent()).toContain('"0.57"');
  expect(await row.textContent()).toContain('number');
  const body = (await page.locator('body').textContent()) ?? '';
  expect(body).toContain(HOSTILE_ID);
  expect(body).toContain(HOSTILE_TITLE.slice(0, 14));
  expect(body).not.toContain(SECRET_VALUE);
  expect(await readFile(file, 'utf8')).not.toContain(SECRET_VALUE.slice(0, 8));
  expect(problems).toEqual([]);
  expect(requests).toHaveLength(1);
  await page.close();
});
