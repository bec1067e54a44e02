// The traffic as HAR 1.2 (docs/har.md): `GET /__stub/requests.har` with the journal's filters, the
// handle's and connectMarketStub's `har()`, validated against the HAR schema (har-schema, with
// ajv), imported by a real consumer (httpsnippet turns an entry into a curl command, which is run
// against the stub and gets the same answer), secrets redacted as the journal redacts them, the
// explanation and the trace context in custom fields; valid JSON for any bytes a request carries
// (fast-check); trace context searchable (`traceId`, `requestId`).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import { HTTPSnippet } from 'httpsnippet';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMarketStub, startMarketStub, type HarDocument, type MarketStub, type MarketStubOptions } from '../../src/index.js';
import { createFetchHandler } from '../../src/fetch.js';
import { harEntry } from '../../src/journal/har.js';

const require = createRequire(import.meta.url);
const harSchemas = require('har-schema') as Record<string, object>;
const ajv = new Ajv({ strict: false, allErrors: true });
ajvFormats.default(ajv);
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
const validHar = ajv.getSchema('har.json#');
const run = promisify(execFile);

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function stub(options: MarketStubOptions = {}): Promise<MarketStub> {
  const s = await startMarketStub({ count: 6, seed: 4, clock: '2026-01-01', ...options });
  open.push(s);
  return s;
}

function expectValidHar(har: unknown): void {
  expect(validHar, 'the har-schema schemas load').toBeDefined();
  const ok = validHar?.(har);
  expect(ok ? [] : validHar?.errors).toEqual([]);
}

