// connectMarketStub: the contract of the handle against a real CLI process (`node dist/cli.cjs
// serve`), and what only a remote client meets: tokens, unreachable stubs, redirects, servers that
// are not the admin API, oversized answers and bad options.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMarketStub, MarketStubError, startMarketStub } from '../../src/index.js';
import { startServeProcess, type ServedProcess } from '../support/cli-process.js';
import { CONTRACT_STUB, CONTRACT_TOKEN, describeMarketStubClient } from '../support/market-stub-client-contract.js';

describeMarketStubClient('connectMarketStub to `market-stub serve` (a CLI process)', async () => {
  const served = await startServeProcess(['--port', '0', '--seed', String(CONTRACT_STUB.seed), '--count', String(CONTRACT_STUB.count), '--clock', CONTRACT_STUB.clock, '--quiet'], {
    env: { MARKET_STUB_ADMIN_TOKEN: CONTRACT_TOKEN },
  });
  return { client: connectMarketStub(served.url, { adminToken: CONTRACT_TOKEN }), close: async () => void (await served.stop()) };
});

async function rejection(promise: Promise<unknown>): Promise<MarketStubError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MarketStubError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

/** A throwaway HTTP server on 127.0.0.1 that answers with `handler` and records the headers it saw. */
async function fakeServer(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    handler?.(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  })));
});

describe('connectMarketStub: tokens', () => {
  let served: ServedProcess | undefined;
  beforeAll(async () => {
    served = await startServeProcess(['--port', '0', '--count', '3', '--quiet', '--admin-token', CONTRACT_TOKEN]);
  });
  afterAll(async () => {
    await served?.stop();
  });

  it('a missing token rejects with UNAUTHORIZED saying the token is missing', async () => {
    const error = await rejection(connectMarketStub(served?.url ?? '').catalog());
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.where).toBe('stub.catalog');
    expect(error.message).toContain('missing token');
    expect(error.message).toContain(`GET ${served?.url}/__stub/markets answered 401`);
  });

  it('a wrong token rejects with UNAUTHORIZED saying it is wrong, without showing either token', async () => {
    const wrong = 'not-the-token-7d2a';
    const error = await rejection(connectMarketStub(served?.url ?? '', { adminToken: wrong }).tick());
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('wrong token');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(wrong);
    expect(error.message).not.toContain(CONTRACT_TOKEN);
  });

  it('the right token works for every call', async () => {
    const client = connectMarketStub(served?.url ?? '', { adminToken: CONTRACT_TOKEN });
    expect(await client.catalog()).toHaveLength(3);
    expect(await client.tick(2)).toBe(2);
  });
});

