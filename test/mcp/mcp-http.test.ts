// `serve --mcp-http on`: MCP over Streamable HTTP at /__stub/mcp (docs/mcp.md "Over HTTP"), as an
// assistant reaches it: the built CLI's serve process, driven by the MCP SDK's own
// StreamableHTTPClientTransport, and by raw requests for what a well-behaved client never sends.
// It must list the very tools `market-stub mcp` lists over stdio, drive the stub it runs in, answer
// refused arguments with the admin API's located problem, sit behind the admin API's token and
// Host/Origin rules, and not be there at all when the option is off.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MCP_HTTP_SESSIONS, MAX_MCP_MESSAGE_BYTES, MAX_MCP_RESULT_BYTES } from '../../src/floor/limits.js';
import { createMcpHttpEndpoint } from '../../src/mcp/mcp-http.js';
import { CONTROLS } from '../../src/runtime/control-table.js';
import { launchStub } from '../../src/stub.js';
import { CLI, runCliProcess, startServeProcess, type ServedProcess } from '../support/cli-process.js';

const TOKEN = 'mcp-http-token-8d41e07a';
const STUB_ARGS = ['--port', '0', '--seed', '3', '--count', '5', '--clock', '2026-01-01', '--quiet'];
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** An SDK client over Streamable HTTP to `url`'s /__stub/mcp, sending `headers` on every request. */
async function connectHttp(url: string, headers: Record<string, string>): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/__stub/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'market-stub-http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A raw POST to /__stub/mcp. */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/__stub/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}`, ...headers }, body });
}

const listOf = async (url: string, path = '/markets'): Promise<unknown> => (await fetch(`${url}${path}`)).json();

