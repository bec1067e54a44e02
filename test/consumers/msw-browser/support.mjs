// A static server for dist/ on loopback, and Debian's chromium through playwright-core.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

/** Serves dist/ on 127.0.0.1 (a free port); resolves with its origin and close(). */
export async function serveDist() {
  const server = createServer(async (req, res) => {
    const name = path.basename(new URL(req.url, 'http://x').pathname) || 'index.html';
    try {
      const body = await readFile(path.join('dist', name));
      res.writeHead(200, { 'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream', 'service-worker-allowed': '/' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Headless Chromium from Debian's package (no browser download): MARKET_STUB_CHROMIUM overrides the path. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.MARKET_STUB_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** The prices column of the dashboard's rows, as the page shows them. */
export function shownRows(page) {
  return page.$$eval('tr[data-market-id]', (rows) => rows.map((r) => ({ id: r.dataset.marketId, cells: [...r.children].map((c) => c.textContent) })));
}
