// OpenTelemetry spans of the in-process stub (docs/har.md, "OpenTelemetry spans"): with a tracer
// provider registered before the stub starts, one SERVER span per answered request, child of the
// caller's `traceparent`, named by route, with the HTTP semantic conventions' attributes and no
// secret; with none registered, nothing is loaded and nothing changes. Through the library and
// through `node --import <setup> market-stub serve`, as a user's tracing setup runs it.
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, propagation, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { tracerProviderRegistered } from '../../src/http/request-spans.js';
import { startServeProcess } from '../support/cli-process.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT}-01`;

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  trace.disable();
  propagation.disable();
  context.disable();
});

function register(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return exporter;
}

async function stub(options: Parameters<typeof startMarketStub>[0] = {}): Promise<MarketStub> {
  const s = await startMarketStub({ count: 3, seed: 2, clock: '2026-01-01', ...options });
  open.push(s);
  return s;
}

describe('OpenTelemetry spans of the in-process stub', () => {
  it('records one SERVER span per request, a child of the caller\'s traceparent, with route, status and stub time', async () => {
    const exporter = register();
    const s = await stub();
    const id = ((await (await fetch(`${s.url}/markets`)).json()) as { market_id: string }[])[0]?.market_id ?? '';
    await (await fetch(`${s.url}/markets/${encodeURIComponent(id)}`, { headers: { traceparent: TRACEPARENT } })).arrayBuffer();
    await (await fetch(`${s.url}/markets`)).arrayBuffer();
    await (await fetch(`${s.url}/markets/NOPE`)).arrayBuffer();
    await (await fetch(`${s.url}/__stub/requests`)).arrayBuffer();
    const spans = exporter.getFinishedSpans().slice(1);
    expect(spans.map((x) => x.name)).toEqual(['GET /markets/{market_id}', 'GET /markets', 'GET /markets/{market_id}']);
    const [item, list, missing] = spans;
    expect(item?.kind).toBe(SpanKind.SERVER);
    expect(item?.spanContext().traceId).toBe(TRACE_ID);
    expect(item?.parentSpanContext?.spanId).toBe(PARENT);
    expect(list?.spanContext().traceId).not.toBe(TRACE_ID);
    expect(item?.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.route': '/markets/{market_id}', 'http.response.status_code': 200, 'url.scheme': 'http', 'market_stub.stub_time': '2026-01-01T00:00:00Z' });
    expect(missing?.attributes['http.response.status_code']).toBe(404);
    expect(missing?.status.code).toBe(SpanStatusCode.UNSET);
    for (const span of spans) expect(span.duration[0] * 1e9 + span.duration[1]).toBeGreaterThanOrEqual(0);
  });

  it('marks a 5xx and a reset as errors, names the behaviour, and never records a secret query value or a header', async () => {
    const exporter = register();
    const s = await stub({ rules: [{ id: 'boom', match: { route: 'list' }, behaviour: { status: 503 }, times: 1 }] });
    await (await fetch(`${s.url}/markets?api_key=SECRET-VALUE-123&limit=2`, { headers: { authorization: 'Bearer SECRET-TOKEN-456' } })).arrayBuffer();
    const [span] = exporter.getFinishedSpans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes['error.type']).toBe('503');
    expect(span?.attributes['url.query']).toBe('api_key=[redacted]&limit=2');
    expect(JSON.stringify(span?.attributes)).not.toMatch(/SECRET/);
    expect((span?.attributes['market_stub.behaviour'] as string[]).join(' ')).toMatch(/boom/);
  });

  it('carries the explanation when the answer was explained', async () => {
    const exporter = register();
    const s = await stub({ explain: true });
    await (await fetch(`${s.url}/markets`)).arrayBuffer();
    expect(String(exporter.getFinishedSpans()[0]?.attributes['market_stub.explain'])).toMatch(/instant=/);
  });

  it('with no tracer provider registered, loads nothing and answers as before', async () => {
    expect(tracerProviderRegistered()).toBe(false);
    const s = await stub();
    const res = await fetch(`${s.url}/markets`, { headers: { traceparent: TRACEPARENT } });
    expect(res.status).toBe(200);
    expect((await s.requests())[0]?.trace?.traceId).toBe(TRACE_ID);
  });

  it('a provider registered by the user\'s --import setup gets the spans of `market-stub serve`', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-spans-'));
    const file = path.join(dir, 'spans.jsonl');
    const setup = fileURLToPath(new URL('../support/otel-setup.mjs', import.meta.url));
    const served = await startServeProcess(['--port', '0', '--count', '2', '--seed', '1', '--clock', '2026-01-01', '--quiet'], { env: { NODE_OPTIONS: `--import ${setup}`, MARKET_STUB_TEST_SPANS: file } });
    try {
      await (await fetch(`${served.url}/markets?token=SECRET-789`, { headers: { traceparent: TRACEPARENT } })).arrayBuffer();
    } finally {
      await served.stop();
    }
    expect(existsSync(file)).toBe(true);
    const spans = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { name: string; traceId: string; parentSpanId: string; attributes: Record<string, unknown> });
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ name: 'GET /markets', traceId: TRACE_ID, parentSpanId: PARENT });
    expect(spans[0]?.attributes['url.query']).toBe('token=[redacted]');
    rmSync(dir, { recursive: true, force: true });
  });
});
