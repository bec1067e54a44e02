// Helpers of scripts/test-runtimes.mjs and bench/fetch-runtimes.ts: the runtimes' npm packages, a
// server file bundled with market-stub/fetch, a free loopback port, a server process stopped by its
// pid, readiness on GET /healthz, and the byte-for-byte comparison of what two servers answer
// (status, headers, body) to the same requests.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The runtimes besides Node and the npm package (pinned) that carries each one's binary. */
export const RUNTIME_PACKAGES = { bun: 'bun@1.4.5', deno: 'deno@2.9.6', workerd: 'workerd@1.20261117.1' };
const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Headers a server adds for the connection, not the answer (RFC 9110 §7.6.1): not compared. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);
/** The largest body read from a server under test (the OpenAPI document is about 30 KB). */
const BODY_LIMIT_BYTES = 4 * 1024 * 1024;
/** One request's time limit. */
const REQUEST_LIMIT_MS = 10_000;
/** Both sides see the same Host, so URLs built from it (the OpenAPI document's server) compare equal. */
const HOST = 'market-stub.test:4010';

/**
 * Bundles the server file `source` into `outDir` (same name) with `market-stub/fetch` resolved to
 * `entry` (esbuild, ESM, platform 'browser': a Node built-in anywhere in it fails the bundle).
 * Returns the bundle's path.
 */
export async function bundleServer(source, entry, outDir) {
  const outfile = path.join(outDir, path.basename(source));
  const resolveFetch = { name: 'market-stub-fetch', setup: (b) => b.onResolve({ filter: /^market-stub\/fetch$/ }, () => ({ path: entry })) };
  await build({ entryPoints: [source], outfile, bundle: true, platform: 'browser', format: 'esm', target: 'es2022', logLevel: 'error', plugins: [resolveFetch], nodePaths: [path.join(ROOT, 'node_modules')] });
  return outfile;
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it; a tiny window remains before use). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns a server in its own process group, keeping the last 8,000 characters of its output.
 * `stop()` sends SIGTERM to the group, SIGKILL after 3 s, and resolves once it exited.
 */
export function startProcess(command, args, { cwd, env }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const keep = (chunk) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  return {
    pid: child.pid,
    output: () => output,
    exited: () => gone,
    stop: async () => {
      if (gone) return;
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One request with raw results: status, headers as [lowercased name, value] pairs, body bytes. */
export function exchange(url, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { host: HOST, ...headers }, agent: false, timeout: REQUEST_LIMIT_MS }, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (chunk) => {
        size += chunk.length;
        if (size > BODY_LIMIT_BYTES) req.destroy(new Error(`${method} ${url}: body over ${BODY_LIMIT_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        const pairs = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode, headers: pairs, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within ${REQUEST_LIMIT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Polls GET /healthz until 200; resolves null, or why not (the process exited, or `limitMs` passed). */
export async function waitForReady(url, server, limitMs) {
  const deadline = performance.now() + limitMs;
  while (performance.now() < deadline) {
    if (server.exited()) return `exited before answering:\n${server.output()}`;
    const status = await exchange(`${url}/healthz`).then((r) => r.status, () => 0);
    if (status === 200) return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return `no 200 from GET ${url}/healthz within ${limitMs / 1000} s:\n${server.output()}`;
}

/**
 * The comparable form of an answer: hop-by-hop headers left out, the `Date` header's time of day
 * masked (the stub clock's date at the real time of day: two servers a second apart differ there),
 * headers sorted by name, the body as base64 so every byte counts.
 */
function comparable({ status, headers, body }) {
  // A 204's Content-Length is compared too: every adapter sends none (RFC 9110 §8.6).
  const kept = headers.filter(([name]) => !HOP_BY_HOP.has(name)).map(([name, value]) => [name, name === 'date' ? value.replace(/\d\d:\d\d:\d\d/, 'hh:mm:ss') : value]);
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { status, headers: kept, body: body.toString('base64') };
}

/** The requests compared: every public route, an error of each kind, CORS. `id` is a market's id. */
function requestsFor(id) {
  const origin = { origin: 'http://app.example' };
  return [
    ['GET /markets', '/markets', {}],
    ['GET /markets (Origin)', '/markets', { headers: origin }],
    ['GET /markets/{id}', `/markets/${encodeURIComponent(id)}`, {}],
    ['HEAD /markets/{id}', `/markets/${encodeURIComponent(id)}`, { method: 'HEAD' }],
    ['GET /markets (If-None-Match: *)', '/markets', { headers: { 'if-none-match': '*' } }],
    ['GET /markets/{id} (If-None-Match: *)', `/markets/${encodeURIComponent(id)}`, { headers: { 'if-none-match': '*' } }],
    ['HEAD /markets/{id} (If-None-Match: *)', `/markets/${encodeURIComponent(id)}`, { method: 'HEAD', headers: { 'if-none-match': '*' } }],
    ['GET /markets (If-None-Match: other)', '/markets', { headers: { 'if-none-match': '"x"' } }],
    ['GET /markets/{unknown}', '/markets/no-such-market', {}],
    ['GET /markets?limit=x', '/markets?limit=x', {}],
    ['GET /healthz', '/healthz', {}],
    ['GET /openapi.json', '/openapi.json', {}],
    ['GET /no-such-path', '/no-such-path', {}],
    ['POST /markets', '/markets', { method: 'POST' }],
    ['OPTIONS /markets (preflight)', '/markets', { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET' } }],
  ];
}

/** Where two comparable answers differ, as lines (empty: the same). */
function differences(label, a, b) {
  const lines = [];
  if (a.status !== b.status) lines.push(`${label}: status ${b.status}, node:http ${a.status}`);
  const show = (h) => h.map(([n, v]) => `${n}: ${v}`);
  const [ha, hb] = [show(a.headers), show(b.headers)];
  const missing = ha.filter((h) => !hb.includes(h));
  const extra = hb.filter((h) => !ha.includes(h));
  if (missing.length > 0 || extra.length > 0) lines.push(`${label}: headers differ: node:http only [${missing.join('; ')}], this runtime only [${extra.join('; ')}]`);
  if (a.body !== b.body) lines.push(`${label}: body differs (${Buffer.from(b.body, 'base64').length} bytes, node:http ${Buffer.from(a.body, 'base64').length}): ${Buffer.from(b.body, 'base64').toString('utf8').slice(0, 200)}`);
  return lines;
}

/** Sends every request of `requestsFor` to both; resolves with the differences (empty: the same bytes). */
export async function compareExchanges(referenceUrl, url) {
  const list = JSON.parse((await exchange(`${referenceUrl}/markets`)).body.toString('utf8'));
  const problems = [];
  for (const [label, target, options] of requestsFor(list[0].market_id)) {
    const [a, b] = await Promise.all([exchange(`${referenceUrl}${target}`, options), exchange(`${url}${target}`, options)]);
    problems.push(...differences(label, comparable(a), comparable(b)));
  }
  return problems;
}
