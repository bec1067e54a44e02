// Answers framed as RFC 9112 §6 forbids, or coded as RFC 9110 §8.4 does not allow, from
// deployments built with raw node:net servers (node:http cannot send them): each is named with the
// header, what was expected and what came, in every report format, never a generic length
// mismatch, a bare timeout or "not JSON". And the proxy variables read as curl reads them.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { conformingMarkets, summaryOf, withServer } from './deviant-server.js';
import { findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';
import { createOutgoingAgent } from '../../src/contract/http-client/outgoing-agent.js';
import { noProxyMatcher } from '../../src/contract/http-client/proxy-choice.js';

const SINGLE = 'GET /markets/{market_id}';
const FORMATS = ['text', 'json', 'markdown', 'html', 'junit', 'sarif'] as const;
const markets = conformingMarkets(2);
const listJson = JSON.stringify(markets.map(summaryOf));

type Reply = (path: string) => Array<string | Buffer> | undefined;

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A deployment on a raw socket: `reply` writes the whole answer for a path (status line, fields, body) and the connection closes unless `keepOpen`. */
async function rawDeployment(reply: Reply, keepOpen = false): Promise<string> {
  const server = createServer((socket: Socket) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      const path = head.split(' ')[1] ?? '/';
      head = head.slice(end + 4);
      const text = path === '/markets' ? listJson : JSON.stringify(markets.find((m) => `/markets/${String(m['market_id'])}` === path) ?? {});
      const parts = reply(path) ?? answer(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, text);
      for (const part of parts) socket.write(part);
      if (!keepOpen) socket.end();
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An answer's bytes: status line, the fields as given (a field repeated when its value is an array), the body. */
function answer(status: number, fields: Record<string, string | string[]>, body: string | Buffer): Array<string | Buffer> {
  const lines = Object.entries(fields).flatMap(([name, value]) => [value].flat().map((v) => `${name}: ${v}`));
  return [`HTTP/1.1 ${status} OK\r\n${lines.join('\r\n')}\r\n\r\n`, body];
}

const single = (reply: (path: string) => Array<string | Buffer>): Reply => (path) => (path === `/markets/${String(markets[1]?.['market_id'])}` ? reply(path) : undefined);

describe('framing and codings, named (RFC 9112 §6, RFC 9110 §8.4)', () => {
  it('Transfer-Encoding and Content-Length together: framing error naming both', async () => {
    const body = JSON.stringify(markets[1]);
    const url = await rawDeployment(single(() => [`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\ncontent-length: ${body.length}\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`]));
    const run = await runCheckJson(url, ['--all']);
    expect(run.code).toBe(1);
    expect(problemKeys(run.report)).toEqual([`error framing ${SINGLE} `]);
    expect(findingOf(run.report, 'framing').found).toBe(`the answer is framed twice: Transfer-Encoding: chunked and Content-Length: ${body.length}; expected one of them (RFC 9112 §6.1: a sender MUST NOT send Content-Length with Transfer-Encoding; §6.3: the message cannot be trusted)`);
  });

  it('a repeated Content-Length with two values, on the list: a framing error (exit 1, not "cannot reach")', async () => {
    const url = await rawDeployment((path) => (path === '/markets' ? answer(200, { 'content-type': 'application/json', 'content-length': [String(listJson.length), String(listJson.length + 1)] }, listJson) : undefined));
    for (const format of FORMATS) {
      const run = await runCliInProcess(['check', '--base-url', url, '--format', format]);
      expect(run.code, format).toBe(1);
      expect(run.stdout, format).toContain('framing');
      expect(run.stdout, format).toContain(`Content-Length is sent 2 times (Content-Length: ${listJson.length}, Content-Length: ${listJson.length + 1})`);
    }
  });

  it('Transfer-Encoding: gzip, chunked (a transfer coding never asked for in TE): named, not "not JSON"', async () => {
    const body = gzipSync(JSON.stringify(markets[1]));
    const url = await rawDeployment(single(() => [`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: gzip, chunked\r\n\r\n${body.length.toString(16)}\r\n`, body, '\r\n0\r\n\r\n']));
    const run = await runCheckJson(url, ['--all']);
    expect(problemKeys(run.report)).toEqual([`error framing ${SINGLE} `]);
    expect(findingOf(run.report, 'framing').found).toBe('Transfer-Encoding: gzip, chunked applies gzip, a transfer coding the checker never asked for (it sends no TE); expected chunked only, or a Content-Encoding for compression (RFC 9112 §7.4: a server MUST NOT send a transfer coding the request\'s TE did not list)');
  });

  it('a gzip body whose Content-Length is its decoded length: named, not a bare timeout', async () => {
    const text = JSON.stringify(markets[1]);
    const body = gzipSync(text);
    const url = await rawDeployment(single(() => answer(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(text.length) }, body)), true);
    const run = await runCheckJson(url, ['--all', '--timeout-ms', '1000']);
    expect(run.code).toBe(1);
    expect(findingOf(run.report, 'framing').found).toBe(`Content-Length: ${text.length} is the decoded length: the gzip body is ${body.length} bytes and decodes whole to ${text.length}; expected Content-Length: ${body.length} (RFC 9110 §8.6: it counts the bytes sent, after the content coding), so the answer never ends for a client that trusts it`);
  });

  it('an unknown Content-Encoding names the header, what was asked for and what came', async () => {
    const url = await rawDeployment(single(() => answer(200, { 'content-type': 'application/json', 'content-encoding': 'utf-8' }, JSON.stringify(markets[1]))));
    const run = await runCheckJson(url, ['--all']);
    expect(findingOf(run.report, 'undecodable-body').found).toBe('the body has Content-Encoding "utf-8": "utf-8" is not gzip, br or deflate (market-stub sends Accept-Encoding: gzip, br)');
  });
});

describe('proxy variables as curl reads them', () => {
  const route = (env: Record<string, string>, url: string, noProxy?: string) => createOutgoingAgent({ proxyEnv: env, ...(noProxy === undefined ? {} : { noProxy }) }).proxyFor(new URL(url))?.source;

  it('precedence: --proxy, then per scheme (http_proxy only for http; https_proxy, HTTPS_PROXY), then all_proxy, ALL_PROXY', () => {
    expect(route({ HTTP_PROXY: 'http://upper:1' }, 'http://api.example/')).toBeUndefined();
    expect(route({ http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:1' }, 'http://api.example/')).toBe('http_proxy');
    expect(route({ HTTPS_PROXY: 'http://p:1' }, 'https://api.example/')).toBe('HTTPS_PROXY');
    expect(route({ https_proxy: 'http://p:1', HTTPS_PROXY: 'http://q:1' }, 'https://api.example/')).toBe('https_proxy');
    expect(route({ ALL_PROXY: 'http://p:1' }, 'http://api.example/')).toBe('ALL_PROXY');
    expect(route({ all_proxy: 'http://p:1', ALL_PROXY: 'http://q:1', https_proxy: 'http://r:1' }, 'https://api.example/')).toBe('https_proxy');
    expect(createOutgoingAgent({ proxy: 'http://given:1', proxyEnv: { https_proxy: 'http://p:1' } }).proxyFor(new URL('https://api.example/'))?.source).toBe('--proxy');
  });

  it('NO_PROXY: suffixes, leading dots, ports, IPv6 literals, CIDR ranges and *', () => {
    const cases: Array<[string, string, boolean]> = [
      ['example.com', 'https://example.com/', true],
      ['example.com', 'https://api.example.com/', true],
      ['example.com', 'https://notexample.com/', false],
      ['.example.com', 'https://example.com/', true],
      ['*.example.com', 'https://a.example.com/', true],
      ['example.com:8443', 'https://example.com:8443/', true],
      ['example.com:8443', 'https://example.com/', false],
      ['::1', 'http://[::1]:4010/', true],
      ['[::1]', 'http://[::1]:4010/', true],
      ['10.0.0.0/8', 'http://10.1.2.3/', true],
      ['10.0.0.0/8', 'http://11.1.2.3/', false],
      ['fd00::/8', 'http://[fd12::1]/', true],
      ['*', 'http://anything.example/', true],
      ['a.example, b.example', 'http://b.example/', true],
      ['a.example b.example', 'http://b.example/', true],
      ['EXAMPLE.com', 'http://example.COM./', true],
    ];
    for (const [value, url, bypassed] of cases) expect(noProxyMatcher(value)(new URL(url)), `${value} ${url}`).toBe(bypassed);
  });

  it('ALL_PROXY=socks5://… matters only where it would be used: a host NO_PROXY covers goes directly; another is refused naming the variable', async () => {
    await withServer(conformingMarkets(2), undefined, async (server) => {
      const direct = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json'], { env: { ALL_PROXY: 'socks5://127.0.0.1:1080', NO_PROXY: '127.0.0.1' } });
      expect(direct.code).toBe(0);
      const refused = await runCliInProcess(['check', '--base-url', server.url], { env: { ALL_PROXY: 'socks5://127.0.0.1:1080' } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('ALL_PROXY: socks5: proxies are not supported, and 127.0.0.1');
    });
  });
});
