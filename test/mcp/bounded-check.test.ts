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

/** A deployment that takes every request and never answers; `open()` counts the requests whose connection is still open, `seen()` every request that came. */
async function silentDeployment(): Promise<{ url: string; open: () => number; seen: () => number }> {
  let open = 0;
  let seen = 0;
  server = http.createServer((req) => {
    open += 1;
    seen += 1;
    req.socket.once('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, open: () => open, seen: () => seen };
}

describe('the MCP check tool at its bound', () => {
  it('answers LIMIT_EXCEEDED at the bound and aborts the requests in flight then', async () => {
    const deployment = await silentDeployment();
    // Long enough for the crawl's first request to arrive on a loaded machine, well under the request timeout.
    const bound = 2_000;
    const error = await boundedCheck(deployment.url, 3, bound).then(() => undefined, (e: unknown) => e);
    const answeredAt = performance.now();
    expect(error).toBeInstanceOf(MarketStubError);
    expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', where: 'tool check' });
    expect((error as Error).message).toContain(`longer than ${bound} ms`);
    expect(deployment.seen()).toBeGreaterThan(0);
    // Closed by the abort: the crawl's own request timeout would close them only about 3 s after the bound.
    while (deployment.open() > 0 && performance.now() - answeredAt < 5_000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(deployment.open()).toBe(0);
    expect(performance.now() - answeredAt).toBeLessThan(MAX_MCP_CHECK.requestTimeoutMs - bound - 1_000);
  }, 15_000);

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
