// `npm run bench:msw [-- --quick]`: the MSW adapter's costs, each against a baseline measured in
// the same run (absolute figures drift between runs on shared machines; ratios taken in one run hold).
//  1. Cost per request in msw/node: market-stub's handlers for 1,000 generated markets against a
//     bare MSW handler that returns pre-serialised bodies for the same markets; rounds alternate
//     the two, and the verdict is the paired ratio (median over rounds of stub / bare in that round).
//     Goal: ≤ 1.5×.
//  2. Cold start of a generated catalog (build the handlers, answer the first GET /markets) in Node
//     and in a V8 context with only web globals (no Buffer: the TextEncoder path a browser takes).
//  3. The browser bundle of market-stub/msw with msw/browser (esbuild, minified): raw and gzipped.
// Writes bench/results/msw.json. Exit 0 when it measured (a missed goal is a result), 1 when it could not.
import { mkdirSync, writeFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createMarketStubHandlers } from '../src/msw.js';
import { median } from './bench-stats.js';

const QUICK = process.argv.includes('--quick');
const COUNT = 1_000;
const ROUNDS = QUICK ? 3 : 7;
const REQUESTS = QUICK ? 400 : 3_000;
const BASE = 'http://bench.market-stub.test';
const GOAL = 1.5;

type Handlers = Parameters<typeof setupServer>;

/** market-stub's handlers and a bare MSW handler set serving the same bytes, pre-serialised. */
async function handlerPair(): Promise<{ stub: Handlers; bare: Handlers; ids: string[] }> {
  const { handlers, stub } = createMarketStubHandlers({ baseUrl: BASE, seed: 1, count: COUNT, clock: '2026-01-01' });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const list = new Uint8Array(await (await fetch(`${BASE}/markets`)).arrayBuffer());
  const ids = (await stub.catalog()).map((m) => m.market_id);
  const items = new Map(await Promise.all(ids.map(async (id) => [id, new Uint8Array(await (await fetch(`${BASE}/markets/${encodeURIComponent(id)}`)).arrayBuffer())] as const)));
  server.close();
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const bare = [
    http.get(`${BASE}/markets`, () => new HttpResponse(list, { headers: json })),
    http.get(`${BASE}/markets/:id`, ({ params }) => new HttpResponse(items.get(String(params['id'])) ?? null, { status: items.has(String(params['id'])) ? 200 : 404, headers: json })),
  ];
  return { stub: handlers, bare, ids };
}

/** Microseconds per request (fetch and read the body) over REQUESTS requests: 1 list to 9 items. */
async function perRequest(ids: readonly string[]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const url = i % 10 === 0 ? `${BASE}/markets` : `${BASE}/markets/${encodeURIComponent(ids[i % ids.length] ?? '')}`;
    await (await fetch(url)).arrayBuffer();
  }
  return ((performance.now() - started) * 1000) / REQUESTS;
}

/** Rounds alternating bare and stub (the order swapped every round); each side warmed up first. */
async function requestCost(): Promise<{ stubUs: number[]; bareUs: number[]; paired: number }> {
  const { stub, bare, ids } = await handlerPair();
  const server = setupServer();
  server.listen({ onUnhandledRequest: 'error' });
  const stubUs: number[] = [];
  const bareUs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? (['bare', 'stub'] as const) : (['stub', 'bare'] as const)) {
      server.resetHandlers(...(side === 'stub' ? stub : bare));
      await perRequest(ids.slice(0, 20));
      (side === 'stub' ? stubUs : bareUs).push(await perRequest(ids));
    }
  }
  server.close();
  return { stubUs, bareUs, paired: median(stubUs.map((s, i) => s / (bareUs[i] ?? s))) };
}

/** The core bundled for a browser, run in a context with only web globals: ms to build handlers' catalog and answer GET /markets. */
async function coldStarts(): Promise<{ nodeMs: number; webMs: number }> {
  const entry = `import { buildDataCatalog } from './src/catalog/data-catalog.ts';
import { answerRequest } from './src/runtime/answer-request.ts';
import { createStubRuntime } from './src/runtime/stub-runtime.ts';
globalThis.first = () => { const t = performance.now(); const runtime = createStubRuntime({ catalog: buildDataCatalog({ seed: 1, count: ${COUNT}, clock: '2026-01-01' }), seed: 1 }); answerRequest(runtime, { method: 'GET', target: '/markets', headers: {} }); return performance.now() - t; };`;
  const bundle = await build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, platform: 'browser', format: 'iife', write: false, logLevel: 'silent' });
  const code = bundle.outputFiles[0]?.text ?? '';
  const sample = (globals: Record<string, unknown>) => {
    const context = { ...globals };
    runInNewContext(code, context);
    return (context as unknown as { first: () => number }).first();
  };
  const web = { TextEncoder, TextDecoder, URL, URLSearchParams, atob, btoa, performance, console, setTimeout, clearTimeout, queueMicrotask, structuredClone };
  const runs = QUICK ? 3 : 7;
  // Interleaved, the order swapped each time: a later context may find V8's code cache warm.
  const node: number[] = [];
  const webOnly: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) node.push(sample({ ...web, Buffer }));
    webOnly.push(sample(web));
    if (i % 2 === 1) node.push(sample({ ...web, Buffer }));
  }
  return { nodeMs: median(node), webMs: median(webOnly) };
}

/** Size of market-stub/msw with msw/browser in a minified browser bundle, bytes. */
async function bundleSize(): Promise<{ minified: number; gzipped: number }> {
  const entry = `import { setupWorker } from 'msw/browser'; import { createMarketStubHandlers } from './src/msw.ts'; globalThis.start = () => setupWorker(...createMarketStubHandlers({ baseUrl: 'https://api.test' }).handlers).start();`;
  const out = await build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, logLevel: 'silent' });
  const bytes = out.outputFiles[0]?.contents ?? new Uint8Array();
  return { minified: bytes.length, gzipped: gzipSync(bytes).length };
}

async function main(): Promise<void> {
  const cost = await requestCost();
  const cold = await coldStarts();
  const size = await bundleSize();
  const result = { mode: QUICK ? 'quick' : 'full', count: COUNT, rounds: ROUNDS, requestsPerRound: REQUESTS, ...cost, goal: GOAL, pass: cost.paired <= GOAL, coldStart: cold, bundle: size };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/msw.json', `${JSON.stringify(result, null, 2)}\n`);
  const us = (v: number[]) => `${median(v).toFixed(1)} µs`;
  process.stdout.write([
    `msw/node, ${COUNT} markets, ${ROUNDS} rounds × ${REQUESTS} requests (1 list : 9 items):`,
    `  market-stub handlers ${us(cost.stubUs)} / request, bare pre-serialised handler ${us(cost.bareUs)}: paired ratio ${cost.paired.toFixed(2)}× (goal ≤ ${GOAL}×) ${result.pass ? 'pass' : 'MISS'}`,
    `cold start of ${COUNT} generated markets to the first GET /markets: Node ${cold.nodeMs.toFixed(1)} ms, web globals only (no Buffer) ${cold.webMs.toFixed(1)} ms (${(cold.webMs / cold.nodeMs).toFixed(2)}×)`,
    `browser bundle (market-stub/msw + msw/browser, esbuild --minify): ${(size.minified / 1024).toFixed(1)} KiB, ${(size.gzipped / 1024).toFixed(1)} KiB gzipped`,
    '',
  ].join('\n'));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:msw could not measure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
