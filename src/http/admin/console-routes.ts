import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reply } from '../../runtime/reply.js';
import { writeReply } from '../write-reply.js';
import { adminErrorReply, adminFailure, type AdminFailure } from './admin-error.js';
import { acceptsGzip, CONSOLE_FILES, loadConsoleAssets, type ConsoleAsset } from './console-assets.js';

/** The console's path under the admin prefix: the page is `/__stub/ui`, its files `/__stub/ui/<file>`. */
export const CONSOLE_PATH = '/ui';

/**
 * Content-Security-Policy of the console (W3C CSP Level 3): its own files only, no inline script
 * or style, no eval, no plugin, no `<base>`, no form posts, never framed (clickjacking), and
 * fetches to its own origin only (the admin API).
 */
export const CONSOLE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

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

/**
 * The web console's files under `/__stub/ui`, as a handler the admin router asks first: it returns
 * false for any other path (the admin routes), true when it answered. The page holds no data (the
 * data comes from the admin API, with its token), so it needs no token; `checkOrigin` is the admin
 * API's own Host and Origin check (DNS rebinding, foreign pages), which refuses exactly as it
 * refuses the admin routes; `toFailure` is its error mapping (a bug is logged and answered 500). GET and HEAD only (405 otherwise); an unknown file is 404, both
 * `admin_route_not_found`. Files come from memory (loaded once, at most MAX_CONSOLE_ASSET_BYTES
 * each), with a strong ETag (`If-None-Match` → 304, RFC 9110 §13.1.2) and gzip when accepted.
 */
export function createConsoleHandler(admin: { checkOrigin(req: IncomingMessage, where: string): void; toFailure(error: unknown, where: string): AdminFailure }): (req: IncomingMessage, res: ServerResponse) => boolean {
  let assets: Promise<Map<string, ConsoleAsset> | string> | undefined;
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return false;
    const where = `${req.method ?? 'GET'} /__stub${path}`;
    const serve = async () => {
      admin.checkOrigin(req, where);
      const name = path.slice(CONSOLE_PATH.length) || '/';
      checkRequest(req.method ?? 'GET', name, where);
      assets ??= loadConsoleAssets();
      const loaded = await assets;
      if (typeof loaded === 'string') {
        // Not cached: the next request looks again (after `npm run build`, say).
        assets = undefined;
        throw adminFailure('ADMIN_ROUTE_NOT_FOUND', where, `${loaded}.`, { option: 'path', expected: 'a built console (dist/console)', found: path });
      }
      const asset = loaded.get(name);
      if (!asset) throw new Error(`console asset ${name} listed but not loaded`);
      writeReply(res, assetReply(asset, req));
    };
    serve().catch((error: unknown) => writeReply(res, adminErrorReply(admin.toFailure(error, where))));
    return true;
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
function assetReply(asset: ConsoleAsset, req: IncomingMessage): Reply {
  const headers = { ...SECURITY_HEADERS, etag: asset.etag };
  const match = req.headers['if-none-match'];
  if (match !== undefined && (match.trim() === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag))) {
    return { status: 304, headers, body: Buffer.alloc(0) };
  }
  const gzip = acceptsGzip(req.headers['accept-encoding']);
  return { status: 200, headers: { ...headers, 'content-type': asset.type, ...(gzip ? { 'content-encoding': 'gzip' } : {}) }, body: gzip ? asset.gzip : asset.body };
}

