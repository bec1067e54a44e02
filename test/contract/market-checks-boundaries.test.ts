import { describe, expect, it } from 'vitest';
import { createFindingAggregator } from '../../src/contract/checks/finding-aggregator.js';
import { createJsonReader, StreamedArray } from '../../src/contract/http-client/json-body-reader.js';
import { ListedMarkets } from '../../src/contract/checks/listed-markets.js';
import { addAnomaly, checkEncoding, checkSingleBody, checkStatus, createListPageChecker, type CheckContext, type ResponseFacts } from '../../src/contract/checks/market-checks.js';
import { charsetOf, describeBody, describeValue, isJsonMediaType, parseJsonBody } from '../../src/contract/checks/body-description.js';
import { listedId } from '../../src/contract/checks/market-identity.js';

// The contract checks one answer at a time, as `check`, `record` and the proxy call them: which
// finding each problem gives (severity, code, pointer, expected, found), where each rule's boundary
// lies, and what a clean answer gives (nothing).

const TODAY = '2026-06-01';
const market = (over: Record<string, unknown> = {}) => ({
  market_id: 'm-1', title: 'Will it rain?', status: 'active', yes_price: 0.6, no_price: 0.4, resolution_date: '2026-12-31', ...over,
});
/** A list item: a market without the fields only the single endpoint carries. */
const summary = (over: Record<string, unknown> = {}) => {
  const { resolution_date: _, ...rest } = market(over);
  return rest;
};
const facts = (over: Partial<ResponseFacts> = {}): ResponseFacts => ({ request: '/markets/m-1', status: 200, contentType: 'application/json', ...over });
const context = (): CheckContext => ({ sink: createFindingAggregator(), today: TODAY });

function single(body: string, over: { contentType?: string | undefined; id?: string; listedAs?: Record<string, unknown> } = {}) {
  const ctx = context();
  let listed;
  if (over.listedAs) {
    const markets = new ListedMarkets();
    markets.set(String(over.listedAs['market_id']), over.listedAs);
    listed = markets.get(String(over.listedAs['market_id']));
  }
  const contentType = 'contentType' in over ? over.contentType : 'application/json';
  const result = checkSingleBody(facts({ contentType }), body, over.id ?? 'm-1', listed, ctx);
  return { result, findings: ctx.sink.findings() };
}

function list(body: string, over: { contentType?: string; traversal?: 'crawl' | 'proxy'; listed?: ListedMarkets; laterPage?: boolean; head?: boolean } = {}) {
  const ctx = context();
  const listed = over.listed ?? new ListedMarkets();
  const checker = createListPageChecker(facts({ request: '/markets', contentType: over.contentType ?? 'application/json' }), ctx, listed, over.traversal ?? 'crawl');
  const reader = createJsonReader('list', checker);
  reader.write(body);
  const page = checker.finish(reader.end(), over.laterPage ?? false, over.head ? { text: body.slice(0, 100), bytes: Buffer.byteLength(body) } : undefined);
  return { page, findings: ctx.sink.findings(), listed };
}

const codes = (findings: { severity: string; code: string }[]) => findings.map((f) => `${f.severity} ${f.code}`);

