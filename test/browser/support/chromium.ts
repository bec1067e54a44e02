import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's chromium (`apt-get install -y chromium`): no browser download works on the machines
 * this project runs on, so playwright-core drives the system package through `executablePath`.
 * MARKET_STUB_CHROMIUM overrides the path.
 */
export const CHROMIUM_PATH = process.env.MARKET_STUB_CHROMIUM ?? '/usr/bin/chromium';

/** Where browser tests keep their screenshots (CI keeps this folder as an artifact). */
export const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

/** Whether the system browser is installed; browser suites fail (not skip) without it. */
export function hasChromium(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Launches headless Chromium with the flags this closed network needs: without the
 * background-networking switches Chromium keeps dialling Google hosts that are refused here.
 * @throws Error naming the install command when the browser is missing.
 */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium()) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}. Install Debian's package (apt-get install -y chromium) or set MARKET_STUB_CHROMIUM, then run npm run test:browser again.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** Saves a full-page screenshot as `test-results/screenshots/<name>.png`; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
