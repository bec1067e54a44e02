// The core runs where the apps are tested: floor, domain and runtime bundle for a browser with no
// Node built-in (esbuild fails the build on one), and the bundle answers requests in a context that
// has only web globals (no Buffer, no process, no require), byte for byte as under Node.
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildDataCatalog } from '../../src/catalog/data-catalog.js';
import { answerRequest } from '../../src/runtime/answer-request.js';
import { createStubRuntime } from '../../src/runtime/stub-runtime.js';
import { createFetchHandler } from '../../src/fetch/fetch-handler.js';

const ENTRY = `
import { buildDataCatalog } from './src/catalog/data-catalog.ts';
import { answerRequest } from './src/runtime/answer-request.ts';
import { createStubRuntime } from './src/runtime/stub-runtime.ts';
import { createStubControls } from './src/runtime/stub-controls.ts';
import { createFetchHandler } from './src/fetch/fetch-handler.ts';
globalThis.core = { buildDataCatalog, answerRequest, createStubRuntime, createStubControls, createFetchHandler };
`;

async function bundleCore(): Promise<string> {
  const result = await build({ stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, platform: 'browser', format: 'iife', write: false, logLevel: 'silent' });
  return result.outputFiles[0]?.text ?? '';
}

/** The globals a browser page has that the core may use; nothing Node-only. */
function webGlobals(): Record<string, unknown> {
  return { TextEncoder, TextDecoder, URL, URLSearchParams, atob, btoa, performance, console, setTimeout, clearTimeout, queueMicrotask, structuredClone, Request, Response, Headers, ReadableStream, AbortController, AbortSignal };
}

type Core = { buildDataCatalog: typeof buildDataCatalog; answerRequest: typeof answerRequest; createStubRuntime: typeof createStubRuntime };

describe('the platform-neutral core', () => {
  it('bundles for platform browser with no Node built-in', async () => {
    const text = await bundleCore();
    expect(text.length).toBeGreaterThan(1000);
    expect(text).not.toMatch(/require\(["']node:/);
  });

  it('answers list, item, paging and a deviation in a context without Buffer or process, with the bytes Node serves', async () => {
    const sandbox = webGlobals();
    runInNewContext(await bundleCore(), sandbox);
    const inBrowser = (sandbox as { core: Core }).core;
    expect('Buffer' in sandbox || 'process' in sandbox).toBe(false);
    const answer = (core: Core, target: string, headers: Record<string, string> = {}) => {
      const runtime = core.createStubRuntime({ catalog: core.buildDataCatalog({ seed: 9, count: 40, clock: '2026-01-01' }), seed: 9, profile: { envelope: 'markets', paging: 'cursor', pageSize: 7 }, deviations: [{ name: 'string-price', rate: 0.3 }], errorLog: () => {} });
      const first = core.answerRequest(runtime, { method: 'GET', target: '/markets', headers: {} });
      const id = (JSON.parse(new TextDecoder().decode(first?.reply.body)) as { markets: { market_id: string }[] }).markets[2]?.market_id ?? '';
      const a = core.answerRequest(runtime, { method: 'GET', target: target.replace('{id}', encodeURIComponent(id)), headers });
      return { status: a?.reply.status, type: a?.reply.headers['content-type'], body: [...(a?.reply.body ?? [])] };
    };
    const node: Core = { buildDataCatalog, answerRequest, createStubRuntime };
    for (const [target, headers] of [['/markets', {}], ['/markets?limit=3', {}], ['/markets/{id}', {}], ['/markets/{id}', { prefer: 'deviation=item-bom' }], ['/markets/nope', {}], ['/markets?limit=x', {}]] as const) {
      const there = answer(inBrowser, target, headers);
      expect(there.body.length).toBeGreaterThan(0);
      expect(there).toEqual(answer(node, target, headers));
    }
  });

  it('answers every route through the Fetch handler with web globals only: list, item, health, /openapi.json, 404, 405, preflight and the admin API', async () => {
    const sandbox = webGlobals();
    runInNewContext(await bundleCore(), sandbox);
    const inBrowser = (sandbox as { core: { createFetchHandler: typeof createFetchHandler } }).core.createFetchHandler;
    expect(['Buffer', 'process', 'setImmediate', 'require', 'global'].filter((name) => name in sandbox)).toEqual([]);
    const market = { market_id: 'W-1', title: 'Will W?', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' };
    const json = { 'content-type': 'application/json' };
    const steps: [string, RequestInit?][] = [
      ['/markets'], ['/markets?limit=2'], ['/markets/{id}'], ['/healthz'], ['/openapi.json'], ['/no-such-route'],
      ['/markets', { method: 'DELETE' }], ['/markets', { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } }],
      ['/__stub'], ['/__stub/markets/W-1', { method: 'PUT', headers: json, body: JSON.stringify(market) }],
      ['/__stub/markets/W-1', { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"title":"Will W, now?"}' }],
      ['/markets/W-1'], ['/__stub/requests'],
    ];
    const drive = async (create: typeof createFetchHandler) => {
      const handler = create({ seed: 4, count: 6, clock: '2026-01-01', profile: { paging: 'offset', pageSize: 3 } });
      const id = ((await (await handler.fetch(new Request('http://127.0.0.1:4010/markets'))).json()) as { market_id: string }[])[0]?.market_id ?? '';
      const seen = [];
      for (const [path, init] of steps) {
        const res = await handler.fetch(new Request(`http://127.0.0.1:4010${path.replace('{id}', encodeURIComponent(id))}`, init));
        const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
        const body = new TextDecoder().decode(await res.arrayBuffer()).replace(/"(timeMs|durationMs)":[\d.]+/g, '"$1":0').replace(/"time":"[^"]+"/g, '"time":""');
        seen.push({ path, status: res.status, headers, date: /^\w{3}, 01 Jan 2026 /.test(res.headers.get('date') ?? ''), body });
      }
      return seen;
    };
    const there = await drive(inBrowser);
    expect(there.map((s) => s.status)).toEqual([200, 200, 200, 200, 200, 404, 405, 204, 200, 201, 200, 200, 200]);
    expect(there.every((s) => s.date)).toBe(true);
    expect(there).toEqual(await drive(createFetchHandler));
  });
});
