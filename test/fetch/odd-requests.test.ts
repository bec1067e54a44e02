// The Fetch handler answers every Request a runtime can hand it as node:http answers the same bytes
// on the wire. Bun passes a relative `request.url` for an HTTP/1.0 request without Host, for a
// Host with userinfo (`127.0.0.1@evil.example`) and for CONNECT's authority-form; the handler took
// it for absolute and threw `Invalid URL` (Bun answered 500 with a stack). Here the Requests are
// built as Bun builds them (a plain object: `new Request` refuses a relative URL in Node), and the
// same request-targets go over a socket to startMarketStub's node:http server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/fetch.js';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { exchange, parseResponse } from '../support/raw-http.js';

const OPTIONS = { seed: 4, count: 3, clock: '2026-01-01', adminToken: 'odd-requests-token' } as const;

/** A Request as a runtime hands it over when it could not build an absolute URL. */
function runtimeRequest(method: string, url: string, headers: Record<string, string> = {}): Request {
  return { method, url, headers: new Headers(headers), body: null, signal: new AbortController().signal } as unknown as Request;
}

let stub: MarketStub;
let port: number;
beforeAll(async () => {
  stub = await startMarketStub({ ...OPTIONS, port: 0 });
  port = Number(new URL(stub.url).port);
});
afterAll(() => stub.close());

/** [method, request.url as the runtime gives it, headers, the HTTP/1.x request line + head node:http gets]. */
const CASES: ReadonlyArray<readonly [string, string, Record<string, string>, string]> = [
  ['GET', '/markets', {}, 'GET /markets HTTP/1.0\r\n\r\n'],
  ['GET', '/markets?status=open', {}, 'GET /markets?status=open HTTP/1.0\r\n\r\n'],
  ['GET', '/healthz', { host: '127.0.0.1@evil.example' }, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1@evil.example\r\n\r\n'],
  ['GET', '/__stub/requests', { host: '127.0.0.1@evil.example', authorization: 'Bearer odd-requests-token' }, 'GET /__stub/requests HTTP/1.1\r\nHost: 127.0.0.1@evil.example\r\nAuthorization: Bearer odd-requests-token\r\n\r\n'],
  ['GET', '/__stub/requests', { authorization: 'Bearer odd-requests-token' }, 'GET /__stub/requests HTTP/1.0\r\nAuthorization: Bearer odd-requests-token\r\n\r\n'],
  ['GET', 'markets', {}, 'GET markets HTTP/1.0\r\n\r\n'],
  ['OPTIONS', '*', { host: '127.0.0.1' }, 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
  ['GET', '127.0.0.1:443', { host: '127.0.0.1:443' }, 'GET 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n'],
  ['GET', 'http://[bad', {}, 'GET http://[bad HTTP/1.0\r\n\r\n'],
];

describe('the Fetch handler and odd requests', () => {
  it.each(CASES)('%s %j: the status node:http answers, never a 5xx', async (method, url, headers, wire) => {
    const handler = createFetchHandler(OPTIONS);
    const answer = await handler.fetch(runtimeRequest(method, url, headers));
    const reference = parseResponse(await exchange(port, wire.replace(/\r\n\r\n$/, '\r\nConnection: close\r\n\r\n'), 5_000, false), method);
    expect(answer.status).toBeLessThan(500);
    expect(answer.status).toBe(reference.status);
    // The journal's bytes differ between two stubs; every other body is the same.
    if (!url.startsWith('/__stub')) expect(await answer.text()).toBe(reference.body.toString('utf8'));
  });

  it('answers CONNECT with its authority-form target as a 4xx, not a throw', async () => {
    const handler = createFetchHandler(OPTIONS);
    const answer = await handler.fetch(runtimeRequest('CONNECT', '127.0.0.1:443', { host: '127.0.0.1:443' }));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});