describe('GET /__stub/requests.har', () => {
  it('is a valid HAR 1.2 document of the journal: headers, bodies, timings, explanation and trace in custom fields, secrets redacted', async () => {
    const s = await stub({ deviations: [{ name: 'string-price' }] });
    const id = (await s.catalog())[0]?.market_id ?? '';
    await (await fetch(`${s.url}/markets/${id}?api_key=top-secret-key&x=1`, { headers: { prefer: 'explain', authorization: 'Bearer client-secret', traceparent: TRACEPARENT, 'x-request-id': 'req-7' } })).text();
    await (await fetch(`${s.url}/markets/none`)).text();
    await (await fetch(`${s.url}/markets`, { method: 'HEAD' })).text();
    const res = await fetch(`${s.url}/__stub/requests.har`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text).not.toMatch(/client-secret|top-secret-key/);
    const har = JSON.parse(text) as HarDocument;
    expectValidHar(har);
    expect(har.log.creator.name).toBe('market-stub');
    const [item, missing, head] = har.log.entries;
    expect(item?.request.url).toBe(`${s.url}/markets/${id}?api_key=%5Bredacted%5D&x=1`);
    expect(item?.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [redacted]' });
    expect(item?.response.status).toBe(200);
    expect(item?.response.headers).toContainEqual({ name: 'content-type', value: 'application/json; charset=utf-8' });
    expect(item?.response.headers.find((h) => h.name === 'market-stub-explain')?.value).toContain('deviation=("string-price")');
    expect(JSON.parse(item?.response.content.text ?? '{}')).toMatchObject({ market_id: id, yes_price: expect.any(String) });
    expect(item?._marketStubExplain?.deviations).toEqual(['string-price']);
    expect(item?._marketStubTrace).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', sampled: true });
    expect(item?._marketStubRequestId).toBe('req-7');
    expect(item?.timings.wait).toBe(item?.time);
    expect(missing?.response.status).toBe(404);
    expect(missing?.response.content.mimeType).toMatch(/json/);
    expect(head?.response.content).toEqual({ size: 0, mimeType: 'application/json; charset=utf-8' });
  });

  it('takes the same filters as /__stub/requests, traceId and requestId included; the handle and connectMarketStub give the same document', async () => {
    const s = await stub();
    await (await fetch(`${s.url}/markets`, { headers: { traceparent: TRACEPARENT } })).text();
    await (await fetch(`${s.url}/markets`, { headers: { traceparent: '00-11111111111111111111111111111111-2222222222222222-00', 'x-request-id': 'other' } })).text();
    await (await fetch(`${s.url}/healthz`, { headers: { traceparent: 'not-a-traceparent' } })).text();
    const seqs = (har: HarDocument) => har.log.entries.map((e) => e._marketStubSeq);
    expect(seqs(await s.har())).toEqual([1, 2, 3]);
    expect(seqs(await s.har({ traceId: '4BF92F3577B34DA6A3CE929D0E0E4736' }))).toEqual([1]);
    expect(seqs(await s.har({ traceId: TRACEPARENT }))).toEqual([1]);
    expect(seqs(await s.har({ requestId: 'other' }))).toEqual([2]);
    expect(seqs(await s.har({ path: '/healthz' }))).toEqual([3]);
    expect(seqs(await s.har({ limit: 1 }))).toEqual([3]);
    expect((await s.requests({ traceId: TRACEPARENT })).map((e) => e.seq)).toEqual([1]);
    expect((await s.requests({ path: '/healthz' }))[0]).not.toHaveProperty('trace');
    const remote = connectMarketStub(s.url);
    expect(await remote.har({ traceId: TRACEPARENT })).toEqual(await s.har({ traceId: TRACEPARENT }));
    expect((await remote.requests({ requestId: 'other' })).map((e) => e.seq)).toEqual([2]);
    const overHttp = (await (await fetch(`${s.url}/__stub/requests.har?traceId=4bf92f3577b34da6a3ce929d0e0e4736`)).json()) as HarDocument;
    expect(seqs(overHttp)).toEqual([1]);
  });

  it('refuses a bad trace id or filter with the located problem every surface words the same', async () => {
    const s = await stub({ adminToken: 'tok' });
    const bad = await fetch(`${s.url}/__stub/requests.har?traceId=00000000000000000000000000000000`, { headers: { authorization: 'Bearer tok' } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('traceId: expected a W3C trace-id');
    await expect(s.har({ traceId: 'xyz' })).rejects.toThrow(/filter\.traceId: expected a W3C trace-id/);
    await expect(connectMarketStub(s.url, { adminToken: 'tok' }).har({ traceId: 'xyz' })).rejects.toThrow(/filter\.traceId: expected a W3C trace-id/);
    expect((await fetch(`${s.url}/__stub/requests.har`)).status).toBe(401);
  });

  it('is imported by httpsnippet (HAR → curl); the curl command it writes gets the same answer from the stub', async () => {
    const s = await stub({ profile: { paging: 'offset', pageSize: 2 } });
    await (await fetch(`${s.url}/markets?limit=2&offset=2`, { headers: { accept: 'application/json', prefer: 'code=203' } })).text();
    const [entry] = (await s.har()).log.entries;
    const request = { ...entry!.request, headers: entry!.request.headers.filter((h) => ['accept', 'prefer'].includes(h.name)) };
    const command = new HTTPSnippet({ ...request, postData: undefined } as unknown as ConstructorParameters<typeof HTTPSnippet>[0]).convert('shell', 'curl');
    expect(typeof command).toBe('string');
    expect(command).toContain(`${s.url}/markets?limit=2&offset=2`);
    const { stdout } = await run('sh', ['-c', `${(command as string).replace(/\\\n/g, ' ')} --silent --include`]);
    expect(stdout).toMatch(/^HTTP\/1\.1 203/);
    expect(stdout.slice(stdout.indexOf('\r\n\r\n') + 4)).toBe(entry!.response.content.text);
  });

  it('gives each answer the headers it was sent with, through runs of identical answers broken by a 304, a moved clock and an explanation', async () => {
    const s = await stub();
    const id = (await s.catalog())[0]?.market_id ?? '';
    const seen: Record<string, string>[] = [];
    const get = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${s.url}/markets/${id}`, { headers });
      await res.arrayBuffer();
      seen.push(Object.fromEntries(res.headers));
      return res;
    };
    const etag = (await get()).headers.get('etag') ?? '';
    await get();
    expect((await get({ 'if-none-match': etag })).status).toBe(304);
    await get();
    await (await fetch(`${s.url}/__stub/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: 'P1D' }) })).text();
    await get();
    await get({ prefer: 'explain' });
    await get();
    const entries = (await s.har({ path: `/markets/${id}` })).log.entries;
    expect(entries).toHaveLength(seen.length);
    expect(new Set(seen.map((h) => h['etag'])).size, 'the clock moved the price: a second entity tag').toBe(2);
    entries.forEach((entry, i) => {
      const sent = Object.fromEntries(entry.response.headers.map((h) => [h.name, h.value]));
      const received = { ...seen[i] };
      delete received['connection'];
      delete received['keep-alive'];
      expect(sent, `entry ${i + 1}`).toEqual(received);
    });
  });

  it('keeps a body of at most 64 KiB as sent (a byte-order mark included), says why for a larger one, and base64-encodes bytes that are not UTF-8', async () => {
    const s = await stub({ count: 900 });
    await (await fetch(`${s.url}/markets`)).text();
    const id = (await s.catalog())[0]?.market_id ?? '';
    await s.setDeviations([{ name: 'item-bom', marketIds: [id] }]);
    await (await fetch(`${s.url}/markets/${id}`)).arrayBuffer();
    const [list, item] = (await s.har()).log.entries;
    expect(list?.response.content.text === undefined, 'no text for a list over 64 KiB').toBe(true);
    expect(list?.response.content.comment).toMatch(/not journaled/);
    expect(list?.response.content.size).toBeGreaterThan(64 * 1024);
    expectValidHar(await s.har());
    // The byte-order mark is kept as sent (U+FEFF), so the text is the body's bytes.
    expect(item?.response.content.text?.startsWith('\uFEFF{"market_id"')).toBe(true);
    expect(Buffer.byteLength(item?.response.content.text ?? '')).toBe(item?.response.content.size);
    // Bytes that are not UTF-8 (no answer of the stub has them today; a body is kept as sent) are base64.
    const entry = (await s.requests({ limit: 1 }))[0]!;
    const binary = harEntry({ entry, response: { headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([0xff, 0xfe, 0x00, 0x80]), bodySize: 4 } });
    expect(binary.response.content).toEqual({ size: 4, mimeType: 'application/octet-stream', text: '//4AgA==', encoding: 'base64' });
  });

  it('stays valid JSON and valid HAR for any bytes a request can carry (fast-check over paths, queries and header values)', async () => {
    const handler = createFetchHandler({ count: 3, seed: 2, clock: '2026-01-01', errorLog: () => {}, journalHeaders: 'full' });
    const anyText = fc.string({ unit: 'binary', maxLength: 40 });
    const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 60 }).map((v) => v.trim());
    await fc.assert(fc.asyncProperty(anyText, anyText, headerValue, async (path, query, value) => {
      await handler.clearRequests();
      const target = `http://stub.test/markets/${encodeURIComponent(path)}?q=${encodeURIComponent(query)}&raw=${query.replace(/[#%]/g, '')}`;
      let url: string;
      try {
        url = new URL(target).href;
      } catch {
        return;
      }
      const res = await handler.fetch(new Request(url, { headers: { 'x-anything': value, prefer: 'explain' } }));
      await res.arrayBuffer();
      // har() parses the chunks the admin route sends: a document that is not JSON fails here.
      const har = await handler.har();
      expect(har.log.entries).toHaveLength(1);
      expectValidHar(har);
    }), { numRuns: 100 });
  }, 120_000);
});