describe('connectMarketStub: the network', () => {
  it('a stub that is not running rejects with STUB_UNREACHABLE naming the URL', async () => {
    const { url, server } = await fakeServer(undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await rejection(connectMarketStub(url, { adminToken: 'secret-abc' }).catalog());
    expect(error.code).toBe('STUB_UNREACHABLE');
    expect(error.message).toContain(`GET ${url}/__stub/markets`);
    expect(error.message).toContain('connection refused (ECONNREFUSED)');
    expect(error.message).not.toContain('secret-abc');
  });

  it('a stub that does not answer in time rejects with STUB_UNREACHABLE after timeoutMs', async () => {
    const silent = await fakeServer(() => undefined);
    servers.push(silent.server);
    const t = performance.now();
    const error = await rejection(connectMarketStub(silent.url, { timeoutMs: 300 }).requestCount());
    expect(error.code).toBe('STUB_UNREACHABLE');
    expect(error.message).toContain('no answer within 300 ms');
    expect(performance.now() - t).toBeLessThan(5_000);
  });

  it('sends the token to the stub only: a redirect is not followed, and the other origin sees nothing', async () => {
    const elsewhere = await fakeServer((_req, res) => res.end('[]'));
    const redirecting = await fakeServer((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/__stub/markets` }).end();
    });
    servers.push(elsewhere.server, redirecting.server);
    const error = await rejection(connectMarketStub(redirecting.url, { adminToken: 'secret-xyz' }).catalog());
    expect(error.code).toBe('STUB_UNREACHABLE');
    expect(error.message).toContain(`answered 307 with a redirect to ${elsewhere.url}/__stub/markets`);
    expect(redirecting.seen[0]?.authorization).toBe('Bearer secret-xyz');
    expect(elsewhere.seen).toEqual([]);
  });

  it('sends JSON with its content type on state-changing calls, and nothing else', async () => {
    const bodies: { method?: string; type?: string; body: string }[] = [];
    const recorder = await fakeServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push({ method: req.method, type: req.headers['content-type'], body });
        res.setHeader('content-type', 'application/json');
        res.end(req.url?.startsWith('/__stub/tick') ? '{"tick":1}' : req.url === '/__stub/markets/m1' ? '{"market_id":"m1"}' : '{}');
      });
    });
    servers.push(recorder.server);
    const client = connectMarketStub(recorder.url);
    await client.tick();
    await client.patchMarket('m1', { title: 'x' });
    await client.reset();
    await client.removeMarket('m1');
    expect(bodies).toEqual([
      { method: 'POST', type: 'application/json', body: '{}' },
      { method: 'PATCH', type: 'application/merge-patch+json', body: '{"title":"x"}' },
      { method: 'POST', type: 'application/json', body: '' },
      { method: 'DELETE', type: undefined, body: '' },
    ]);
    expect(recorder.seen.every((h) => h.authorization === undefined && h.accept === 'application/json')).toBe(true);
  });

  it('a server that is not the admin API rejects with STUB_UNREACHABLE, its answer described', async () => {
    const page = await fakeServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
    servers.push(page.server);
    const error = await rejection(connectMarketStub(page.url).setMarkets([]));
    expect(error.code).toBe('STUB_UNREACHABLE');
    expect(error.message).toContain('answered 404 without an admin API error (text/html: <h1>Not here</h1>)');
  });

  it('a stub started with --admin off rejects with STUB_UNREACHABLE asking for the admin API', async () => {
    const stub = await startMarketStub({ count: 2, admin: false });
    try {
      const error = await rejection(connectMarketStub(stub.url).catalog());
      expect(error.code).toBe('STUB_UNREACHABLE');
      expect(error.message).toContain('is the admin API on (serve --admin on)');
    } finally {
      await stub.close();
    }
  });

  it('an answer over maxResponseBytes is refused while reading with LIMIT_EXCEEDED', async () => {
    const big = await fakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      for (let i = 0; i < 200; i++) res.write(`${i === 0 ? '' : ','}"${'x'.repeat(100)}"`);
      res.end(']');
    });
    servers.push(big.server);
    const error = await rejection(connectMarketStub(big.url, { maxResponseBytes: 4096 }).catalog());
    expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', option: 'maxResponseBytes' });
  });

  it('never shows the token, even when a server echoes it back', async () => {
    const echo = await fakeServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 400, error: 'option_invalid', message: `PUT /__stub/markets: you sent ${req.headers.authorization}`, option: 'markets', expected: 'x', found: String(req.headers.authorization) }));
    });
    servers.push(echo.server);
    const error = await rejection(connectMarketStub(echo.url, { adminToken: 'echoed-secret' }).setMarkets([]));
    expect(error.code).toBe('OPTION_INVALID');
    expect(`${error.message} ${error.found}`).not.toContain('echoed-secret');
    expect(error.message).toBe('stub.setMarkets: you sent Bearer [redacted]');
  });
});

describe('connectMarketStub: its own arguments', () => {
  it.each([
    ['ftp://127.0.0.1:4010', 'url'],
    ['not a url', 'url'],
    ['http://user:pw@127.0.0.1:4010', 'url'],
    ['http://127.0.0.1:4010/?x=1', 'url'],
  ])('refuses the URL %s with OPTION_INVALID', (url, option) => {
    let error: unknown;
    try {
      connectMarketStub(url);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MarketStubError);
    expect(error).toMatchObject({ code: 'OPTION_INVALID', where: 'connectMarketStub', option });
    expect((error as Error).message).not.toContain('pw@');
  });

  it.each([
    [{ adminToken: '' }, 'adminToken', 'connectMarketStub: adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged, found "(not shown)"'],
    [{ adminToken: 'a\nb' }, 'adminToken', 'connectMarketStub: adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged, found "(not shown)"'],
    [{ adminToken: 'tok ' }, 'adminToken', 'connectMarketStub: adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged, found "(not shown)"'],
    [{ adminToken: 'tök€n' }, 'adminToken', 'connectMarketStub: adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged, found "(not shown)"'],
    [{ timeoutMs: 0 }, 'timeoutMs', 'connectMarketStub: timeoutMs: expected an integer from 1 to 3600000, found 0'],
    [{ tiemoutMs: 5 }, 'tiemoutMs', 'connectMarketStub: tiemoutMs: expected a known option (did you mean timeoutMs? all: adminToken, maxResponseBytes, timeoutMs), found "tiemoutMs"'],
  ])('refuses the option %j', (options, option, message) => {
    expect(() => connectMarketStub('http://127.0.0.1:4010', options as never)).toThrow(message);
    expect(() => connectMarketStub('http://127.0.0.1:4010', options as never)).toThrow(expect.objectContaining({ option }));
  });

  it('keeps a path prefix (a stub behind a proxy) and drops a trailing slash', () => {
    expect(connectMarketStub('http://127.0.0.1:4010/').url).toBe('http://127.0.0.1:4010');
    expect(connectMarketStub('http://127.0.0.1:4010/team/stub/').url).toBe('http://127.0.0.1:4010/team/stub');
  });

  it('rejects arguments JSON cannot carry before sending anything', async () => {
    const recorder = await fakeServer((_req, res) => res.end('{}'));
    servers.push(recorder.server);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(await rejection(connectMarketStub(recorder.url).setBehaviour(cyclic))).toMatchObject({ code: 'OPTION_INVALID', where: 'stub.setBehaviour', option: 'behaviour' });
    expect(await rejection(connectMarketStub(recorder.url).tick(Number.NaN))).toMatchObject({ code: 'OPTION_INVALID', option: 'n', found: 'NaN' });
    expect(await rejection(connectMarketStub(recorder.url).putMarket({ market_id: 'm', n: 1n }))).toMatchObject({ code: 'OPTION_INVALID', option: 'market' });
    expect(recorder.seen).toEqual([]);
  });
});