describe('descriptions of what was found', () => {
  it('counts array items in the singular and plural, streamed or not', () => {
    expect(describeValue([1])).toBe('a JSON array of 1 item');
    expect(describeValue([1, 2, 3])).toBe('a JSON array of 3 items');
    expect(describeValue([])).toBe('a JSON array of 0 items');
    const streamed = new StreamedArray(1);
    expect(describeValue(streamed)).toBe('a JSON array of 1 item');
    expect(describeValue(new StreamedArray(2))).toBe('a JSON array of 2 items');
  });

  it('names up to 8 keys of an object, and marks more with an ellipsis', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(describeValue({})).toBe('an empty JSON object');
    expect(describeValue(keys(8))).toBe('a JSON object with keys k0, k1, k2, k3, k4, k5, k6, k7');
    expect(describeValue(keys(9))).toBe('a JSON object with keys k0, k1, k2, k3, k4, k5, k6, k7, …');
    expect(describeValue(null)).toBe('JSON null null');
    expect(describeValue('x')).toBe('JSON string "x"');
    expect(describeValue(5)).toBe('JSON number 5');
  });

  it('describes a body that is not JSON by media type, size and start; an empty one as empty', () => {
    expect(describeBody('', 'text/html')).toBe('an empty body');
    expect(describeBody('   ', 'text/html')).toBe('text/html, 3 bytes: "   "');
    expect(describeBody('<!doctype html>', undefined)).toBe('no Content-Type, 15 bytes: "<!doctype html>"');
    expect(describeBody('oops', 'text/plain', 4000)).toBe('text/plain, 4000 bytes: "oops"');
    // Only the start of a long body: its first 40 characters.
    expect(describeBody(`<p>${'x'.repeat(100)}`, 'text/html')).toBe(`text/html, 103 bytes: "<p>${'x'.repeat(37)}"`);
    expect(describeBody('{"a":1}', 'text/plain')).toBe('a JSON object with keys a');
  });

  it('parses JSON bodies; blank and broken ones are not JSON', () => {
    expect(parseJsonBody(' \n')).toEqual({ ok: false });
    expect(parseJsonBody('{')).toEqual({ ok: false });
    expect(parseJsonBody('null')).toEqual({ ok: true, value: null });
  });
});

describe('media types and charsets (RFC 8259 §11, RFC 6839 §3.1, RFC 9110 §8.3.2)', () => {
  it('takes application/json and +json types in any case, with parameters; nothing else', () => {
    for (const yes of ['application/json', ' Application/JSON ; charset=utf-8', 'application/problem+json', 'application/vnd.api+json']) expect(isJsonMediaType(yes), yes).toBe(true);
    for (const no of [undefined, '', 'text/json', 'application/jsonx', 'text/html', 'application/+json', 'x application/json', 'x application/vnd.api+json', 'application/vnd.api+jsonx', 'application/json+xml']) expect(isJsonMediaType(no), String(no)).toBe(false);
  });

  it('reads the charset parameter, quoted or not, whatever its case and spacing', () => {
    expect(charsetOf('application/json; charset=utf-8')).toBe('utf-8');
    expect(charsetOf('application/json;CHARSET = "ISO-8859-1"')).toBe('ISO-8859-1');
    expect(charsetOf('application/json; charset=latin1; q=1')).toBe('latin1');
    expect(charsetOf('application/json')).toBeUndefined();
    expect(charsetOf(undefined)).toBeUndefined();
  });
});

describe('checkStatus: a 2xx answer or an error finding', () => {
  const run = (status: number, endpoint: 'GET /markets' | 'GET /markets/{market_id}', retries?: string) => {
    const ctx = context();
    const ok = checkStatus(facts({ status }), { text: '', bytes: 0 }, ctx, endpoint, 'the market', 'm-1', retries);
    return { ok, findings: ctx.sink.findings() };
  };

  it('passes 200 to 299 without a finding; 199 and 300 are errors', () => {
    expect(run(200, 'GET /markets')).toEqual({ ok: true, findings: [] });
    expect(run(299, 'GET /markets')).toEqual({ ok: true, findings: [] });
    expect(run(199, 'GET /markets').ok).toBe(false);
    expect(codes(run(300, 'GET /markets').findings)).toEqual(['error http-status']);
  });

  it('a 404 is not-found on the single endpoint, http-status on the list; the message names status and body', () => {
    const [item] = run(404, 'GET /markets/{market_id}').findings;
    expect(item).toMatchObject({ code: 'not-found', severity: 'error', message: '/: expected a 2xx answer with the market, found 404: an empty body' });
    expect(item?.examples[0]).toEqual({ marketId: 'm-1', pointer: '', found: '404: an empty body', request: '/markets/m-1' });
    expect(codes(run(404, 'GET /markets').findings)).toEqual(['error http-status']);
    expect(codes(run(500, 'GET /markets/{market_id}').findings)).toEqual(['error http-status']);
  });

  it('retries used up give retry-exhausted, with the retries and the last answer', () => {
    const [finding] = run(503, 'GET /markets', '3 retries over 2 s').findings;
    expect(finding).toMatchObject({ code: 'retry-exhausted', expected: 'an answer with the market within the retry budget', found: '3 retries over 2 s; last answer 503: an empty body' });
  });
});

