import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { launchChromium, screenshot } from './support/chromium.js';

// The web console (/__stub/ui) as a tester uses it, in Debian's chromium: locked without the
// token, then the catalog, a deviation toggled from the page and served, the live journal, a
// market whose title is markup, and one whose id and title hold bidi and control characters. Needs `npm run build` first (the console's files are in dist/console).
const run = promisify(execFile);
const TOKEN = 'console-test-token';
const XSS_ID = 'XSS-TITLE-1';
const XSS_TITLE = '<img src=x onerror="window.__xss=1;alert(1)"><script>window.__xss=2</script>';
/** An id whose right-to-left override makes it read `ABCexe.pdf`, and a title with zero-width, isolate and terminal characters. */
const BIDI_ID = 'ABC\u202Efdp.exe';
const BIDI_TITLE = 'zero\u200bwidth\u2066 \u001b[8mhidden';

let browser: Browser;
let stub: MarketStub;
let page: Page;
const requested: string[] = [];
const dialogs: string[] = [];
const pageErrors: string[] = [];

async function admin(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${stub.url}/__stub${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

beforeAll(async () => {
  browser = await launchChromium();
  stub = await startMarketStub({ seed: 3, count: 12, clock: '2026-01-01', adminToken: TOKEN });
  expect((await admin('PUT', `/markets/${XSS_ID}`, { market_id: XSS_ID, title: XSS_TITLE, status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2026-06-30' })).status).toBe(201);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  page.on('request', (r) => requested.push(r.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
});
afterAll(async () => {
  await browser?.close();
  await stub?.close();
});

// The cases run in order on one page, as a tester would go: locked, unlocked, then each control.
it('is refused by the admin API without the token: it asks for it and shows no data', async () => {
  const refused = page.waitForResponse((r) => r.url() === `${stub.url}/__stub` && r.status() === 401);
  await page.goto(`${stub.url}/__stub/ui`);
  await refused;
  await page.locator('#lock').waitFor({ state: 'visible' });
  expect(await page.locator('#lock-reason').textContent()).toContain('needs its token');
  expect(await page.locator('#catalog-body tr').count()).toBe(0);
  await screenshot(page, 'console-locked');
});

it('with the token, shows the catalog (the token kept in sessionStorage only)', async () => {
  await page.fill('#token-input', TOKEN);
  await page.press('#token-input', 'Enter');
  await page.locator('#catalog-body tr').nth(12).waitFor();
  expect(await page.locator('#catalog-body tr').count()).toBe(13);
  expect(await page.locator('#lock').isHidden()).toBe(true);
  // Expressions run in the page (the test's own types have no DOM).
  const storage = await page.evaluate("({ session: sessionStorage.getItem('market-stub.adminToken'), local: localStorage.length, cookie: document.cookie, url: location.href })");
  expect(storage).toEqual({ session: TOKEN, local: 0, cookie: '', url: `${stub.url}/__stub/ui` });
  expect(await page.locator('#catalog-chart svg rect.bar').count()).toBe(20);
  await screenshot(page, 'console-catalog');
});

it('toggling a deviation of one market changes what the stub serves for it', async () => {
  const id = (await page.locator('#catalog-body tr').first().getAttribute('data-id'))!;
  const before = await (await fetch(`${stub.url}/markets/${id}`)).json() as { yes_price: unknown };
  expect(typeof before.yes_price).toBe('number');
  await page.locator('#catalog-body tr').first().click();
  await page.locator('#market-deviations input[data-deviation="string-price"]').check();
  await expect.poll(async () => typeof ((await (await fetch(`${stub.url}/markets/${id}`)).json()) as { yes_price: unknown }).yes_price, { timeout: 3000 }).toBe('string');
  await page.locator(`#catalog-body tr[data-id="${id}"] .chip`, { hasText: 'string-price' }).waitFor();
  await screenshot(page, 'console-deviation');
  await page.locator('#market-deviations input[data-deviation="string-price"]').uncheck();
  await expect.poll(async () => typeof ((await (await fetch(`${stub.url}/markets/${id}`)).json()) as { yes_price: unknown }).yes_price, { timeout: 3000 }).toBe('number');
});

it('shows a new request in the journal within 1 s, expandable to its (redacted) headers', async () => {
  await fetch(`${stub.url}/markets?probe=journal-live`, { headers: { authorization: 'Bearer client-secret-xyz', 'x-trace': 'trace-42' } });
  const entry = page.locator('#journal-list details', { hasText: 'probe=journal-live' });
  await entry.waitFor({ timeout: 1000 });
  await entry.locator('summary').click();
  const detail = entry.locator('.detail');
  await detail.waitFor();
  const text = (await detail.textContent()) ?? '';
  expect(text).toContain('Bearer [redacted]');
  expect(text).toContain('trace-42');
  expect(text).toContain('200');
  expect(await page.content()).not.toContain('client-secret-xyz');
  await screenshot(page, 'console-journal');
});

it('shows why an explained answer came: deviations, rules with their times left, profile and instant (docs/explain.md)', async () => {
  const id = (await stub.catalog())[2]?.market_id ?? '';
  expect((await admin('POST', '/behaviours/rules', { id: 'twice', match: { route: 'item', marketId: id }, behaviour: { delayMs: 1 }, times: 2 })).status).toBe(201);
  await fetch(`${stub.url}/markets/${id}?probe=explained`, { headers: { prefer: 'explain, deviation=null-price' } });
  const entry = page.locator('#journal-list details', { hasText: 'probe=explained' });
  await entry.waitFor({ timeout: 1000 });
  await entry.locator('summary').click();
  const text = (await entry.locator('.detail').textContent()) ?? '';
  expect(text).toContain('deviationsnull-price');
  expect(text).toContain('rulestwice (1 left)');
  expect(text).toContain('profileenvelope bare, paging none, errors default');
  expect(text).toMatch(/instant2026-01-01T\d\d:\d\d:\d\dZ/);
  expect((await admin('DELETE', '/behaviours/rules/twice')).status).toBe(204);
});

it('copies one entry as curl (its secret header left out, and said so); the command gets the same answer from the stub', async () => {
  await fetch(`${stub.url}/markets?probe=curl&limit=2`, { headers: { authorization: 'Bearer client-secret-xyz', 'x-scenario': "it's quoted" } });
  const entry = page.locator('#journal-list details', { hasText: 'probe=curl' });
  await entry.waitFor({ timeout: 1000 });
  await entry.locator('summary').click();
  const command = (await entry.locator('code.curl').textContent()) ?? '';
  expect(command).toContain(`curl --include '${stub.url}/markets?probe=curl&limit=2'`);
  expect(command).toContain("--header 'x-scenario: it'\\''s quoted'");
  expect(command).not.toContain('client-secret-xyz');
  expect(await entry.locator('.curl-row').textContent()).toContain('redacted in the journal: authorization');
  const { stdout } = await run('sh', ['-c', `${command} --silent`]);
  expect(stdout).toMatch(/^HTTP\/1\.1 200/);
  expect((JSON.parse(stdout.slice(stdout.indexOf('\r\n\r\n') + 4)) as unknown[]).length).toBeGreaterThanOrEqual(12);
});

it('downloads the journal as a HAR file (docs/har.md)', async () => {
  const download = page.waitForEvent('download');
  await page.locator('#journal-har').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^market-stub-.*\.har$/);
  const har = JSON.parse(readFileSync((await file.path())!, 'utf8')) as { log: { version: string; entries: { request: { url: string } }[] } };
  expect(har.log.version).toBe('1.2');
  expect(har.log.entries.some((e) => e.request.url.includes('probe=curl'))).toBe(true);
  expect(JSON.stringify(har)).not.toContain('client-secret-xyz');
});

it('adds a behaviour rule from the form: the next request gets its status, then the rule is spent', async () => {
  await page.selectOption('#rule-form select[name=route]', 'list');
  await page.fill('#rule-form input[name=status]', '503');
  await page.fill('#rule-form input[name=times]', '1');
  await page.click('#rule-form button[type=submit]');
  await page.locator('#rule-list li', { hasText: 'status=503' }).waitFor();
  expect((await fetch(`${stub.url}/markets`)).status).toBe(503);
  expect((await fetch(`${stub.url}/markets`)).status).toBe(200);
  await page.locator('#journal-list details.st-5xx').first().waitFor({ timeout: 1000 });
});

it('adds deviations from the form (a share, every market), removes one, clears them; ticks from the keyboard', async () => {
  const active = async () => ((await (await admin('GET', '/deviations')).json()) as { active: unknown[] }).active;
  await page.selectOption('#deviation-name', 'price-sum');
  await page.check('#deviation-form input[name=scope][value=rate]');
  await page.fill('#deviation-rate', '0.5');
  await page.click('#deviation-form button[type=submit]');
  await page.locator('#deviation-active li', { hasText: 'price-sum · rate 0.5' }).waitFor();
  expect(await active()).toEqual([{ name: 'price-sum', rate: 0.5 }]);
  await page.selectOption('#deviation-name', 'item-500');
  await page.check('#deviation-form input[name=scope][value=all]');
  await page.click('#deviation-form button[type=submit]');
  await page.locator('#deviation-active li', { hasText: 'item-500 · all' }).waitFor();
  const id = (await page.locator('#catalog-body tr').nth(1).getAttribute('data-id'))!;
  expect((await fetch(`${stub.url}/markets/${id}`)).status).toBe(500);
  await page.click('#deviation-active button[aria-label="remove price-sum"]');
  await page.locator('#deviation-active li', { hasText: 'price-sum' }).waitFor({ state: 'detached' });
  expect(await active()).toEqual([{ name: 'item-500' }]);
  await screenshot(page, 'console-deviations-in-force');
  await page.click('#deviation-clear');
  await expect.poll(active).toEqual([]);
  expect((await fetch(`${stub.url}/markets/${id}`)).status).toBe(200);
  await page.locator('#catalog-body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('t');
  await page.locator('#tick-now', { hasText: 'tick 1' }).waitFor();
});

it('works from the keyboard: / searches, arrows and Enter select a market, Esc leaves the field, ? shows the keys', async () => {
  await page.keyboard.press('Escape');
  await page.locator('main').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('/');
  expect(await page.evaluate('document.activeElement.id')).toBe('catalog-search');
  await page.keyboard.type('active');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate("document.activeElement.tagName + ' ' + document.activeElement.tabIndex")).toBe('TR 0');
  expect(await page.locator('#catalog-body tr[tabindex="0"]').count()).toBe(1);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const second = await page.locator('#catalog-body tr').nth(1).getAttribute('data-id');
  expect(await page.locator('#market-id').textContent()).toBe(second);
  await page.keyboard.press('?');
  await page.locator('#help').waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await page.locator('#help').waitFor({ state: 'hidden' });
  await page.fill('#catalog-search', '');
});

it('follows changes another client makes over the admin API (a patched title) within a few seconds', async () => {
  await page.locator('main').click({ position: { x: 1, y: 1 } });
  const id = (await page.locator('#catalog-body tr').nth(2).getAttribute('data-id'))!;
  expect((await admin('PATCH', `/markets/${id}`, { title: 'Patched by another client' })).status).toBe(200);
  await page.locator(`#catalog-body tr[data-id="${id}"] td.title`, { hasText: 'Patched by another client' }).waitFor({ timeout: 7000 });
});

it('renders a market title holding markup as text: no element injected, nothing run', async () => {
  await page.fill('#catalog-search', 'XSS-TITLE');
  const cell = page.locator(`#catalog-body tr[data-id="${XSS_ID}"] td.title`);
  await cell.waitFor();
  expect(await cell.textContent()).toBe(XSS_TITLE);
  const injected = await page.evaluate("({ img: document.querySelectorAll('main img, main script').length, xss: String(window.__xss) })");
  expect(injected).toEqual({ img: 0, xss: 'undefined' });
  await page.locator(`#catalog-body tr[data-id="${XSS_ID}"]`).click();
  expect((JSON.parse((await page.locator('#market-json').textContent()) ?? '') as { title: string }).title).toBe(XSS_TITLE);
  expect(await page.evaluate("document.querySelectorAll('main img, main script').length")).toBe(0);
  expect(dialogs).toEqual([]);
  await screenshot(page, 'console-xss-title');
});

it('shows bidi, zero-width and control characters as escapes, as the reports do: ABC\\u202efdp.exe, not ABCexe.pdf', async () => {
  const market = { market_id: BIDI_ID, title: BIDI_TITLE, status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2026-06-30' };
  expect((await admin('PUT', `/markets/${encodeURIComponent(BIDI_ID)}`, market)).status).toBe(201);
  // Out of the search field (the catalog is not redrawn under a focused control), then reload (r).
  await page.keyboard.press('Escape');
  await page.keyboard.press('r');
  await page.fill('#catalog-search', 'fdp.exe');
  const row = page.locator('#catalog-body tr', { hasText: 'fdp.exe' });
  await row.waitFor({ timeout: 7000 });
  expect(await row.getAttribute('data-id')).toBe(BIDI_ID);
  expect(await row.locator('td').first().textContent()).toBe('ABC\\u202efdp.exe');
  expect(await row.locator('td.title').textContent()).toBe('zero\\u200bwidth\\u2066 \\u001b[8mhidden');
  expect(await row.locator('td.title').getAttribute('title')).toBe('zero\\u200bwidth\\u2066 \\u001b[8mhidden');
  await row.click();
  expect(await page.locator('#market-id').textContent()).toBe('ABC\\u202efdp.exe');
  const json = (await page.locator('#market-json').textContent()) ?? '';
  expect(json).not.toMatch(/[\u200b\u202e\u2066]/);
  // The same JSON value: escapes inside its strings, its indentation kept.
  expect(JSON.parse(json)).toMatchObject({ market_id: BIDI_ID, title: BIDI_TITLE });
  expect(json.split('\n').length).toBeGreaterThan(5);
  expect(await page.locator('#deviation-market').inputValue()).toBe(BIDI_ID);
  // A long title is shortened as in the reports; the stored JSON keeps it whole.
  expect((await admin('PATCH', `/markets/${encodeURIComponent(BIDI_ID)}`, { title: `fdp ${'T'.repeat(5_000)} end` })).status).toBe(200);
  await page.keyboard.press('Escape');
  await page.keyboard.press('r');
  await page.locator('#catalog-body tr td.title', { hasText: 'characters cut' }).waitFor({ timeout: 7000 });
  expect(await row.locator('td.title').textContent()).toBe(`fdp ${'T'.repeat(196)}…[4728 characters cut]…${'T'.repeat(76)} end`);
});

it('made no request outside its origin, and threw no error', () => {
  expect(requested.length).toBeGreaterThan(5);
  expect(requested.filter((url) => !url.startsWith(`${stub.url}/`))).toEqual([]);
  expect(pageErrors).toEqual([]);
});
