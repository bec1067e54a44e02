import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildCatalog, createApp } from '../../src/index.js';
import { launchChromium } from './support/chromium.js';

// The admin API against a page of another site, in Debian's chromium: the stub (createApp behind
// a server that notes what it answered) listens on 127.0.0.1, the page comes from localhost
// (another site), and loads the admin API with what a page may send without asking: `<script
// src>`, `<img>`, `fetch` with `mode: 'no-cors'` (no Origin on these GETs) and a form POST. The
// browser's own Sec-Fetch-Site is what refuses them: every one answers 403 before any work, and
// Cross-Origin-Resource-Policy keeps even the 403's bytes from the page.

interface Answered {
  method: string;
  path: string;
  site: string | undefined;
  status: number;
}

let browser: Browser;
let stub: Server;
let site: Server;
const answered: Answered[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(String((server.address() as AddressInfo).port))));
}

beforeAll(async () => {
  browser = await launchChromium();
  const app = createApp({ catalog: await buildCatalog({ seed: 4, count: 3, clock: '2026-01-01' }) }) as (req: IncomingMessage, res: ServerResponse) => void;
  stub = createServer((req, res) => {
    res.on('finish', () => answered.push({ method: req.method ?? '', path: req.url ?? '', site: req.headers['sec-fetch-site'] as string | undefined, status: res.statusCode }));
    app(req, res);
  });
  const admin = `http://127.0.0.1:${await listen(stub)}/__stub`;
  const html = `<!doctype html><title>another site</title>
<script src="${admin}/markets"></script>
<img src="${admin}/requests">
<form id="f" method="post" action="${admin}/reset" enctype="text/plain"><input name="x" value="1"></form>
<script>fetch(${JSON.stringify(`${admin}/deviations`)}, { mode: 'no-cors' }).finally(() => { document.title = 'done'; });</script>`;
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await listen(site);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => stub?.close(resolve));
  await new Promise((resolve) => site?.close(resolve));
});

it('refuses no-cors loads and a form POST from another site with 403; CORP keeps the answers from the page', async () => {
  const page = await browser.newPage();
  const blocked: string[] = [];
  page.on('requestfailed', (r) => blocked.push(`${r.url().replace(/^.*\/__stub/, '/__stub')} ${r.failure()?.errorText ?? ''}`));
  // localhost and 127.0.0.1 are different sites: the page's requests to the stub are cross-site.
  await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
  await page.waitForFunction("document.title === 'done'");
  await Promise.all([page.waitForURL(/__stub\/reset/), page.evaluate("document.getElementById('f').submit()")]);
  await page.close();
  const admin = answered.filter((a) => a.path.startsWith('/__stub'));
  expect(admin.map((a) => `${a.method} ${a.path}`).sort()).toEqual(['GET /__stub/deviations', 'GET /__stub/markets', 'GET /__stub/requests', 'POST /__stub/reset']);
  expect(admin.map((a) => [a.site, a.status])).toEqual(admin.map(() => ['cross-site', 403]));
  expect(blocked.sort()).toEqual(['/__stub/deviations net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin', '/__stub/markets net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin', '/__stub/requests net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin']);
});
