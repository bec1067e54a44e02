import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AdminTransport } from '../client/admin-transport.js';
import { MAX_MCP_CALL_MS, MAX_MCP_CHECK, MAX_MCP_RESULT_BYTES } from '../floor/limits.js';
import { MarketStubError, optionError } from '../floor/market-stub-error.js';
import { int, readTyped } from '../floor/option-kind.js';
import { packageVersion } from '../floor/package-info.js';
import { createRedactor } from '../floor/redact-secrets.js';
import { kindSchema } from '../config-file/config-schema.js';
import type { BoundedCheck } from './bounded-check.js';
import { controlRequest, controlTools, type ToolListing } from './control-tools.js';

/** The stub an MCP server drives: its base URL, the admin API transport to it, and the bounded check. */
export interface McpTarget {
  /** The stub's base URL (`http://127.0.0.1:4010`): its market routes and `/openapi.json` are under it. */
  url: string;
  /** The remote client's transport to the admin API (client/admin-transport.ts), answers bounded to MAX_MCP_RESULT_BYTES. */
  send: AdminTransport;
  /** The short check of a deployment (bounded-check.ts), loaded when the tool is first called. */
  check(url: string, maxMarkets: number): Promise<BoundedCheck>;
  /** Values never to show (the admin token): every text the server sends is redacted of them. */
  secrets: readonly string[];
}

