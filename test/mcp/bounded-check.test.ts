// The MCP `check` tool's bound (src/mcp/bounded-check.ts): at its total bound the answer is a located
// LIMIT_EXCEEDED, and the crawl stops with it: the deployment sees its request's connection closed
// then, not at the crawl's own request timeout (MAX_MCP_CHECK.requestTimeoutMs, 5 s) or later.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MarketStubError } from '../../src/floor/market-stub-error.js';
import { MAX_MCP_CHECK } from '../../src/floor/limits.js';
import { boundedCheck } from '../../src/mcp/bounded-check.js';

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A deployment that takes every request and never answers; `closed` resolves when the first request's connection closes, with ms since it came. */
async function silentDeployment(): Promise<{ url: string; closed: Promise<number> }> {
  let markClosed: (ms: number) => void = () => {};
  const closed = new Promise<number>((resolve) => (markClosed = resolve));
  server = http.createServer((req) => {
    const came = performance.now();
    req.socket.once('close', () => markClosed(performance.now() - came));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed };
}

describe('the MCP check tool at its bound', () => {
  it('answers LIMIT_EXCEEDED at the bound and aborts the request in flight then', async () => {
    const { url, closed } = await silentDeployment();
    const bound = 400;
    const error = await boundedCheck(url, 3, bound).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(MarketStubError);
    expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', where: 'tool check' });
    expect((error as Error).message).toContain(`longer than ${bound} ms`);
    // Closed by the abort, well before the request timeout would have closed it.
    const afterMs = await closed;
    expect(afterMs).toBeLessThan(MAX_MCP_CHECK.requestTimeoutMs - 1_000);
  });

  it('answers the report when the deployment answers within the bound', async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const checked = await boundedCheck(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 3, 10_000);
    expect(checked.summary).toMatchObject({ marketsChecked: 0 });
    expect(checked.markdown.length).toBeGreaterThan(0);
  });
});
