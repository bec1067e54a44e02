import { Agent, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawExchange } from '../support/raw-http.js';
import { buildCatalog, startMarketStub, type MarketCatalog, type MarketStub } from '../../src/index.js';
import { createStubRuntime } from '../../src/runtime/stub-runtime.js';
import { createRequestHandler, listen } from '../../src/http/server.js';
import { startServeProcess } from '../support/cli-process.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe("Node's parser errors and Expect get the profile's JSON body", () => {
  it.each([
    ['a bad request line', 'NOT HTTP\r\n\r\n', 400, 'bad_request'],
    ['a bad header', 'GET /markets HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, 'bad_request'],
    ['headers over 16 KiB', `GET /markets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['both Content-Length and chunked', 'POST /markets HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', 400, 'bad_request'],
  ])('%s → %i JSON', async (_l, text, status, code) => {
    const stub = await startMarketStub({ count: 1 });
    open.push(stub);
    const response = await rawExchange(stub.url, text);
    expect(response.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    expect(response).toMatch(/content-type: application\/json; charset=utf-8/i);
    expect(bodyOf(response)).toMatchObject({ status, error: code });
  });

  it('in the problem profile they are RFC 9457 bodies; Expect: foo gets 417', async () => {
    const stub = await startMarketStub({ count: 1, profile: { errors: 'problem' } });
    open.push(stub);
    const response = await rawExchange(stub.url, 'NOT HTTP\r\n\r\n');
    expect(response).toMatch(/content-type: application\/problem\+json/i);
    expect(bodyOf(response)).toMatchObject({ status: 400, title: 'Bad Request' });
    const expectation = await rawExchange(stub.url, 'GET /markets HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n');
    expect(expectation.startsWith('HTTP/1.1 417 ')).toBe(true);
    expect(bodyOf(expectation)).toMatchObject({ status: 417 });
  });
});

describe('a 500 always logs its cause', () => {
  it('with no request log (--quiet) the cause still goes to the error log, and the client gets JSON', async () => {
    const base = await buildCatalog({ seed: 1, count: 2, clock: '2026-01-01' });
    const broken: MarketCatalog = { ...base, entry: () => { throw new Error('catalog exploded'); } };
    const lines: string[] = [];
    const runtime = createStubRuntime({ catalog: broken, errorLog: (l) => lines.push(l) });
    const running = await listen(createRequestHandler(runtime), { port: 0, host: '127.0.0.1', onError: runtime.reportError });
    try {
      const res = await fetch(`${running.url}/markets/x`);
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ error: 'internal_error' });
      expect(lines.join('\n')).toMatch(/500 on GET \/markets\/x: Error: catalog exploded/);
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});

/** GET over a keep-alive agent: status, Connection header, or the socket error code. */
function get(url: string, agent: Agent): Promise<{ status: number; connection?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers.connection ? { connection: res.headers.connection } : {}) }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, error: e.code ?? e.message }));
    req.end();
  });
}

describe('graceful close', () => {
  it('held requests within the grace finish with Connection: close; those past it get a 503, not a cut', async () => {
    const stub = await startMarketStub({ count: 3, shutdownGraceMs: 700, rules: [{ match: { route: 'list' }, behaviour: { delayMs: 300 } }, { match: { route: 'item' }, behaviour: { delayMs: 5_000 } }] });
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const id = (await stub.catalog())[0]?.market_id ?? '';
    expect((await get(`${stub.url}/healthz`, agent)).status).toBe(200);
    const quick = get(`${stub.url}/markets`, agent);
    const slow = get(`${stub.url}/markets/${id}`, agent);
    await new Promise((r) => setTimeout(r, 50));
    const t = performance.now();
    await stub.close();
    const ms = performance.now() - t;
    expect(await quick).toEqual({ status: 200, connection: 'close' });
    expect(await slow).toEqual({ status: 503, connection: 'close' });
    expect(ms).toBeGreaterThanOrEqual(650);
    expect(ms).toBeLessThan(2_500);
    // After the close: a refused connection, never a reset of an open keep-alive socket.
    expect(await get(`${stub.url}/healthz`, agent)).toMatchObject({ status: 0, error: 'ECONNREFUSED' });
    agent.destroy();
  });

  it('keep-alive clients in a loop see only complete answers or a refused connection across SIGTERM; exit 0 (CLI)', async () => {
    const served = await startServeProcess(['--port', '0', '--count', '50', '--quiet', '--shutdown-grace', '2000']);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: string[] = [];
    let stop = false;
    const loops = Array.from({ length: 8 }, async () => {
      while (!stop) {
        const r = await get(`${served.url}/markets`, agent);
        outcomes.push(r.error ?? String(r.status));
        if (r.error === 'ECONNREFUSED') return;
      }
    });
    // Signal once the loops are answered (more than 20 answers, bounded), not after a fixed time a loaded machine may not keep.
    const answered = () => outcomes.filter((o) => o === '200').length;
    await vi.waitFor(() => expect(answered()).toBeGreaterThan(20), { timeout: 15_000, interval: 20 });
    const { code } = await served.stop('SIGTERM');
    stop = true;
    await Promise.all(loops);
    agent.destroy();
    expect(code).toBe(0);
    expect(answered()).toBeGreaterThan(20);
    expect(outcomes.filter((o) => o !== '200' && o !== 'ECONNREFUSED')).toEqual([]);
  });

  it('a second signal ends the process at once, while the grace is still running', async () => {
    const served = await startServeProcess(['--port', '0', '--count', '5', '--quiet', '--delay', '20000', '--shutdown-grace', '20000']);
    void fetch(`${served.url}/markets`).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    served.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const { ms } = await served.stop('SIGINT');
    expect(ms).toBeLessThan(1_000);
    expect(served.child.signalCode).toBe('SIGINT');
  });
});
