// `market-stub mcp` as an assistant runs it: the built CLI as a child process, driven over stdio by
// the MCP SDK's own Client (and, for what a well-behaved client never sends, by raw lines). The tools
// must be the control table's rows (src/runtime/control-table.ts) plus openapi and check; a refused
// call carries the admin API's own located problem; nothing shows the admin token.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { CONTROLS } from '../../src/runtime/control-table.js';
import { MAX_MCP_MESSAGE_BYTES } from '../../src/floor/limits.js';
import { CLI, runCliProcess } from '../support/cli-process.js';

const TOKEN = 'mcp-test-token-5f2b9c1e';
const STUB_ARGS = ['--port', '0', '--seed', '3', '--count', '5', '--clock', '2026-01-01'];

/** An SDK client over a `market-stub mcp` child process; `stderr` collects what it printed there. */
async function connect(args: readonly string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string; stubUrl: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'market-stub-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, stubUrl: () => /for the stub at (\S+)/.exec(stderr)?.[1] ?? '' };
}

const textOf = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;

describe('market-stub mcp for a stub it starts', () => {
  let session: Awaited<ReturnType<typeof connect>>;
  const seen: unknown[] = [];
  beforeAll(async () => {
    session = await connect([...STUB_ARGS, '--admin-token', TOKEN]);
  });
  afterAll(async () => {
    await session.client.close();
    // Every answer the client got, and stderr: the admin token appears in none of them.
    expect(JSON.stringify(seen)).not.toContain(TOKEN);
    expect(session.stderr()).not.toContain(TOKEN);
  });
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await session.client.callTool({ name, arguments: args });
    seen.push(result);
    return result as CallToolResult;
  };

  it('lists one tool per control-table row, in its order, then openapi and check; each input schema compiles and says what the route reads', async () => {
    const { tools } = await session.client.listTools();
    seen.push(tools);
    expect(tools.map((t) => t.name)).toEqual([...CONTROLS.map((row) => row.name), 'openapi', 'check']);
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajvFormats.default(ajv);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      const row = CONTROLS.find((r) => r.name === tool.name);
      if (row) {
        expect(tool.description, tool.name).toContain(`${row.method} /__stub${row.path}`);
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(row.method === 'GET');
      }
      ajv.compile(tool.inputSchema);
    }
    const tick = ajv.compile(tools.find((t) => t.name === 'tick')!.inputSchema);
    expect(tick({ body: { n: 3 } })).toBe(true);
    expect(tick({ body: { n: 0 } })).toBe(false);
    const setMarkets = ajv.compile(tools.find((t) => t.name === 'setMarkets')!.inputSchema);
    expect(setMarkets({ body: [{ market_id: 'A', title: 'T', status: 'open', yes_price: 0.4, no_price: 0.6, resolution_date: '2026-06-01' }] })).toBe(true);
    expect(setMarkets({ body: [{ market_id: 'A' }] })).toBe(false);
    const setDeviations = ajv.compile(tools.find((t) => t.name === 'setDeviations')!.inputSchema);
    expect(setDeviations({ body: [{ name: 'string-price', rate: 0.5 }] })).toBe(true);
    expect(setDeviations({ body: [{ name: 'string-prise' }] })).toBe(false);
  });

  it('moves the clock and ticks prices, as the admin API does', async () => {
    const moved = await call('setClock', { body: { advance: 'PT6H' } });
    expect(moved.isError).toBeFalsy();
    expect(moved.structuredContent).toMatchObject({ instant: '2026-01-01T06:00:00Z', start: '2026-01-01T00:00:00Z' });
    const clock = await fetch(`${session.stubUrl()}/__stub/clock`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(((await clock.json()) as { instant: string }).instant).toBe('2026-01-01T06:00:00Z');
    const ticked = await call('tick', { body: { n: 2 } });
    expect(ticked.structuredContent).toHaveProperty('tick');
    expect(typeof (ticked.structuredContent as { tick: unknown }).tick).toBe('number');
  });

  it('sets a deviation the stub then serves, and reads the catalogue as a resource', async () => {
    const [first] = JSON.parse(textOf(await call('catalog'))) as { market_id: string }[];
    const set = await call('setDeviations', { body: [{ name: 'string-price', marketIds: [first!.market_id] }] });
    expect(set.isError).toBeFalsy();
    const served = (await (await fetch(`${session.stubUrl()}/markets/${encodeURIComponent(first!.market_id)}`)).json()) as { yes_price: unknown };
    expect(typeof served.yes_price).toBe('string');
    const resource = await session.client.readResource({ uri: 'market-stub://deviations' });
    seen.push(resource);
    const body = JSON.parse((resource.contents[0] as { text: string }).text) as { catalogue: { name: string }[]; active: { name: string }[] };
    expect(body.catalogue.map((d) => d.name)).toContain('string-price');
    expect(body.active).toEqual([{ name: 'string-price', marketIds: [first!.market_id] }]);
  });

  it('reads the journal with the filters of /__stub/requests, bounded by limit', async () => {
    for (let i = 0; i < 3; i++) await (await fetch(`${session.stubUrl()}/markets`, { headers: { 'x-request-id': `req-${i}` } })).arrayBuffer();
    const read = await call('requests', { filter: { path: '/markets', limit: 2 } });
    const body = JSON.parse(textOf(read)) as { requests: { path: string }[] };
    expect(body.requests).toHaveLength(2);
    expect(body.requests.every((e) => e.path === '/markets')).toBe(true);
    const one = JSON.parse(textOf(await call('requests', { filter: { requestId: 'req-1' } }))) as { requests: unknown[] };
    expect(one.requests).toHaveLength(1);
  });

  it('answers a refused call with the admin API\'s located problem as a tool error, not a crash', async () => {
    const admin = await fetch(`${session.stubUrl()}/__stub/tick`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{"n":0}' });
    const expected = (await admin.json()) as { option: string; expected: string; found: string };
    const refused = await call('tick', { body: { n: 0 } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'option_invalid', option: expected.option, expected: expected.expected, found: expected.found });
    const markets = await call('setMarkets', { body: [{ market_id: 'A' }] });
    expect(markets.isError).toBe(true);
    const findings = (markets.structuredContent as { findings: { pointer: string }[] }).findings;
    expect(findings.map((f) => f.pointer)).toContain('/0/title');
    const unknownArgument = await call('clock', { verbose: true });
    expect(unknownArgument.structuredContent).toMatchObject({ error: 'option_invalid', option: 'arguments.verbose' });
    const filter = await call('requests', { filter: { status: 'abc' } });
    expect(filter.structuredContent).toMatchObject({ option: 'filter.status' });
  });

  it('refuses an unknown tool with a protocol error naming the tools', async () => {
    const error = await session.client.callTool({ name: 'deleteEverything', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('setDeviations');
  });

  it('serves the OpenAPI document as a tool and a resource', async () => {
    const doc = JSON.parse(textOf(await call('openapi'))) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/markets/{market_id}');
  });

  it('checks a URL within its bounds: the stub passes, and fails once it serves a deviation', async () => {
    await call('reset');
    const checked = await call('check', { url: session.stubUrl(), maxMarkets: 3 });
    expect(checked.isError).toBeFalsy();
    expect(checked.structuredContent).toMatchObject({ verdict: 'pass', marketsChecked: 3, errors: 0 });
    await call('setDeviations', { body: [{ name: 'string-price' }] });
    const failed = await call('check', { url: session.stubUrl(), maxMarkets: 3 });
    expect(failed.structuredContent).toMatchObject({ verdict: 'fail' });
    expect(textOf(failed)).toContain('yes_price');
    await call('reset');
    const refused = await call('check', { url: 'ftp://example.com', maxMarkets: 3 });
    expect(refused.structuredContent).toMatchObject({ option: 'arguments.url' });
    const tooMany = await call('check', { url: session.stubUrl(), maxMarkets: 10_000 });
    expect(tooMany.structuredContent).toMatchObject({ option: 'arguments.maxMarkets' });
  });
});

describe('market-stub mcp --url for a stub that runs already', () => {
  let stub: MarketStub;
  beforeAll(async () => {
    stub = await startMarketStub({ seed: 5, count: 3, clock: '2026-01-01', adminToken: TOKEN });
  });
  afterAll(async () => stub.close());

  it('drives it with the token, and says how to pass one when it is missing or wrong, never showing it', async () => {
    const good = await connect(['--url', stub.url, '--admin-token', TOKEN]);
    const clock = (await good.client.callTool({ name: 'clock', arguments: {} })) as CallToolResult;
    expect(clock.structuredContent).toMatchObject({ instant: '2026-01-01T00:00:00Z' });
    await good.client.close();
    const none = await connect(['--url', stub.url]);
    const refused = (await none.client.callTool({ name: 'clock', arguments: {} })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'unauthorized' });
    expect(textOf(refused)).toContain('--admin-token');
    await none.client.close();
    const wrong = await connect(['--url', stub.url, '--seed', '9'], { MARKET_STUB_ADMIN_TOKEN: `${TOKEN}-wrong` });
    const wrongly = (await wrong.client.callTool({ name: 'reset', arguments: {} })) as CallToolResult;
    expect(wrongly.structuredContent).toMatchObject({ error: 'unauthorized' });
    expect(JSON.stringify(wrongly)).not.toContain(TOKEN);
    // A stub option beside --url is named as not read (the running stub's own options hold).
    expect(wrong.stderr()).toContain('--seed not read');
    expect(wrong.stderr()).not.toContain(TOKEN);
    await wrong.client.close();
  });
});

/** Sends raw lines to `market-stub mcp` and collects the JSON-RPC lines it answers until `count` arrived. */
function rawSession(lines: readonly (string | Buffer)[], count: number): Promise<{ answers: { id: unknown; error?: { code: number; message: string }; result?: unknown }[]; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'mcp', ...STUB_ARGS], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ${count} answers within 20 s: ${stdout}`));
    }, 20_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const answers = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: unknown });
      if (answers.length >= count) {
        clearTimeout(timer);
        child.stdin.end();
        child.once('close', () => resolve({ answers, stdout }));
      }
    });
    for (const line of lines) child.stdin.write(line);
  });
}

describe('market-stub mcp and what no well-behaved client sends', () => {
  const init = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`;
  const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

  it('answers a line that is not JSON with -32700, one that is not JSON-RPC with -32600, and goes on', async () => {
    const { answers } = await rawSession([init, '{"jsonrpc":"2.0", "id": 2, "method": \n', '[1,2]\n', '{"id":"x","hello":true}\n', ping(9)], 5);
    const errors = answers.filter((a) => a.error).map((a) => [a.id, a.error!.code]);
    expect(errors).toEqual([[null, -32700], [null, -32600], ['x', -32600]]);
    expect(answers.find((a) => a.id === 9)).toMatchObject({ result: {} });
  });

  it('skips a message over the documented limit while reading it, says so, and answers the next', async () => {
    const huge = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"setMarkets","arguments":{"body":"${'x'.repeat(MAX_MCP_MESSAGE_BYTES + 10)}"}}}\n`;
    const { answers } = await rawSession([init, huge, ping(4)], 3);
    const tooLarge = answers.find((a) => a.error);
    expect(tooLarge).toMatchObject({ id: null, error: { code: -32600 } });
    expect(tooLarge!.error!.message).toContain(String(MAX_MCP_MESSAGE_BYTES));
    expect(answers.find((a) => a.id === 4)).toMatchObject({ result: {} });
  });

  it('refuses options serve would refuse, and a stub without its admin API, before starting (exit 2)', async () => {
    const off = await runCliProcess(['mcp', '--admin', 'off', '--port', '0']);
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('--admin');
    expect(off.stdout).toBe('');
    const badUrl = await runCliProcess(['mcp', '--url', 'ftp://example.com']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--url');
    const badPort = await runCliProcess(['mcp', '--port', '70000']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port');
  });
});
