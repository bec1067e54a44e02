import type Crypto from 'node:crypto';
import { MAX_CONSOLE_ASSET_BYTES } from '../../floor/limits.js';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Zlib from 'node:zlib';
import { CONSOLE_FILES, type ConsoleAsset, type ConsoleAssets } from '../../runtime/admin/console-routes.js';


/**
 * Where the built console lives: `dist/console/` beside the bundle that runs (dist/index.js,
 * dist/index.cjs, dist/cli-main.cjs), or, when the sources run (tsx, vitest), the repository's
 * `dist/console/` (written by `npm run build`). The first holding index.html wins.
 */
function consoleDirs(): string[] {
  // From the sources only (this file is .ts): a bundle never looks outside its own directory.
  const fromSources = import.meta.url.endsWith('.ts');
  return [new URL('./console/', import.meta.url), ...(fromSources ? [new URL('../../../dist/console/', import.meta.url)] : [])].map((url) => fileURLToPath(url));
}

/** Reads one asset, refusing a file over MAX_CONSOLE_ASSET_BYTES before reading it. */
async function readAsset(dir: string, file: string, type: string): Promise<ConsoleAsset> {
  const path = `${dir}${file}`;
  const size = (await stat(path)).size;
  if (size > MAX_CONSOLE_ASSET_BYTES) throw new Error(`${path} is ${size} bytes, over the console's ${MAX_CONSOLE_ASSET_BYTES}-byte limit per asset`);
  const body = await readFile(path);
  // Loaded on the console's first request: a stub nobody opens the console of never loads them.
  const require = createRequire(import.meta.url);
  const { createHash } = require('node:crypto') as typeof Crypto;
  const { gzipSync } = require('node:zlib') as typeof Zlib;
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { type, body, gzip: gzipSync(body, { level: 9 }), etag };
}

/**
 * Loads every console asset once (the caller keeps the promise): all of them from the first
 * directory of consoleDirs() that holds index.html.
 * @returns the assets by request path, or a reason (the directories looked in, and what to do)
 *   when the console is not built or a file is missing or too large.
 */
export async function loadConsoleAssets(): Promise<ConsoleAssets | string> {
  const dirs = consoleDirs();
  for (const dir of dirs) {
    try {
      await stat(`${dir}index.html`);
    } catch {
      continue;
    }
    try {
      const entries = await Promise.all(Object.entries(CONSOLE_FILES).map(async ([path, { file, type }]) => [path, await readAsset(dir, file, type)] as const));
      return new Map(entries);
    } catch (error) {
      return `the console's files in ${dir} cannot be served (${(error as Error).message}); rebuild them with npm run build`;
    }
  }
  return `the console's files are not built (looked in ${dirs.join(' and ')}); run npm run build`;
}
