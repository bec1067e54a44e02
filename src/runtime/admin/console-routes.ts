import { stillCurrent } from '../conditional-reply.js';
import type { Reply } from '../reply.js';
import { adminFailure } from './admin-error.js';

/** The console's path under the admin prefix: the page is `/__stub/ui`, its files `/__stub/ui/<file>`. */
export const CONSOLE_PATH = '/ui';

/**
 * Content-Security-Policy of the console (W3C CSP Level 3): its own files only, no inline script
 * or style, no eval, no plugin, no `<base>`, no form posts, never framed (clickjacking), and
 * fetches to its own origin only (the admin API).
 */
export const CONSOLE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** One file of the web console, held in memory with what a response needs. */
export interface ConsoleAsset {
  /** Content-Type (RFC 9110 §8.3), with a charset for text. */
  type: string;
  body: Uint8Array;
  /** The body gzipped (RFC 9110 §8.4.1.3), sent when the client accepts gzip. */
  gzip: Uint8Array;
  /** Strong entity tag (RFC 9110 §8.8.3): a quoted hash of the body. */
  etag: string;
}

/** The console's files by request path (`/`, `/console.js`…). */
export type ConsoleAssets = ReadonlyMap<string, ConsoleAsset>;

/**
 * Where the console's files come from: called on the console's first request (and again after a
 * refusal), resolving to the files or to the reason they cannot be served. The node:http and
 * Express adapters read them from dist/console (src/http/admin/console-assets.ts); a runtime
 * without a file system passes none, and `/__stub/ui` answers 404 saying so.
 */
export type ConsoleAssetSource = () => Promise<ConsoleAssets | string>;

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

/** Headers of every console response besides Content-Type and ETag. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  // Fixed file names: the browser may keep a copy but asks again (a 304 when unchanged, RFC 9111 §5.2.2.4).
  'cache-control': 'no-cache',
  vary: 'accept-encoding',
});

/** Whether a path under the admin prefix is the console's. */
export function isConsolePath(path: string): boolean {
  return path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
}

/**
 * The web console's files under `/__stub/ui`, after the admin API's own Host and Origin check (the
 * page holds no data, so it needs no token). GET and HEAD only (405 otherwise); an unknown file is
 * 404, both `admin_route_not_found`. Files come from memory (loaded once through `source`), with a
 * strong ETag (`If-None-Match` → 304, RFC 9110 §13.1.2) and gzip when accepted.
 * @returns a function answering one console request (path under `/__stub`).
 * @throws AdminFailure (rejects) ADMIN_ROUTE_NOT_FOUND: 405, an unknown file, or no console to serve.
 */
export function createConsoleFiles(source: ConsoleAssetSource | undefined): (method: string, path: string, headers: Readonly<Record<string, string | string[] | undefined>>, where: string) => Promise<Reply> {
  let assets: Promise<ConsoleAssets | string> | undefined;
  return async (method, path, headers, where) => {
    const name = path.slice(CONSOLE_PATH.length) || '/';
    checkRequest(method, name, where);
    assets ??= source ? source() : Promise.resolve('this adapter serves no console files (the node:http server and createApp do)');
    const loaded = await assets;
    if (typeof loaded === 'string') {
      // Not cached: the next request looks again (after `npm run build`, say).
      assets = undefined;
      throw adminFailure('ADMIN_ROUTE_NOT_FOUND', where, `${loaded}.`, { option: 'path', expected: 'a built console (dist/console)', found: path });
    }
    const asset = loaded.get(name);
    if (!asset) throw new Error(`console asset ${name} listed but not loaded`);
    return assetReply(asset, headers);
  };
}

/** GET or HEAD of a file the console has. @throws AdminFailure ADMIN_ROUTE_NOT_FOUND (405 with Allow, or 404). */
function checkRequest(method: string, name: string, where: string): void {
  if (method !== 'GET' && method !== 'HEAD') {
    throw adminFailure('ADMIN_ROUTE_NOT_FOUND', where, `${method} is not a console route; GET, HEAD are.`, { status: 405, headers: { allow: 'GET, HEAD' }, option: 'method', expected: 'GET, HEAD', found: method });
  }
  if (!Object.hasOwn(CONSOLE_FILES, name)) {
    throw adminFailure('ADMIN_ROUTE_NOT_FOUND', where, `the console has no file ${JSON.stringify(name)}; open /__stub/ui.`, { option: 'path', expected: `one of ${Object.keys(CONSOLE_FILES).map((f) => `/__stub/ui${f === '/' ? '' : f}`).join(', ')}`, found: name });
  }
}

/** 200 with the file (gzipped when accepted), or 304 when `If-None-Match` names its ETag (or `*`). */
function assetReply(asset: ConsoleAsset, requestHeaders: Readonly<Record<string, string | string[] | undefined>>): Reply {
  const headers = { ...SECURITY_HEADERS, etag: asset.etag };
  if (stillCurrent({ 'if-none-match': requestHeaders['if-none-match'] }, headers)) return { status: 304, headers, body: new Uint8Array(0) };
  const gzip = acceptsGzip(text(requestHeaders['accept-encoding']));
  return { status: 200, headers: { ...headers, 'content-type': asset.type, ...(gzip ? { 'content-encoding': 'gzip' } : {}) }, body: gzip ? asset.gzip : asset.body };
}

function text(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
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
