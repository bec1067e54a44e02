// Loaded with `node --import` before `market-stub serve` (test/http/request-spans.test.ts), as a user's
// own tracing setup would be: registers a tracer provider and the W3C propagator, and writes each
// ended span as one JSON line to the file named by MARKET_STUB_TEST_SPANS.
import { appendFileSync } from 'node:fs';
import { propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const file = process.env.MARKET_STUB_TEST_SPANS;
const exporter = {
  export(spans, done) {
    for (const s of spans) appendFileSync(file, `${JSON.stringify({ name: s.name, kind: s.kind, traceId: s.spanContext().traceId, parentSpanId: s.parentSpanContext?.spanId, attributes: s.attributes, status: s.status.code })}\n`);
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
};
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
