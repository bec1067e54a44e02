import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildCatalog, createApp } from '../../src/index.js';
import { MAX_CONSOLE_ASSET_BYTES } from '../../src/floor/limits.js';
import { CONSOLE_CSP } from '../../src/runtime/admin/console-routes.js';
import { startServeProcess } from '../support/cli-process.js';

// The web console's files under /__stub/ui (dist/console, written by `npm run build`): served with
// the admin API's Host and Origin refusals, a strict CSP, ETags and gzip; off with the admin API.
async function app(options: Record<string, unknown> = {}) {
  return createApp({ catalog: await buildCatalog({ seed: 3, count: 3, clock: '2026-01-01' }), ...options });
}

const ASSETS = [
  ['/__stub/ui', 'text/html; charset=utf-8'],
  ['/__stub/ui/', 'text/html; charset=utf-8'],
  ['/__stub/ui/console.js', 'text/javascript; charset=utf-8'],
  ['/__stub/ui/console.css', 'text/css; charset=utf-8'],
  ['/__stub/ui/favicon.svg', 'image/svg+xml'],
] as const;

/** The console's whole size budget, gzipped, bytes (about 11 KB today). */
const GZIP_BUDGET = 32 * 1024;

describe('GET /__stub/ui', () => {
  it('serves the page and its files with their content types, bounded sizes and security headers', async () => {
    const a = await app();
    let gzipped = 0;
    for (const [path, type] of ASSETS) {
      const res = await request(a).get(path).set('accept-encoding', 'identity').expect(200);
      expect(res.headers['content-type'], path).toBe(type);
      expect(res.headers['content-security-policy'], path).toBe(CONSOLE_CSP);
      expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache', vary: 'accept-encoding' });
      expect(res.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const bytes = Number(res.headers['content-length']);
      expect(bytes).toBeGreaterThan(100);
      expect(bytes).toBeLessThan(MAX_CONSOLE_ASSET_BYTES);
      // superagent inflates the body itself: the gzip answer's size is its Content-Length.
      const zipped = await request(a).get(path).set('accept-encoding', 'gzip').expect(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      if (path !== '/__stub/ui/') gzipped += Number(zipped.headers['content-length']);
    }
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped).toBeLessThan(GZIP_BUDGET);
  });

  it('has a CSP with no inline script, no eval, no framing; the page and script hold no inline code and no external URL', async () => {
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    const a = await app();
    const html = (await request(a).get('/__stub/ui').expect(200)).text;
    expect(html).toMatch(/<script src="\/__stub\/ui\/console\.js" defer><\/script>/);
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).not.toMatch(/\s(on[a-z]+|style)=/i);
    expect(html).not.toMatch(/https?:\/\//);
    const js = (await request(a).get('/__stub/ui/console.js').expect(200)).text;
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/);
    // Browser code only: nothing of src/ (Node) is bundled into the page.
    expect(js).not.toMatch(/\brequire\(|\bprocess\.|\bBuffer\b/);
    expect(js.match(/https?:\/\/[^"'`\s]+/g) ?? []).toEqual(['http://www.w3.org/2000/svg']);
  });

});

describe('GET /__stub/ui caching and routing', () => {
  it('answers If-None-Match with 304, HEAD with the headers only, and gzip only when accepted', async () => {
    const a = await app();
    const first = await request(a).get('/__stub/ui/console.js').set('accept-encoding', 'identity').expect(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    const etag = first.headers['etag'] as string;
    const again = await request(a).get('/__stub/ui/console.js').set('if-none-match', `W/"x", ${etag}`).expect(304);
    expect(again.text).toBe('');
    expect(again.headers['etag']).toBe(etag);
    await request(a).get('/__stub/ui/console.js').set('if-none-match', '"other"').expect(200);
    const head = await request(a).head('/__stub/ui/console.js').set('accept-encoding', 'identity').expect(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect((await request(a).get('/__stub/ui').set('accept-encoding', 'gzip;q=0, br')).headers['content-encoding']).toBeUndefined();
    expect((await request(a).get('/__stub/ui').set('accept-encoding', 'br, gzip')).headers['content-encoding']).toBe('gzip');
  });

  it('serves only its own files: other paths are 404 and other methods 405, in the admin error shape', async () => {
    const a = await app();
    for (const path of ['/__stub/ui/index.html', '/__stub/ui/../package.json', '/__stub/ui/%2e%2e/package.json', '/__stub/ui/console.js/x', '/__stub/ui/constructor']) {
      const res = await request(a).get(path);
      expect([404], path).toContain(res.status);
      expect(res.body, path).toMatchObject({ error: expect.stringMatching(/^(admin_route_not_found|route_not_found)$/) });
    }
    const post = await request(a).post('/__stub/ui').set('content-type', 'application/json').send('{}').expect(405);
    expect(post.headers['allow']).toBe('GET, HEAD');
    expect(post.body).toMatchObject({ error: 'admin_route_not_found', option: 'method' });
    await request(a).get('/__stub/uix').expect(404);
  });
});

describe('the console keeps the admin API\'s security', () => {
  it('is off with the admin API: a plain 404 like any unknown path', async () => {
    const a = await app({ admin: false });
    for (const path of ['/__stub/ui', '/__stub/ui/console.js']) {
      const res = await request(a).get(path).expect(404);
      expect(res.body).toMatchObject({ error: 'route_not_found' });
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
  });

  it('refuses a foreign Host or Origin, and preflights, exactly as the admin routes do', async () => {
    const a = await app();
    for (const path of ['/__stub/ui', '/__stub/ui/console.js', '/__stub/requests']) {
      const host = await request(a).get(path).set('host', 'evil.example').expect(403);
      expect(host.body).toMatchObject({ error: 'forbidden', option: 'host', found: '"evil.example"' });
      const origin = await request(a).get(path).set('origin', 'http://evil.example').expect(403);
      expect(origin.body).toMatchObject({ error: 'forbidden', option: 'origin' });
      const preflight = await request(a).options(path).set('origin', 'http://evil.example').set('access-control-request-method', 'GET').expect(403);
      expect(preflight.body).toMatchObject({ error: 'forbidden', option: 'method' });
    }
    await request(a).get('/__stub/ui').set('host', 'localhost:4010').set('origin', 'http://localhost:4010').expect(200);
    const named = await app({ allowedHosts: ['market-stub'] });
    await request(named).get('/__stub/ui').set('host', 'market-stub:4010').expect(200);
  });

  it('needs no token for the page (it holds no data) while every admin call it makes does', async () => {
    const a = await app({ adminToken: 'tok-123' });
    const page = await request(a).get('/__stub/ui').expect(200);
    expect(page.text).not.toContain('tok-123');
    for (const path of ['/__stub', '/__stub/markets', '/__stub/deviations', '/__stub/behaviours', '/__stub/requests?limit=1']) {
      const refused = await request(a).get(path).expect(401);
      expect(refused.body).toMatchObject({ error: 'unauthorized' });
      await request(a).get(path).set('authorization', 'Bearer tok-123').expect(200);
    }
    await request(a).post('/__stub/tick').set('content-type', 'application/json').send({ n: 1 }).expect(401);
  });
});

describe('the built CLI', () => {
  it('serves the console from dist/console beside its bundle, and not with --admin off', async () => {
    const on = await startServeProcess(['--port', '0', '--count', '2']);
    try {
      const page = await fetch(`${on.url}/__stub/ui`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script src="/__stub/ui/console.js" defer></script>');
      expect((await fetch(`${on.url}/__stub/ui/console.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    } finally {
      await on.stop();
    }
    const off = await startServeProcess(['--port', '0', '--count', '2', '--admin', 'off']);
    try {
      expect((await fetch(`${off.url}/__stub/ui`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  }, 30_000);
});