describe('serve --mcp-http on', () => {
  let stub: ServedProcess;
  let session: Awaited<ReturnType<typeof connectHttp>>;
  const seen: string[] = [];
  beforeAll(async () => {
    stub = await startServeProcess([...STUB_ARGS, '--mcp-http', 'on', '--admin-token', TOKEN]);
    session = await connectHttp(stub.url, { authorization: `Bearer ${TOKEN}` });
  });
  afterAll(async () => {
    await session.client.close();
    const { stdout, stderr } = stub.output();
    expect(await stub.stop()).toMatchObject({ code: 0 });
    // No answer the clients got, and nothing the stub printed, shows the admin token.
    for (const text of [...seen, stdout, stderr]) expect(text).not.toContain(TOKEN);
  });
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => {
    const result = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
    seen.push(JSON.stringify(result));
    return result;
  };

  it('opens a session (Mcp-Session-Id) and lists exactly the tools `market-stub mcp` lists over stdio', async () => {
    expect(session.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const index = await fetch(`${stub.url}/__stub`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json()) as { endpoint?: unknown };
    expect(index.endpoint).toMatchObject({ method: 'POST', path: '/__stub/mcp' });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...CONTROLS.map((row) => row.name), 'openapi', 'check']);
    const stdio = new Client({ name: 'market-stub-stdio', version: '1.0.0' });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--url', stub.url, '--admin-token', TOKEN], env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' }, stderr: 'pipe' }));
    try {
      expect(tools).toEqual((await stdio.listTools()).tools);
    } finally {
      await stdio.close();
    }
  });

  it('drives the stub it runs in: setMarkets and tick change what GET /markets serves', async () => {
    const market = { market_id: 'MCP-1', title: 'Set over MCP HTTP', status: 'open', yes_price: 0.4, no_price: 0.6, resolution_date: '2026-06-01' };
    expect((await call('setMarkets', { body: [market] })).isError).toBeFalsy();
    expect(await listOf(stub.url)).toEqual([{ market_id: 'MCP-1', title: 'Set over MCP HTTP', status: 'open', yes_price: 0.4, no_price: 0.6 }]);
    expect((await call('reset')).isError).toBeFalsy();
    const before = await listOf(stub.url);
    const moved = await call('setClock', { body: { advance: 'PT6H' } });
    expect(moved.structuredContent).toMatchObject({ instant: '2026-01-01T06:00:00Z' });
    const ticked = await call('tick', { body: { n: 50 } });
    expect(ticked.isError).toBeFalsy();
    expect(await listOf(stub.url)).not.toEqual(before);
    // The admin API reads the clock the tools moved: the same stub, not a copy.
    const clock = await fetch(`${stub.url}/__stub/clock`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json()) as { instant: string };
    expect(clock.instant > '2026-01-01T06:00:00Z').toBe(true);
    expect(ticked.structuredContent).toMatchObject({ tick: expect.any(Number) as number });
  });

  it('answers a refused argument with the admin API\'s located problem, as a tool error', async () => {
    const tick = await call('tick', { body: { n: 0 } });
    expect(tick.isError).toBe(true);
    expect(tick.structuredContent).toMatchObject({ error: 'option_invalid', option: 'n', found: '0' });
    const markets = await call('setMarkets', { body: [{ market_id: 'A' }] });
    expect(markets.isError).toBe(true);
    const admin = await fetch(`${stub.url}/__stub/markets`, { method: 'PUT', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify([{ market_id: 'A' }]) }).then((r) => r.json()) as { findings: unknown[] };
    expect((markets.structuredContent as { findings: unknown[] }).findings).toEqual(admin.findings);
    await expect(session.client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('refuses a request without the token, with a wrong one, from a foreign Origin or an unknown Host, as every admin route', async () => {
    const refusals = [
      [await post(stub.url, JSON.stringify(INITIALIZE), { authorization: '' }), 401, 'unauthorized'],
      [await post(stub.url, JSON.stringify(INITIALIZE), { authorization: 'Bearer wrong' }), 401, 'unauthorized'],
      [await post(stub.url, JSON.stringify(INITIALIZE), { origin: 'https://evil.example' }), 403, 'forbidden'],
      [await post(stub.url, JSON.stringify(INITIALIZE), { 'sec-fetch-site': 'cross-site' }), 403, 'forbidden'],
    ] as const;
    for (const [response, status, error] of refusals) {
      expect(response.status).toBe(status);
      const text = await response.text();
      seen.push(text);
      expect(JSON.parse(text)).toMatchObject({ status, error });
      expect(response.headers.get('mcp-session-id')).toBeNull();
    }
    // A rebinding page's Host: through a raw socket (fetch sets Host itself).
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${stub.url}/__stub/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}`, host: 'attacker.example:80' } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(INITIALIZE));
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('DNS-rebinding');
    await expect(connectHttp(stub.url, {})).rejects.toThrow(/401/);
  });

  it('answers hostile and malformed requests with JSON-RPC or admin errors, and keeps serving', async () => {
    const cases: [Response, number, RegExp][] = [
      [await post(stub.url, '{"jsonrpc":"2.0",'), 400, /-32700/],
      [await post(stub.url, `${'['.repeat(200)}${']'.repeat(200)}`), 400, /-32700.*deeper|-32700.*levels/],
      [await post(stub.url, '\uFEFF{}'), 400, /-32700/],
      [await post(stub.url, JSON.stringify(INITIALIZE), { 'content-type': 'text/plain' }), 415, /Content-Type must be application\/json/],
      [await post(stub.url, JSON.stringify(INITIALIZE), { accept: 'application/json' }), 406, /Not Acceptable/],
      [await post(stub.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })), 400, /Mcp-Session-Id header is required/],
      [await post(stub.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'mcp-session-id': 'not-a-session' }), 404, /-32001.*Session not found/],
      [await post(stub.url, 'x'.repeat(MAX_MCP_MESSAGE_BYTES + 1)), 413, /limit_exceeded/],
      [await fetch(`${stub.url}/__stub/mcp`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' } }), 405, /no SSE stream/],
      [await fetch(`${stub.url}/__stub/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } }), 400, /Mcp-Session-Id header is required/],
    ];
    for (const [response, status, pattern] of cases) {
      const text = await response.text();
      seen.push(text);
      expect({ status: response.status, text }).toMatchObject({ status, text: expect.stringMatching(pattern) as string });
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    // A message within the limit but with a huge tool argument: a tool error, the session goes on.
    const huge = await call('setMarkets', { body: Array.from({ length: 3000 }, (_, i) => ({ market_id: `M${i}`, title: 'x'.repeat(80) })) });
    expect(huge.isError).toBe(true);
    expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('ends a session on DELETE (its id then answers 404), and holds at most MAX_MCP_HTTP_SESSIONS at once', async () => {
    const other = await connectHttp(stub.url, { authorization: `Bearer ${TOKEN}` });
    const id = other.transport.sessionId!;
    await other.transport.terminateSession();
    await other.client.close();
    const gone = await post(stub.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    expect(gone.status).toBe(404);
    const ids: string[] = [];
    // One session is open already (this suite's client).
    for (let i = 1; i < MAX_MCP_HTTP_SESSIONS; i++) {
      const opened = await post(stub.url, JSON.stringify(INITIALIZE));
      expect(opened.status).toBe(200);
      ids.push(opened.headers.get('mcp-session-id')!);
    }
    const refused = await post(stub.url, JSON.stringify(INITIALIZE));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.text()).toContain(`${MAX_MCP_HTTP_SESSIONS} MCP sessions are open`);
    for (const sessionId of ids) {
      expect((await fetch(`${stub.url}/__stub/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': sessionId } })).status).toBe(200);
    }
    expect((await post(stub.url, JSON.stringify(INITIALIZE))).status).toBe(200);
  });
});

describe('serve without --mcp-http on', () => {
  it('answers /__stub/mcp as any unknown admin path, byte for byte but the path', async () => {
    const stub = await startServeProcess([...STUB_ARGS]);
    try {
      const mcp = await post(stub.url, JSON.stringify(INITIALIZE), { authorization: '' });
      const other = await fetch(`${stub.url}/__stub/mcq`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
      expect(mcp.status).toBe(404);
      expect((await mcp.text()).replaceAll('/mcp', '/mcq')).toBe(await other.text());
      expect(mcp.headers.get('mcp-session-id')).toBeNull();
      expect(await fetch(`${stub.url}/__stub`).then((r) => r.json())).not.toHaveProperty('endpoint');
    } finally {
      await stub.stop();
    }
  });

  it('warns that --mcp-http on does nothing with --admin off, and serves no MCP path', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', ...STUB_ARGS, '--admin', 'off', '--mcp-http', 'on'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve) => child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (\S+)/.exec(stdout);
      if (m?.[1]) resolve(m[1]);
    }));
    try {
      expect(stderr).toContain('mcpHttp (--mcp-http) is ignored: the admin API is off');
      expect((await post(url, JSON.stringify(INITIALIZE))).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});

describe('--mcp-http as an option row', () => {
  it('is turned on by MARKET_STUB_MCP_HTTP and by the config file, and a bad value stops the start naming it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-mcp-http-'));
    const config = path.join(dir, 'stub.json');
    writeFileSync(config, JSON.stringify({ serve: { mcpHttp: 'on' } }));
    try {
      for (const [args, env] of [[STUB_ARGS, { MARKET_STUB_MCP_HTTP: 'on' }], [[...STUB_ARGS, '--config', config], {}]] as const) {
        const stub = await startServeProcess(args, { env });
        try {
          const opened = await post(stub.url, JSON.stringify(INITIALIZE), { authorization: '' });
          expect(opened.status).toBe(200);
          expect(opened.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
        } finally {
          await stub.stop();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const bad = await runCliProcess(['serve', ...STUB_ARGS, '--mcp-http', 'yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--mcp-http: expected one of on, off, found "yes"`);
  });
});

describe('an MCP HTTP session left idle, or asking for too much', () => {
  it('is closed after its idle time, and its id then answers 404', async () => {
    let url = '';
    const endpoint = createMcpHttpEndpoint({ adminToken: undefined, url: () => url, check: () => Promise.reject(new Error('not used')), idleMs: 200 });
    const { stub } = await launchStub({ port: 0, count: 2, clock: '2026-01-01' }, 'test', { adminEndpoint: endpoint });
    url = stub.url;
    try {
      const { client, transport } = await connectHttp(url, {});
      expect(endpoint.sessions).toBe(1);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(endpoint.sessions).toBe(0);
      const gone = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }), { 'mcp-session-id': transport.sessionId! });
      expect(gone.status).toBe(404);
      await client.close();
    } finally {
      await stub.close();
      await endpoint.close();
    }
  });

  it('answers a tool call whose answer is over MAX_MCP_RESULT_BYTES with a tool error saying to ask for less, read in process', async () => {
    let url = '';
    const endpoint = createMcpHttpEndpoint({ adminToken: TOKEN, url: () => url, check: () => Promise.reject(new Error('not used')) });
    const { stub } = await launchStub({ port: 0, count: 20_000, seed: 5, clock: '2026-01-01', adminToken: TOKEN }, 'test', { adminEndpoint: endpoint });
    url = stub.url;
    try {
      const { client } = await connectHttp(url, { authorization: `Bearer ${TOKEN}` });
      const result = (await client.callTool({ name: 'catalog', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: 'limit_exceeded', option: 'maxResponseBytes' });
      expect(JSON.stringify(result)).toContain(`over ${MAX_MCP_RESULT_BYTES} bytes`);
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      const few = (await client.callTool({ name: 'requests', arguments: { filter: { limit: 5 } } })) as CallToolResult;
      expect(few.isError).toBeFalsy();
      await client.close();
    } finally {
      await stub.close();
      await endpoint.close();
    }
  });
});
