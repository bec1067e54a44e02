import { describe, expect, it } from 'vitest';
import { mixSeed } from '../../src/floor/seed-mix.js';
import { startServeProcess } from '../support/cli-process.js';
import { connect } from 'node:net';
import { exchange, figure, parseResponse, QUICK, rssOf } from './reliability-support.js';

const TOTAL = QUICK ? 10_000 : 30_000;
const CONCURRENCY = 24;

/** A seeded stream of hostile requests: raw bytes, and whether a response body (if any) must be JSON. */
function hostileRequest(n: number, marketId: string): { bytes: Buffer; label: string; truncated?: boolean } {
  let k = 0;
  const r = () => mixSeed(11, n, k++);
  const pick = <T>(items: readonly T[]): T => items[r() % items.length] as T;
  const junk = (len: number) => Array.from({ length: len }, () => String.fromCharCode(32 + (r() % 95))).join('');
  const pct = (len: number) => Array.from({ length: len }, () => `%${(r() % 256).toString(16).padStart(2, '0')}`).join('');
  const paths = [
    '/markets', '/markets/', `/markets/${marketId}`, `/markets/${pct(6)}`, '/markets/%E0%A4%A', '/markets/%', '/markets/%zz', `/markets/${junk(10).replace(/[ ?#]/g, 'x')}`,
    '/markets/../__stub/requests', '/markets/a/b', '/healthz', '/openapi.json', '/__stub', '/__stub/', '/__stub/requests?limit=1000', '/__stub/requests?limit=-1', '/__stub/requests?status=abc',
    '/__stub/markets', `/__stub/markets/${pct(4)}`, '/__stub/behaviours', '/__stub/nope', `/${'a'.repeat(r() % 5000)}`, '/markets?limit=1e9&offset=-1', '/markets?cursor=%FF',
    `/markets/${'é'.repeat(20)}`, '/%2e%2e/%2e%2e/etc/passwd', '*', 'http://evil.example/markets', '/markets\u0000', '//markets',
  ];
  const methods = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'FOO', 'get', 'M-SEARCH', 'PROPFIND'];
  const prefers = [
    'code=503', 'code=204', 'code=304', 'code=101', 'code=99', 'code=600', 'code=abc', 'code=', 'delay=-1', 'delay=1e9', 'delay=20', 'jitter=abc', 'error-rate=2', 'error-rate=0.5',
    'fault=bogus', 'retry-after=-3', 'dribble=x', `${junk(30)}`, 'code=429, retry-after=5', 'code="503"', 'code=503;x=1', ',,,,', 'delay=600001',
  ];
  const adminBodies = [
    '[{}]', '[]', 'null', '{"match":null}', '{"__proto__":{"title":"ghost"}}', '{"title":null}', `${'['.repeat(500)}${']'.repeat(500)}`, '{"n":1e400}', '{"n":5}', '[{"market_id":"a"}]',
    junk(200), '\u0000\u0001', '{"status":101}', '{"delayMs":10}', JSON.stringify({ market_id: 'h1', title: 'T', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' }),
  ];
  const kind = r() % 10;
  const method = pick(methods);
  const path = pick(paths);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${pick(['127.0.0.1', 'localhost', 'evil.example', '', '[::1]:1', junk(12)])}`];
  if (r() % 2 === 0) lines.push(`Prefer: ${pick(prefers)}`);
  if (r() % 5 === 0) lines.push(`Origin: ${pick(['http://evil.example', 'null', 'http://127.0.0.1'])}`);
  if (r() % 7 === 0) lines.push(`Authorization: Bearer ${junk(20)}`, `Cookie: s=${junk(10)}`);
  if (r() % 11 === 0) lines.push(`X-Big: ${'b'.repeat(r() % 20_000)}`);
  if (r() % 13 === 0) lines.push(`Expect: ${pick(['100-continue', 'foo'])}`);
  if (r() % 17 === 0) lines.push(`Bad Header Line ${junk(5)}`);
  if (kind < 4 && ['POST', 'PUT', 'PATCH'].includes(method)) {
    const body = Buffer.from(pick(adminBodies));
    lines.push(`Content-Type: ${pick(['application/json', 'text/plain', 'application/merge-patch+json', 'multipart/form-data'])}`);
    const truncated = r() % 9 === 0;
    if (r() % 8 === 0) lines.push('Transfer-Encoding: chunked', 'Connection: close', '', `${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n0`, '');
    else lines.push(`Content-Length: ${truncated ? body.length + 10 : body.length}`, 'Connection: close', '', body.toString('latin1'));
    return { bytes: Buffer.from(lines.join('\r\n'), 'latin1'), label: `${method} ${path}`, truncated };
  }
  if (kind === 9) return { bytes: Buffer.from(`${junk(1 + (r() % 300))}\r\n\r\n`), label: 'junk', truncated: true };
  lines.push('Connection: close', '', '');
  return { bytes: Buffer.from(lines.join('\r\n'), 'latin1'), label: `${method} ${path}` };
}

describe('hostile requests', () => {
  it(`${TOTAL} hostile requests: no crash, and every answer is a real HTTP answer with a well-formed JSON body where a body is allowed`, async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '20', '--quiet', '--journal-size', '5000'], { env: { MARKET_STUB_CLOCK: '2026-01-01' } });
    const port = Number(new URL(stub.url).port);
    const marketId = ((await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[])[0]?.market_id ?? '';
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let noAnswer = 0;
    let next = 0;
    const t = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL) {
        const n = next++;
        const { bytes, label, truncated } = hostileRequest(n, marketId);
        const raw = await exchange(port, bytes, 5_000, truncated === true);
        if (raw.length === 0) {
          noAnswer += 1;
          bad.push(`${n} ${label.slice(0, 80)}: no answer`);
          continue;
        }
        const res = parseResponse(raw, label.split(' ')[0]);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const head = label.startsWith('HEAD ');
        const bodyless = head || [204, 205, 304].includes(res.status);
        // A 500 is fine only when a Prefer error-rate asked for it (injected_fault).
        if (res.status === 500 && !res.body.toString().includes('injected_fault') && !label.startsWith('HEAD ')) bad.push(`${n} ${label.slice(0, 80)}: 500 ${res.body.toString().slice(0, 200)}`);
        if (res.malformed) bad.push(`${n} ${label.slice(0, 80)}: ${res.malformed}`);
        else if (res.status < 200 || res.status > 599) bad.push(`${n} ${label}: status ${res.status}`);
        else if (!bodyless) {
          try {
            JSON.parse(res.body.toString('utf8'));
          } catch {
            bad.push(`${n} ${label}: ${res.status} body not JSON: ${JSON.stringify(res.body.subarray(0, 80).toString())}`);
          }
        } else if (!head && res.body.length > 0) bad.push(`${n} ${label}: ${res.status} with a body`);
      }
    }));
    const seconds = (performance.now() - t) / 1000;
    expect(stub.child.exitCode).toBe(null);
    expect((await fetch(`${stub.url}/healthz`)).status).toBe(200);
    const rss = rssOf(stub.child.pid ?? 0);
    const { code } = await stub.stop();
    expect(code).toBe(0);
    const stderr = stub.output().stderr;
    if (/500 on/.test(stderr)) console.log(stderr.slice(0, 3000));
    expect(stderr).not.toMatch(/unexpected failure|500 on/);
    figure('hostile requests', `${TOTAL} sent in ${seconds.toFixed(1)} s, 0 crashes, ${bad.length} malformed answers, ${noAnswer} closed without an answer; statuses ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, c]) => `${s}×${c}`).join(' ')}; RSS after ${(rss / 2 ** 20).toFixed(0)} MB`);
    expect(bad.slice(0, 20)).toEqual([]);
    expect(noAnswer).toBe(0);
  }, 600_000);
});

describe('slow clients (slowloris)', () => {
  it('a client that never finishes its headers gets a 408 JSON answer after 10 s, and the stub keeps answering meanwhile', async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '5', '--quiet']);
    const port = Number(new URL(stub.url).port);
    const t = performance.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /markets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
      let out = '';
      socket.on('data', (d: Buffer) => (out += d.toString()));
      socket.on('close', () => resolve(out));
      socket.on('error', () => resolve(out));
      setTimeout(() => socket.destroy(), 20_000);
    })));
    const seconds = (performance.now() - t) / 1000;
    expect((await fetch(`${stub.url}/healthz`)).status).toBe(200);
    await stub.stop();
    for (const answer of answers) {
      const res = parseResponse(Buffer.from(answer, 'latin1'));
      expect(res.status).toBe(408);
      expect(JSON.parse(res.body.toString())).toMatchObject({ status: 408, error: 'request_timeout' });
    }
    figure('slow clients', `20 connections that never finished their headers: each answered 408 JSON after ${seconds.toFixed(1)} s (headers timeout 10 s, checked every second)`);
  }, 60_000);
});
