// The recording proxy reads an upstream's framing as `check` does (src/contract/http-client/
// message-framing.ts, one reader): an answer framed by both Transfer-Encoding and Content-Length,
// a repeated Content-Length or a listed one is a 502 `upstream_bad_framing` to the client and a
// `framing` finding naming the header, what was expected and what came; a transfer coding the
// proxy never asked for is passed on as it came and named. The upstream key in the URL never shows.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRecordingProxy, type RecordingProxy } from '../../src/proxy/recording-proxy.js';
import { findingOf } from './contract-report-helpers.js';

const BODY = '[]';
const ANSWERS: Record<string, string> = {
  both: `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n${BODY}\r\n0\r\n\r\n`,
  repeated: `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n${BODY}`,
  listed: `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2, 2\r\n\r\n${BODY}`,
  coded: `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n${BODY}\r\n0\r\n\r\n`,
};

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A raw TCP upstream that answers every request with the same bytes, as a broken gateway would. */
async function rawUpstream(answer: string): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

async function proxyTo(answer: string): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy({ upstream: `${await rawUpstream(answer)}/?api_key=UPSTREAM-SECRET-1` });
  closing.push(() => proxy.close());
  return proxy;
}

describe('the recording proxy names an upstream answer framed wrongly', () => {
  it.each([
    ['both', /framed twice: Transfer-Encoding: chunked and Content-Length: 2; expected one of them \(RFC 9112 §6\.1/],
    ['repeated', /Content-Length is sent 2 times \(Content-Length: 2, Content-Length: 3\); expected one decimal number/],
    ['listed', /Content-Length is a list \(Content-Length: 2, 2\); expected one decimal number/],
  ])('%s: a 502 upstream_bad_framing to the client and a framing finding naming the header', async (name, words) => {
    const proxy = await proxyTo(ANSWERS[name] as string);
    const res = await fetch(`${proxy.url}/markets`);
    const text = await res.text();
    expect(res.status).toBe(502);
    expect(JSON.parse(text)).toMatchObject({ status: 502, error: 'upstream_bad_framing' });
    expect(text).toMatch(words);
    await expect.poll(() => proxy.report().summary.errors, { timeout: 5_000 }).toBe(1);
    const finding = findingOf(proxy.report(), 'framing');
    expect(finding.found).toMatch(words);
    expect(JSON.stringify(proxy.report()) + text).not.toMatch(/UPSTREAM-SECRET-1/);
  });

  it('a transfer coding nobody asked for: passed on as it came, and named', async () => {
    const proxy = await proxyTo(ANSWERS.coded as string);
    const res = await fetch(`${proxy.url}/markets`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await expect.poll(() => proxy.report().findings.some((f) => f.code === 'framing'), { timeout: 5_000 }).toBe(true);
    expect(findingOf(proxy.report(), 'framing').found).toMatch(/Transfer-Encoding: gzip, chunked applies gzip, a transfer coding the checker never asked for/);
  });
});