/** The tools beside the controls': the OpenAPI document and the bounded check. */
const OWN_TOOLS: readonly ToolListing[] = [
  {
    name: 'openapi', description: 'The OpenAPI 3.1 document the stub serves at /openapi.json (the market routes, their parameters and answers, the stub\'s profile).',
    inputSchema: { type: 'object', additionalProperties: false, properties: {} },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'check',
    description: `A short contract check of a deployment of the Prediction Market Data Service (the library's checkDeployment, as \`market-stub check\`): at most ${MAX_MCP_CHECK.pages} list pages and ${MAX_MCP_CHECK.markets} markets, ${MAX_MCP_CHECK.requestTimeoutMs} ms a request, ${MAX_MCP_CHECK.totalMs} ms in all. Answers the report as markdown (findings with their JSON pointers) and the verdict.`,
    inputSchema: {
      type: 'object', additionalProperties: false, required: ['url'],
      properties: {
        url: { description: 'The deployment\'s base URL (GET {url}/markets is its list), such as the stub\'s own URL.', ...kindSchema({ type: 'url' }) },
        maxMarkets: { description: `Markets requested one by one (default 10).`, ...kindSchema(int(1, MAX_MCP_CHECK.markets)) },
      },
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
];

/** Every tool `tools/list` lists, in its order: the control table's (control-tools.ts), then `openapi` and `check`. */
export function toolListings(): ToolListing[] {
  return [...controlTools().map(({ row: _row, ...tool }) => tool), ...OWN_TOOLS];
}

/** The resources: what an assistant reads as context, each the same answer as a tool or admin route. */
export const RESOURCES = [
  { uri: 'market-stub://deviations', name: 'deviations', title: 'Deviation catalogue', description: 'Every deviation the stub can serve (name, class, endpoints, description, the findings check reports), those in force and how many markets each reaches: GET /__stub/deviations.', mimeType: 'application/json' },
  { uri: 'market-stub://requests', name: 'requests', title: 'Journal (newest 100)', description: 'The newest 100 journal entries, oldest first, with the journal\'s counters: GET /__stub/requests?limit=100. The requests tool takes every filter.', mimeType: 'application/json' },
  { uri: 'market-stub://openapi.json', name: 'openapi', title: 'OpenAPI document', description: 'The OpenAPI 3.1 document the stub serves at /openapi.json.', mimeType: 'application/json' },
] as const;

/**
 * An MCP server (the official SDK's low-level Server, loaded here on first use) for one stub: the
 * tools of its control table (control-tools.ts), `openapi`, `check`, and the resources above. A
 * call whose arguments the stub refuses answers a tool error result (`isError`) with the admin
 * API's problem (`error`, `message`, `option`, `expected`, `found`, `findings`) as text and as
 * structuredContent, never a protocol error; an unknown tool is a protocol error (-32602,
 * MCP 2025-06-18 server/tools "Error Handling"). Nothing the server sends shows `target.secrets`.
 */
export async function createMcpServer(target: McpTarget): Promise<{ server: Server; settled(): Promise<void> }> {
  const types = await import('./sdk.js');
  const McpServer = types.Server;
  const server = new McpServer(
    { name: 'market-stub', version: packageVersion() },
    { capabilities: { tools: {}, resources: {} }, instructions: 'market-stub: a stub of the Prediction Market Data Service (GET /markets, GET /markets/{market_id}). The tools are its admin API (docs/admin-api.md): markets, deviations from the contract, behaviours, the stub clock and the journal of requests it answered.' },
  );
  const redactor = createRedactor([...target.secrets]);
  // Calls still running when the client hangs up are answered before the server closes (settled).
  const running = new Set<Promise<unknown>>();
  const tracked = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => {});
    return work;
  };
  const tools = controlTools();
  const listed = toolListings();
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: listed as never }));
  server.setRequestHandler(types.CallToolRequestSchema, (request) => tracked((async () => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const tool = tools.find((t) => t.name === name);
    if (tool === undefined && !OWN_TOOLS.some((t) => t.name === name)) {
      throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name.slice(0, 100))}; tools/list lists the ${listed.length} tools (${listed.map((t) => t.name).join(', ')})`);
    }
    const where = `tool ${name}`;
    const result = await answerCall(() => (tool ? callControl(target, tool.row, args, where) : callOwnTool(target, name, args, where)));
    return redactResult(result, redactor);
  })()));
  server.setRequestHandler(types.ListResourcesRequestSchema, () => ({ resources: RESOURCES.map((r) => ({ ...r })) }));
  server.setRequestHandler(types.ReadResourceRequestSchema, (request) => tracked((async () => {
    const { uri } = request.params;
    const where = `resource ${uri}`;
    let body: unknown;
    try {
      body = await readResource(target, uri, where);
    } catch (error) {
      if (error instanceof MarketStubError) // -32002: resource not found (MCP 2025-06-18 server/resources "Error Handling").
      throw new types.McpError(RESOURCES.some((r) => r.uri === uri) ? types.ErrorCode.InternalError : -32002, redactor.redact(error.message));
      throw error;
    }
    return { contents: [{ uri, mimeType: 'application/json', text: redactor.redact(JSON.stringify(body, null, 2)) }] };
  })()));
  return { server, settled: async () => { while (running.size > 0) await Promise.allSettled([...running]); } };
}

/** A control's call: its admin request (arguments checked first), sent; the answer's JSON as the result. */
async function callControl(target: McpTarget, row: Parameters<typeof controlRequest>[0], args: Record<string, unknown>, where: string): Promise<CallToolResult> {
  const answer = await target.send(where, controlRequest(row, args, where));
  const text = answer.body === undefined ? JSON.stringify({ status: answer.status }) : JSON.stringify(answer.body, null, 2);
  const structured = answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body) ? { structuredContent: answer.body as Record<string, unknown> } : {};
  return { content: [{ type: 'text', text }], ...structured };
}

async function callOwnTool(target: McpTarget, name: string, args: Record<string, unknown>, where: string): Promise<CallToolResult> {
  if (name === 'openapi') {
    onlyArguments(args, [], where);
    return { content: [{ type: 'text', text: JSON.stringify(await fetchOpenApi(target, where), null, 2) }] };
  }
  onlyArguments(args, ['url', 'maxMarkets'], where);
  const url = readTyped({ type: 'url' }, args['url']);
  if (!url.ok) throw optionError(where, 'arguments.url', url.expected, args['url']);
  const count = args['maxMarkets'] === undefined ? { ok: true as const, value: 10 } : readTyped(int(1, MAX_MCP_CHECK.markets), args['maxMarkets']);
  if (!count.ok) throw optionError(where, 'arguments.maxMarkets', count.expected, args['maxMarkets']);
  const checked = await target.check(url.value as string, count.value as number);
  return { content: [{ type: 'text', text: checked.markdown }], structuredContent: { ...checked.summary } };
}

function onlyArguments(args: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const key of Object.keys(args)) if (!known.includes(key)) throw optionError(where, `arguments.${key}`, known.length === 0 ? 'no arguments' : `one of ${known.join(', ')}`, key);
}

/** The result of a call, or a tool error result carrying the MarketStubError's problem (its fields as the admin API sends them). */
async function answerCall(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof MarketStubError)) throw error;
    const problem = {
      error: error.code.toLowerCase(), message: mcpWording(error),
      ...(error.option === undefined ? {} : { option: error.option }), ...(error.expected === undefined ? {} : { expected: error.expected }), ...(error.found === undefined ? {} : { found: error.found }),
      ...(error.findings.length > 0 ? { findings: error.findings } : {}), ...(error.more > 0 ? { more: error.more } : {}),
    };
    return { isError: true, content: [{ type: 'text', text: `${problem.message}\n${JSON.stringify(problem)}` }], structuredContent: problem };
  }
}

/** The message, with the remote client's advice worded for `market-stub mcp` where it names a library option. */
function mcpWording(error: MarketStubError): string {
  if (error.code === 'UNAUTHORIZED') return `${error.message.replace(/: pass connectMarketStub\(url, \{ adminToken \}\) with the value of its --admin-token$/, '')}; start market-stub mcp with --admin-token (or MARKET_STUB_ADMIN_TOKEN) set to the stub's token`;
  if (error.code === 'LIMIT_EXCEEDED' && error.option === 'maxResponseBytes') return `${error.where}: the answer is over ${MAX_MCP_RESULT_BYTES} bytes, the most one MCP result carries (docs/limits.md); ask for less (the requests tool's filter.limit, a narrower filter)`;
  // The check's own errors name the CLI's flag; here the URL is the tool's argument.
  if (error.where === 'check') return `tool check: ${error.message.replaceAll('--base-url', 'the url argument')}`;
  return error.message;
}

function redactResult(result: CallToolResult, redactor: ReturnType<typeof createRedactor>): CallToolResult {
  if (!redactor.active) return result;
  return redactor.redactValue(result);
}

async function readResource(target: McpTarget, uri: string, where: string): Promise<unknown> {
  switch (uri) {
    case 'market-stub://deviations': return (await target.send(where, { method: 'GET', path: '/deviations' })).body;
    case 'market-stub://requests': return (await target.send(where, { method: 'GET', path: '/requests', query: new URLSearchParams({ limit: '100' }) })).body;
    case 'market-stub://openapi.json': return fetchOpenApi(target, where);
    default: throw new MarketStubError({ code: 'OPTION_INVALID', where, message: `no resource ${JSON.stringify(uri.slice(0, 200))}; resources/list lists them (${RESOURCES.map((r) => r.uri).join(', ')})` });
  }
}

/** `GET {url}/openapi.json`, within MAX_MCP_CALL_MS and MAX_MCP_RESULT_BYTES, no redirect followed. */
async function fetchOpenApi(target: McpTarget, where: string): Promise<unknown> {
  const url = `${target.url}/openapi.json`;
  const fail = (why: string) => new MarketStubError({ code: 'STUB_UNREACHABLE', where, message: `${where}: GET ${url}: ${why}` });
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(MAX_MCP_CALL_MS), headers: { accept: 'application/json' } });
  } catch {
    throw fail(`no answer within ${MAX_MCP_CALL_MS} ms or no connection; is the stub running?`);
  }
  if (Number(response.headers.get('content-length') ?? 0) > MAX_MCP_RESULT_BYTES) {
    await response.body?.cancel();
    throw fail(`the document is over ${MAX_MCP_RESULT_BYTES} bytes`);
  }
  const text = await response.text();
  if (!response.ok) throw fail(`answered ${response.status}`);
  if (text.length > MAX_MCP_RESULT_BYTES) throw fail(`the document is over ${MAX_MCP_RESULT_BYTES} bytes`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fail('the answer is not JSON');
  }
}
