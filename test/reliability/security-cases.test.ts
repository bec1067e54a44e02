import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess, startServeProcess, type ServedProcess } from '../support/cli-process.js';
import { figure } from './reliability-support.js';

// Crashes and stalls once seen (hostile bodies, paths, headers, slow clients), replayed against the built CLI as a black box.
let stub: ServedProcess;
beforeAll(async () => {
  stub = await startServeProcess(['--port', '0', '--count', '10', '--quiet'], { env: { MARKET_STUB_CLOCK: '2026-01-01' } });
});
afterAll(() => stub.stop());
const json = { 'content-type': 'application/json' };
let cases = 0;
afterAll(() => figure('security cases', `${cases} replayed against the CLI, all refused or answered as documented`));

describe('cross-site and DNS rebinding', () => {
  it.each([['text/plain', '{}'], ['application/x-www-form-urlencoded', 'a=1'], ['multipart/form-data; boundary=b', '--b--']])('a cross-site %s POST cannot reset or tick', async (type, body) => {
    for (const route of ['/__stub/reset', '/__stub/tick']) {
      const res = await fetch(`${stub.url}${route}`, { method: 'POST', headers: { 'content-type': type, origin: 'http://evil.example' }, body });
      expect([403, 415]).toContain(res.status);
      cases += 1;
    }
  });

  it('Host: evil.example cannot read the journal (with the clients\' Authorization and Cookie), replace the markets or clear the journal', async () => {
    await fetch(`${stub.url}/markets`, { headers: { authorization: 'Bearer victim-token', cookie: 'sid=victim-cookie' } });
    const { request } = await import('node:http');
    const send = (method: string, p: string, body?: string) => new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${stub.url}${p}`, { method, headers: { host: 'evil.example', ...(body ? json : {}) } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    for (const [method, p, body] of [['GET', '/__stub/requests'], ['PUT', '/__stub/markets', '[]'], ['DELETE', '/__stub/requests']] as const) {
      const res = await send(method, p, body);
      expect(res.status).toBe(403);
      expect(res.text).not.toContain('victim');
      cases += 1;
    }
    const journal = await (await fetch(`${stub.url}/__stub/requests?path=/markets`)).text();
    expect(journal).toContain('Bearer [redacted]');
    expect(journal).not.toContain('victim');
    expect(((await (await fetch(`${stub.url}/markets`)).json()) as unknown[]).length).toBe(10);
    cases += 1;
  });

  it('--host 0.0.0.0 with the admin API on and no token warns on stderr; with a token it does not', async () => {
    const open = await startServeProcess(['--host', '0.0.0.0', '--port', '0', '--count', '1', '--quiet']);
    const closed = await startServeProcess(['--host', '0.0.0.0', '--port', '0', '--count', '1', '--quiet'], { env: { MARKET_STUB_ADMIN_TOKEN: 't0ken' } });
    await new Promise((r) => setTimeout(r, 100));
    expect(open.output().stderr).toMatch(/warning: the admin API \(\/__stub\) is on without a token/);
    expect(closed.output().stderr).toBe('');
    await Promise.all([open.stop(), closed.stop()]);
    cases += 2;
  });
});

describe('crashes and stalls once seen stay fixed', () => {
  it('PUT /__stub/markets with a 3 MB body of {} is refused at once and /healthz keeps answering', async () => {
    const t = performance.now();
    const res = await fetch(`${stub.url}/__stub/markets`, { method: 'PUT', headers: json, body: `[${Array(1_000_000).fill('{}').join(',')}]` }).catch((e: Error) => e);
    expect(res instanceof Error ? 'closed' : res.status).toSatisfy((s: unknown) => s === 413 || s === 'closed');
    expect(performance.now() - t).toBeLessThan(5_000);
    expect((await fetch(`${stub.url}/healthz`)).status).toBe(200);
    cases += 1;
  });

  it('null or text/plain to POST /__stub/behaviours/rules is a 4xx, never a 500', async () => {
    expect((await fetch(`${stub.url}/__stub/behaviours/rules`, { method: 'POST', headers: json, body: 'null' })).status).toBe(400);
    expect((await fetch(`${stub.url}/__stub/behaviours/rules`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(415);
    cases += 2;
  });

  it('100,000-level nested JSON to 9 admin routes is a 400 limit_exceeded', async () => {
    const id = ((await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[])[0]?.market_id ?? '';
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const routes: [string, string][] = [['PUT', '/__stub/markets'], ['POST', '/__stub/markets'], ['PUT', `/__stub/markets/${id}`], ['PATCH', `/__stub/markets/${id}`], ['PUT', `/__stub/markets/${id}/deviations`], ['POST', '/__stub/tick'], ['PUT', '/__stub/behaviours/global'], ['POST', '/__stub/behaviours/rules'], ['POST', '/__stub/reset']];
    for (const [method, route] of routes) {
      const res = await fetch(`${stub.url}${route}`, { method, headers: json, body: deep });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'limit_exceeded' });
      cases += 1;
    }
  });

  it('the __proto__ patch is refused and list and item agree', async () => {
    const id = ((await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[])[0]?.market_id ?? '';
    const res = await fetch(`${stub.url}/__stub/markets/${id}`, { method: 'PATCH', headers: json, body: '{"title":null,"__proto__":{"title":"ghost"}}' });
    expect(res.status).toBe(400);
    const item = (await (await fetch(`${stub.url}/markets/${id}`)).json()) as { title: string };
    const listed = ((await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string; title: string }[]).find((m) => m.market_id === id);
    expect(listed?.title).toBe(item.title);
    expect(item.title).not.toBe('ghost');
    cases += 1;
  });

  it('Prefer: code=101 is a 400 and --status 101 exits 2; a FIFO as fixtures exits 2 at once', async () => {
    expect((await fetch(`${stub.url}/markets`, { headers: { prefer: 'code=101' } })).status).toBe(400);
    expect((await runCliProcess(['serve', '--status', '101'])).code).toBe(2);
    const dir = await mkdtemp(path.join(tmpdir(), 'ms-sec-'));
    try {
      execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
      const res = await runCliProcess(['serve', '--port', '0', '--fixtures', path.join(dir, 'fifo.json')], { timeoutMs: 10_000 });
      expect(res.code).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    cases += 3;
  });
});
