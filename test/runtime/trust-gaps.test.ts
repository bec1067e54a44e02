// Smaller trust gaps, each through a public surface: bounded options (a NUL, 100,000
// rules, a 100,000-character admin token), the tick body's members, a repeated journal filter
// parameter, the Bearer scheme in any case (RFC 9110 §11.1), the remote client's catalog() and its
// deadline against hostile servers, and the proxy's refusal of a URL with credentials.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMarketStub, MarketStubError, startMarketStub, type MarketStub } from '../../src/index.js';
import { startRecordingProxy } from '../../src/proxy/recording-proxy.js';
import { MAX_RULES, MAX_TOKEN_LENGTH } from '../../src/floor/limits.js';
import { runCliProcess } from '../support/cli-process.js';

const TOKEN = 'trust-gaps-token-41';

async function refusal(start: () => Promise<unknown>): Promise<MarketStubError> {
  const error = await start().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MarketStubError);
  return error as MarketStubError;
}

describe('bounded options', () => {
  it('a NUL in a string option, more than MAX_RULES rules and an over-long admin token are OPTION_INVALID before anything listens', async () => {
    const nul = await refusal(() => startMarketStub({ port: 0, fixtures: 'fixtures\0.json' }));
    expect([nul.code, nul.option]).toEqual(['OPTION_INVALID', 'fixtures']);
    expect(nul.message).toContain('NUL');
    const rule = { match: { route: 'list' as const }, behaviour: { status: 503 } };
    const many = await refusal(() => startMarketStub({ port: 0, rules: Array.from({ length: 100_000 }, () => rule) }));
    expect(many.code).toBe('OPTION_INVALID');
    expect(many.message).toContain(`at most ${MAX_RULES} rules`);
    const long = 'k'.repeat(100_000);
    const token = await refusal(() => startMarketStub({ port: 0, adminToken: long }));
    expect(token.code).toBe('OPTION_INVALID');
    expect(token.message).toContain(`at most ${MAX_TOKEN_LENGTH}`);
    expect(token.message).not.toContain('kkkkkkkk');
  });

  it('serve refuses a 100,000-character MARKET_STUB_ADMIN_TOKEN at start (exit 2), without showing it', async () => {
    const result = await runCliProcess(['serve', '--port', '0'], { env: { MARKET_STUB_ADMIN_TOKEN: 'k'.repeat(100_000) } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`at most ${MAX_TOKEN_LENGTH}`);
    expect(result.stderr).not.toContain('kkkkkkkk');
  }, 30_000);

  it('addRule past MAX_RULES is LIMIT_EXCEEDED', async () => {
    const stub = await startMarketStub({ port: 0, rules: Array.from({ length: MAX_RULES }, (_, i) => ({ id: `r-${i}`, match: { marketId: `m-${i}` }, behaviour: { status: 503 } })) });
    try {
      const error = await refusal(() => stub.addRule({ match: { route: 'list' }, behaviour: { status: 503 } }));
      expect(error.code).toBe('LIMIT_EXCEEDED');
    } finally {
      await stub.close();
    }
  }, 60_000);
});

describe('the admin API', () => {
  let stub: MarketStub;
  beforeAll(async () => {
    stub = await startMarketStub({ port: 0, seed: 2, count: 3, adminToken: TOKEN });
  });
  afterAll(() => stub.close());
  const admin = (path: string, init: RequestInit = {}, scheme = 'Bearer') => fetch(`${stub.url}/__stub${path}`, { ...init, headers: { authorization: `${scheme} ${TOKEN}`, 'content-type': 'application/json', ...init.headers } });

  it('refuses a tick body with __proto__ or any member but n, as docs/limits.md says', async () => {
    for (const body of ['{"__proto__":{"n":5}}', '{"n":1,"extra":true}']) {
      const answer = await admin('/tick', { method: 'POST', body });
      expect(answer.status, body).toBe(400);
      const error = (await answer.json()) as { error: string; option: string };
      expect(error.error).toBe('option_invalid');
      expect(error.option).toMatch(/^body\/(__proto__|extra)$/);
    }
    expect((await admin('/tick', { method: 'POST', body: '{"n":2}' })).status).toBe(200);
  });

  it('refuses a journal filter parameter given twice (?status=abc&status=200)', async () => {
    for (const query of ['status=abc&status=200', 'status=200&status=200', 'path=/a&path=/b']) {
      const answer = await admin(`/requests?${query}`);
      expect(answer.status, query).toBe(400);
      expect(((await answer.json()) as { option: string }).option).toMatch(/^filter\.(status|path)$/);
    }
    expect((await admin('/requests?status=200')).status).toBe(200);
  });

  it('takes the Bearer scheme in any case (RFC 9110 §11.1), and the token only as given', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr', 'Bearer']) expect((await admin('/requests/count', {}, scheme)).status, scheme).toBe(200);
    expect((await fetch(`${stub.url}/__stub/requests/count`, { headers: { authorization: `Bearer ${TOKEN.toUpperCase()}` } })).status).toBe(401);
    expect((await fetch(`${stub.url}/__stub/requests/count`, { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
  });
});

describe('the remote client against hostile servers', () => {
  let server: Server;
  let url: string;
  let answer: (res: ServerResponse) => void = () => undefined;
  beforeAll(async () => {
    server = createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('catalog() refuses a 10^6-deep nested array: it is not a catalog', async () => {
    const body = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    const error = await refusal(() => connectMarketStub(url).catalog());
    expect(error.code).toBe('STUB_UNREACHABLE');
  });

  it('timeoutMs is a deadline over the whole call against a server that dribbles a byte every 250 ms', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      const timer = setInterval(() => (res.writableEnded ? clearInterval(timer) : res.write('[')), 250);
      res.once('close', () => clearInterval(timer));
    };
    const started = performance.now();
    const error = await refusal(() => connectMarketStub(url, { timeoutMs: 1_500 }).catalog());
    const took = performance.now() - started;
    expect(error.code).toBe('STUB_UNREACHABLE');
    expect(error.message).toContain('no answer within 1500 ms');
    expect(took).toBeLessThan(3_000);
  });
});

describe('the proxy', () => {
  it('refuses an upstream URL with credentials in words for proxy (it has no --header)', async () => {
    const error = await startRecordingProxy({ upstream: 'https://user:hunter2secret@api.example.com/v1', port: 0 }).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toContain('--upstream');
    expect(error?.message).not.toContain('--header');
    expect(error?.message).toContain('forwards the headers its clients send');
    expect(error?.message).not.toContain('hunter2secret');
  });
});
