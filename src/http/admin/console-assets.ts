import type Crypto from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Zlib from 'node:zlib';

/** Largest console asset served, bytes; a bigger file in dist/console is refused, never read whole. */
export const MAX_CONSOLE_ASSET_BYTES = 256 * 1024;

/** One file of the web console, held in memory with what a response needs. */
export interface ConsoleAsset {
  /** Content-Type (RFC 9110 §8.3), with a charset for text. */
  type: string;
  body: Buffer;
  /** The body gzipped (RFC 9110 §8.4.1.3), sent when the client accepts gzip. */
  gzip: Buffer;
  /** Strong entity tag (RFC 9110 §8.8.3): a quoted hash of the body. */
  etag: string;
}

/**
 * The console's files by request path (under `/__stub/ui`): an allow-list, so no request path ever
 * reaches the file system. `/` is the page; the others are what scripts/build-console.mjs writes.
 */
export const CONSOLE_FILES: Readonly<Record<string, { file: string; type: string }>> = Object.freeze({
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/console.js': { file: 'console.js', type: 'text/javascript; charset=utf-8' },
  '/console.css': { file: 'console.css', type: 'text/css; charset=utf-8' },
  '/favicon.svg': { file: 'favicon.svg', type: 'image/svg+xml' },
});

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
export async function loadConsoleAssets(): Promise<Map<string, ConsoleAsset> | string> {
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

/** Whether an Accept-Encoding header (RFC 9110 §12.5.3) accepts gzip: listed (or `*`) without `q=0`. */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding?.trim() !== 'gzip' && coding?.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