describe('checkEncoding: byte-order mark and charset (RFC 8259 §8.1)', () => {
  const run = (bom: boolean, contentType: string | undefined) => {
    const ctx = context();
    checkEncoding(facts({ contentType }), bom, ctx, 'GET /markets');
    return ctx.sink.findings();
  };

  it('warns about a BOM and a charset other than UTF-8, and nothing else', () => {
    expect(run(false, 'application/json; charset=utf-8')).toEqual([]);
    expect(run(false, 'application/json; charset=UTF8')).toEqual([]);
    expect(run(false, undefined)).toEqual([]);
    for (const other of ['application/json; charset=notutf-8', 'application/json; charset=utf-8x']) expect(codes(run(false, other)), other).toEqual(['warning charset']);
    const [bom] = run(true, 'application/json');
    expect(bom).toMatchObject({ severity: 'warning', code: 'bom', found: 'the bytes EF BB BF (a UTF-8 byte-order mark) before the JSON text; ignored' });
    const [charset] = run(false, 'application/json; charset=latin1');
    expect(charset).toMatchObject({ severity: 'warning', code: 'charset', expected: 'UTF-8 JSON (RFC 8259 §8.1): no charset, or charset=utf-8' });
    expect(charset?.found).toBe('Content-Type "application/json; charset=latin1"; the body was read as UTF-8');
  });
});

describe('addAnomaly: what JSON.parse hides, grouped by pointer template', () => {
  it('replaces array indices in the pointer by * and keeps the literal in the example', () => {
    const ctx = context();
    addAnomaly({ kind: 'duplicate-member', pointer: '/markets/12/yes_price', literal: '"yes_price"', detail: 'the last value, 0.4, is used' }, facts(), ctx, 'GET /markets', 'm-1');
    addAnomaly({ kind: 'unsafe-number', pointer: '/3/v12', literal: '1e400', detail: 'does not fit a double' }, facts(), ctx, 'GET /markets');
    const [dup, unsafe] = ctx.sink.findings();
    expect(dup).toMatchObject({ code: 'duplicate-member', pointer: '/markets/*/yes_price', found: '"yes_price" the last value, 0.4, is used' });
    expect(dup?.examples[0]).toMatchObject({ marketId: 'm-1', pointer: '/markets/12/yes_price' });
    expect(unsafe).toMatchObject({ code: 'unsafe-number', pointer: '/*/v12', found: '1e400: does not fit a double', expected: 'a number that fits a double exactly (RFC 8259 §6)' });
  });
});

describe('checkSingleBody', () => {
  it('returns a conforming market with no finding', () => {
    const { result, findings } = single(JSON.stringify(market()));
    expect(findings).toEqual([]);
    expect(result).toEqual(market());
  });

  it('a body that is not JSON is one error naming what came and why', () => {
    const { result, findings } = single('<html>', { contentType: 'text/html' });
    expect(result).toBeUndefined();
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ code: 'not-json', expected: 'a JSON body holding the listed market' });
    expect(findings[0]?.found).toMatch(/^text\/html, 6 bytes: "<html>" \(not JSON/);
  });

  it('warns about a JSON body sent under another media type, or none', () => {
    const typed = single(JSON.stringify(market()), { contentType: 'text/plain' });
    expect(typed.result).toEqual(market());
    expect(typed.findings.map((f) => [f.code, f.found])).toEqual([['content-type', 'text/plain']]);
    expect(single(JSON.stringify(market()), { contentType: undefined }).findings.map((f) => f.found)).toEqual(['no Content-Type']);
  });

  it('a market wrapped in "market" or "data" is single-envelope, not a pile of schema errors', () => {
    for (const key of ['market', 'data']) {
      const { result, findings } = single(JSON.stringify({ [key]: market() }));
      expect(result).toBeUndefined();
      expect(findings.map((f) => [f.code, f.found])).toEqual([['single-envelope', `the market wrapped in "${key}"`]]);
    }
    // A market that merely has such a field, or a wrapper around something else, is judged as it is.
    expect(codes(single(JSON.stringify({ ...market(), market: market() })).findings)).toEqual(['info undocumented-field']);
    expect(codes(single(JSON.stringify({ market: [market()] })).findings)).not.toContain('error single-envelope');
    expect(codes(single(JSON.stringify({ market: null })).findings)).not.toContain('error single-envelope');
    expect(codes(single(JSON.stringify({ market: { title: 'x' } })).findings)).not.toContain('error single-envelope');
  });

  it('schema errors make the market unusable; a non-object body ends after them', () => {
    const { result, findings } = single(JSON.stringify(market({ yes_price: '0.6' })));
    expect(result).toBeUndefined();
    // One error for the price, not also an assumption warning about the same field.
    expect(findings.filter((f) => f.pointer === '/yes_price').map((f) => f.severity)).toEqual(['error']);
    // Every schema error of the market, not only the first.
    const twice = single(JSON.stringify(market({ yes_price: '0.6', status: 7 }))).findings.filter((f) => f.severity === 'error');
    expect(twice.map((f) => f.pointer)).toEqual(['/status', '/yes_price']);
    for (const body of ['[1]', '"m-1"', 'null']) {
      const other = single(body);
      expect(other.result).toBeUndefined();
      expect(other.findings.every((f) => f.severity === 'error')).toBe(true);
    }
  });

  it('an active market resolving before today is a warning; today itself and a closed market are not', () => {
    const [warning] = single(JSON.stringify(market({ resolution_date: '2026-05-31' }))).findings;
    expect(warning).toMatchObject({ severity: 'warning', code: 'past-resolution-date', pointer: '/resolution_date', expected: `a date on or after ${TODAY} for an active market`, found: '"2026-05-31"' });
    expect(single(JSON.stringify(market({ resolution_date: TODAY }))).findings).toEqual([]);
    expect(codes(single(JSON.stringify(market({ status: 'closed', resolution_date: '2026-05-31' }))).findings)).not.toContain('warning past-resolution-date');
  });

  it('a market with another id than asked for is an error and is not returned', () => {
    const { result, findings } = single(JSON.stringify(market({ market_id: 'm-2' })));
    expect(result).toBeUndefined();
    expect(findings.map((f) => [f.code, f.pointer, f.expected, f.found])).toEqual([['id-mismatch', '/market_id', 'the market_id asked for ("m-1")', '"m-2"']]);
  });

  it('compares with the list: title and status must agree (errors), prices may move (warnings)', () => {
    expect(single(JSON.stringify(market()), { listedAs: market() }).findings).toEqual([]);
    const moved = single(JSON.stringify(market({ title: 'Will it snow?', status: 'closed', yes_price: 0.7, no_price: 0.3 })), { listedAs: market() }).findings;
    expect(moved.filter((f) => f.code === 'list-single-mismatch' || f.code === 'price-moved').map((f) => [f.severity, f.code, f.pointer, f.expected, f.found])).toEqual([
      ['error', 'list-single-mismatch', '/status', 'the status the list shows ("active")', '"closed"'],
      ['error', 'list-single-mismatch', '/title', 'the title the list shows ("Will it rain?")', '"Will it snow?"'],
      ['warning', 'price-moved', '/no_price', 'the no_price the list shows (0.4)', '0.3'],
      ['warning', 'price-moved', '/yes_price', 'the yes_price the list shows (0.6)', '0.7'],
    ]);
  });

  it('compares only what the list showed: a title or price the list did not send as such is not compared', () => {
    const listedAs = market({ title: 5, yes_price: 'x', no_price: null });
    const codesSeen = codes(single(JSON.stringify(market({ title: 'Other', yes_price: 0.7, no_price: 0.3 })), { listedAs }).findings);
    expect(codesSeen).not.toContain('error list-single-mismatch');
    expect(codesSeen).not.toContain('warning price-moved');
    // A price JSON.parse cannot keep (1e400 is Infinity) is not compared either.
    const overflow = single(JSON.stringify(market()).replace('0.6', '1e400'), { listedAs: market() }).findings;
    expect(codes(overflow)).not.toContain('warning price-moved');
  });

  it('lists undocumented members once per place, as information, with each name and its count', () => {
    const [info] = single(JSON.stringify(market({ volume: 5 }))).findings;
    expect(info).toMatchObject({ severity: 'info', code: 'undocumented-field', pointer: '', count: 1, message: '1 undocumented member name at /: "volume" ×1', names: [{ name: 'volume', count: 1 }] });
    expect(info?.examples).toEqual([{ marketId: 'm-1', pointer: '/volume', found: 'undocumented member "volume"', request: '/markets/m-1' }]);
  });

  it('shows a number JSON.parse cannot keep as it was written', () => {
    const { findings } = single(JSON.stringify(market()).replace('0.6', '1e400'));
    // JSON.parse makes Infinity, which is no JSON number: a type error that shows the literal sent.
    expect(codes(findings)).toEqual(['error type', 'warning unsafe-number']);
    const error = findings.find((f) => f.pointer === '/yes_price' && f.severity === 'error');
    expect(error?.found).toMatch(/^1e400 \(JSON\.parse gives Infinity, written as /);
    expect(findings.find((f) => f.code === 'unsafe-number')?.examples[0]?.marketId).toBe('m-1');
  });
});

describe('createListPageChecker', () => {
  const page = (...items: Record<string, unknown>[]) => JSON.stringify(items);

  it('a conforming bare array gives no finding and lists every market', () => {
    const { page: result, findings, listed } = list(page(summary(), summary({ market_id: 'm-2' })));
    expect(findings).toEqual([]);
    expect(result).toMatchObject({ shape: { kind: 'array', count: 2 }, repeats: false });
    expect(listed.ids()).toEqual(['m-1', 'm-2']);
  });

  it('an id listed twice on one page is a duplicate-id warning; the first listing is kept', () => {
    const { findings, listed } = list(page(summary(), summary({ title: 'Other' })));
    expect(findings.map((f) => [f.code, f.pointer, f.found])).toEqual([['duplicate-id', '/*/market_id', '"m-1" listed again']]);
    expect(findings[0]?.examples[0]?.pointer).toBe('/1/market_id');
    expect(listed.get('m-1')?.title?.shown).toBe('Will it rain?');
  });

  it('crawl: a later page listing only earlier markets is a loop (repeats), not a warning per market', () => {
    const listed = list(page(summary(), summary({ market_id: 'm-2' }))).listed;
    const again = list(page(summary(), summary({ market_id: 'm-2' })), { listed, laterPage: true });
    expect(again.page?.repeats).toBe(true);
    expect(again.findings).toEqual([]);
    // Only partly repeated: each repeat is a warning.
    const partly = list(page(summary(), summary({ market_id: 'm-3' })), { listed, laterPage: true });
    expect(partly.page?.repeats).toBe(false);
    expect(codes(partly.findings)).toEqual(['warning duplicate-id']);
    // The first page is never a loop, and neither is an empty later page.
    expect(list(page(summary(), summary()), { laterPage: false }).page?.repeats).toBe(false);
    expect(list('[]', { listed, laterPage: true }).page?.repeats).toBe(false);
  });

  it('proxy: the list seen again is no duplicate, and the later listing replaces the earlier', () => {
    const listed = list(page(summary()), { traversal: 'proxy' }).listed;
    const again = list(page(summary({ title: 'Renamed' })), { traversal: 'proxy', listed, laterPage: true });
    expect(again.findings).toEqual([]);
    expect(again.page?.repeats).toBe(false);
    expect(listed.get('m-1')?.title?.shown).toBe('Renamed');
  });

  it('an envelope: only the market array found at the end counts (markets before data)', () => {
    const { page: result, findings, listed } = list(JSON.stringify({ data: [{ market_id: 7 }], markets: [summary({ extra: 1 })] }));
    expect(result?.shape).toMatchObject({ kind: 'envelope', key: 'markets' });
    expect(listed.ids()).toEqual(['m-1']);
    expect(findings.map((f) => [f.code, f.pointer])).toEqual([['undocumented-field', '/markets/*']]);
    expect(findings[0]?.examples[0]?.pointer).toBe('/markets/0/extra');
  });

  it('a body that is not JSON: the error shows the start of the body, or the media type without it', () => {
    const withHead = list('<html>oops</html>', { contentType: 'text/html', head: true });
    expect(withHead.page).toBeUndefined();
    expect(withHead.findings[0]).toMatchObject({ code: 'not-json', expected: 'a JSON body holding the market list' });
    expect(withHead.findings[0]?.found).toMatch(/^text\/html, 17 bytes: "<html>oops<\/html>" \(not JSON/);
    expect(list('<html>', { contentType: 'text/html' }).findings[0]?.found).toMatch(/^text\/html \(not JSON/);
  });

  it('a JSON value that holds no market array is list-shape; a wrong media type a warning', () => {
    const { page: result, findings } = list('{"count":3}');
    expect(result).toBeUndefined();
    expect(findings.map((f) => [f.code, f.found])).toEqual([['list-shape', 'a JSON object with keys count']]);
    expect(list(page(summary()), { contentType: 'text/plain' }).findings.map((f) => [f.code, f.found])).toEqual([['content-type', 'text/plain']]);
  });

  it('counts an undocumented field on every item, with the first three as examples', () => {
    const items = Array.from({ length: 5 }, (_, i) => summary({ market_id: `m-${i}`, volume: i }));
    const [info] = list(page(...items)).findings;
    expect(info).toMatchObject({ code: 'undocumented-field', pointer: '/*', count: 5, names: [{ name: 'volume', count: 5 }] });
    expect(info?.examples.map((e) => [e.marketId, e.pointer])).toEqual([['m-0', '/0/volume'], ['m-1', '/1/volume'], ['m-2', '/2/volume']]);
  });

  it('names the market of an anomaly inside an item, and none for one outside the items', () => {
    const body = `{"markets":[{"market_id":"m-9","title":"t","title":"Will it rain?","status":"active","yes_price":0.6,"no_price":0.4}],"total":1,"total":2}`;
    const findings = list(body).findings.filter((f) => f.code === 'duplicate-member');
    expect(findings.map((f) => [f.pointer, f.examples[0]?.pointer, f.examples[0]?.marketId])).toEqual([['/markets/*/title', '/markets/0/title', 'm-9'], ['/total', '/total', undefined]]);
  });

  it('holds at most 1000 anomalies of one item for its market id; past that they are reported at once, without it', () => {
    const members = Array.from({ length: 1002 }, () => '"x":0').join(',');
    const [finding] = list(`[{"market_id":"m-1",${members}}]`).findings.filter((f) => f.code === 'duplicate-member');
    expect(finding?.count).toBe(1001);
    expect(finding?.examples[0]?.marketId).toBeUndefined();
    expect(finding?.examples.slice(1).every((e) => e.marketId === 'm-1')).toBe(true);
  });

  it('warns about float noise in a price and about yes + no away from 1 by more than 0.005', () => {
    const noisy = list(page(summary({ yes_price: 0.1 + 0.2, no_price: 0.7 }))).findings;
    expect(noisy.map((f) => [f.code, f.pointer, f.found])).toEqual([['float-noise', '/*/yes_price', '0.30000000000000004']]);
    const apart = list(page(summary({ yes_price: 0.5, no_price: 0.6 }))).findings;
    expect(apart.map((f) => [f.code, f.pointer, f.expected, f.found])).toEqual([['price-sum', '/*', 'yes_price + no_price within 0.005 of 1', '0.5 + 0.6 = 1.1']]);
    expect(apart[0]?.examples[0]).toMatchObject({ marketId: 'm-1', pointer: '/0' });
    // At the tolerance itself there is nothing to say.
    expect(list(page(summary({ yes_price: 0.5, no_price: 0.505 }))).findings).toEqual([]);
    expect(codes(list(page(summary({ yes_price: 0.5, no_price: 0.506 }))).findings)).toEqual(['warning price-sum']);
  });

  it('an item without a usable id is checked but not listed', () => {
    const { findings, listed } = list(page(summary({ market_id: '' }), summary({ market_id: 12 })));
    expect(listed.ids()).toEqual(['12']);
    expect(findings.every((f) => f.severity === 'error')).toBe(true);
    expect(findings.some((f) => f.examples.some((e) => e.marketId === '12'))).toBe(true);
  });
});

describe('severity, pointer and expectation of each finding', () => {
  const shape = (f: { severity: string; code: string; pointer: string; expected: string } | undefined) => f && [f.severity, f.code, f.pointer, f.expected];

  it('on the single endpoint', () => {
    expect(shape(single('<html>', { contentType: 'text/html' }).findings[0])).toEqual(['error', 'not-json', '', 'a JSON body holding the listed market']);
    expect(shape(single(JSON.stringify(market()), { contentType: 'text/plain' }).findings[0])).toEqual(['warning', 'content-type', '', 'Content-Type application/json (or a +json type) for a JSON body']);
    expect(shape(single(JSON.stringify({ market: market() })).findings[0])).toEqual(['error', 'single-envelope', '', 'a Market object at the top level (market_id, title, … as body fields)']);
    expect(single(JSON.stringify({ market: market() })).findings[0]?.examples[0]?.pointer).toBe('');
    const [mismatch] = single(JSON.stringify(market({ market_id: 'm-2' }))).findings;
    expect([mismatch?.severity, mismatch?.examples[0]?.pointer]).toEqual(['error', '/market_id']);
    expect(single(JSON.stringify(market({ resolution_date: '2026-05-31' }))).findings[0]?.examples[0]?.pointer).toBe('/resolution_date');
    const moved = single(JSON.stringify(market({ title: 'Other', yes_price: 0.7, no_price: 0.3 })), { listedAs: market() }).findings;
    expect(moved.map((f) => f.examples[0]?.pointer)).toEqual(['/title', '/no_price', '/yes_price']);
    const retried = checkStatus(facts({ status: 429 }), { text: '', bytes: 0 }, context(), 'GET /markets', 'the market list', undefined, 'retries used');
    expect(retried).toBe(false);
  });

  it('on the list endpoint', () => {
    expect(shape(list('<html>', { contentType: 'text/html' }).findings[0])).toEqual(['error', 'not-json', '', 'a JSON body holding the market list']);
    expect(shape(list('[]', { contentType: 'text/plain' }).findings[0])).toEqual(['warning', 'content-type', '', 'Content-Type application/json (or a +json type) for a JSON body']);
    expect(list('[]', { contentType: 'text/plain' }).findings[0]?.found).toBe('text/plain');
    expect(shape(list('{"count":3}').findings[0])).toEqual(['error', 'list-shape', '', 'a JSON array of markets, or an object holding one under markets, data, results or items, or a GraphQL, HAL, JSON:API, Siren or OData envelope of one']);
    expect(shape(list(JSON.stringify([summary(), summary()])).findings[0])).toEqual(['warning', 'duplicate-id', '/*/market_id', 'each market_id listed once']);
    const [noise] = list(JSON.stringify([summary({ yes_price: 0.1 + 0.2, no_price: 0.7 })])).findings;
    expect(shape(noise)).toEqual(['warning', 'float-noise', '/*/yes_price', 'a price without binary float noise (at most 6 decimals in its JSON text)']);
    expect(noise?.examples[0]).toEqual({ marketId: 'm-1', pointer: '/0/yes_price', found: '0.30000000000000004', request: '/markets' });
    const [extra] = list(JSON.stringify([summary({ volume: 1 })])).findings;
    expect(extra?.expected).toBe('only documented fields (extra fields are allowed; listed for information)');
  });

  it('of anomalies and encodings', () => {
    const ctx = context();
    addAnomaly({ kind: 'duplicate-member', pointer: '/0/a', literal: '"a"', detail: 'x' }, facts(), ctx, 'GET /markets');
    addAnomaly({ kind: 'unsafe-number', pointer: '/tags/2', literal: '1e400', detail: 'y' }, facts(), ctx, 'GET /markets');
    expect(ctx.sink.findings().map(shape)).toEqual([
      ['warning', 'duplicate-member', '/*/a', 'each member name once per object (RFC 8259 §4)'],
      ['warning', 'unsafe-number', '/tags/*', 'a number that fits a double exactly (RFC 8259 §6)'],
    ]);
    const enc = context();
    checkEncoding(facts({ contentType: 'application/json; charset=latin1' }), true, enc, 'GET /markets');
    expect(enc.sink.findings().map(shape)).toEqual([
      ['warning', 'bom', '', 'a JSON body without a byte-order mark (RFC 8259 §8.1)'],
      ['warning', 'charset', '', 'UTF-8 JSON (RFC 8259 §8.1): no charset, or charset=utf-8'],
    ]);
    const retry = context();
    checkStatus(facts({ status: 503 }), { text: '', bytes: 0 }, retry, 'GET /markets', 'the market list', undefined, 'r');
    expect(shape(retry.sink.findings()[0])).toEqual(['error', 'retry-exhausted', '', 'an answer with the market list within the retry budget']);
  });
});

describe('list items in detail', () => {
  it('reports every schema error of an item, once each however the page is shaped', () => {
    const bad = summary({ yes_price: '0.6', status: 7 });
    const bare = list(JSON.stringify([bad, { ...bad, market_id: 'm-2' }])).findings.filter((f) => f.severity === 'error');
    expect(bare.map((f) => [f.pointer, f.count])).toEqual([['/*/status', 2], ['/*/yes_price', 2]]);
    expect(bare.find((f) => f.pointer === '/*/yes_price')?.found).toBe('"0.6"');
    const envelope = list(JSON.stringify({ markets: [bad] })).findings.filter((f) => f.severity === 'error');
    expect(envelope.map((f) => [f.pointer, f.count])).toEqual([['/markets/*/status', 1], ['/markets/*/yes_price', 1]]);
    // The price sent as a string is one error, not also an assumption warning.
    expect(list(JSON.stringify([bad])).findings.filter((f) => f.pointer === '/*/yes_price').map((f) => f.severity)).toEqual(['error']);
  });

  it('warns about assumptions a list item breaks', () => {
    const [status] = list(JSON.stringify([summary({ status: 'suspended' })])).findings;
    expect([status?.severity, status?.pointer, status?.examples[0]?.pointer, status?.examples[0]?.marketId]).toEqual(['warning', '/*/status', '/0/status', 'm-1']);
    const single404 = single(JSON.stringify(market({ status: 'suspended' }))).findings[0];
    expect([single404?.severity, single404?.pointer, single404?.examples[0]?.pointer]).toEqual(['warning', '/status', '/status']);
  });

  it('checks items that are no object without listing them', () => {
    const { findings, listed } = list(JSON.stringify([null, 5, [1], summary()]));
    expect(listed.ids()).toEqual(['m-1']);
    expect(findings.every((f) => f.severity === 'error')).toBe(true);
    expect(findings.reduce((n, f) => n + f.count, 0)).toBe(3);
  });

  it('compares the prices only when both are numbers', () => {
    expect(codes(list(JSON.stringify([summary({ yes_price: 0.5, no_price: '0.6' })])).findings)).toEqual(['error type']);
  });

  it('names the market of an anomaly in a bare array item, whatever its index', () => {
    const items = Array.from({ length: 11 }, (_, i) => JSON.stringify(summary({ market_id: `m-${i}` })));
    items[10] = (items[10] as string).replace('{', '{"title":"dup",');
    const [dup] = list(`[${items.join(',')}]`).findings.filter((f) => f.code === 'duplicate-member');
    expect([dup?.pointer, dup?.examples[0]?.pointer, dup?.examples[0]?.marketId]).toEqual(['/*/title', '/10/title', 'm-10']);
  });

  it('crawl: an envelope page repeating some earlier markets warns about each', () => {
    const listed = list(JSON.stringify({ markets: [summary(), summary({ market_id: 'm-2' })] })).listed;
    const partly = list(JSON.stringify({ markets: [summary(), summary({ market_id: 'm-3' })] }), { listed, laterPage: true });
    expect(partly.findings.map((f) => [f.code, f.examples[0]?.pointer])).toEqual([['duplicate-id', '/markets/0/market_id']]);
    expect(listed.ids()).toEqual(['m-1', 'm-2', 'm-3']);
  });

  it('a page is a first page unless told otherwise', () => {
    const listed = list(JSON.stringify([summary()])).listed;
    const ctx = context();
    const checker = createListPageChecker(facts({ request: '/markets' }), ctx, listed, 'crawl');
    const reader = createJsonReader('list', checker);
    reader.write(JSON.stringify([summary()]));
    expect(checker.finish(reader.end())?.repeats).toBe(false);
    expect(codes(ctx.sink.findings())).toEqual(['warning duplicate-id']);
  });
});

describe('listedId', () => {
  it('is a non-empty string id, or the decimal text of a finite numeric one', () => {
    expect(listedId({ market_id: 'a' })).toBe('a');
    expect(listedId({ market_id: '' })).toBeUndefined();
    expect(listedId({ market_id: 5 })).toBe('5');
    expect(listedId({ market_id: Number.NaN })).toBeUndefined();
    expect(listedId({ market_id: null })).toBeUndefined();
    expect(listedId(null)).toBeUndefined();
    expect(listedId('a')).toBeUndefined();
  });
});
