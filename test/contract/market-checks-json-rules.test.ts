import { describe, expect, it } from 'vitest';
import { createFindingAggregator } from '../../src/contract/checks/finding-aggregator.js';
import { ListedMarkets } from '../../src/contract/checks/listed-markets.js';
import { checkSingleBody, createListPageChecker, type CheckContext, type ResponseFacts } from '../../src/contract/checks/market-checks.js';
import { createJsonReader } from '../../src/contract/http-client/json-body-reader.js';
import { MAX_JSON_DEPTH, MAX_MARKET_DEPTH } from '../../src/floor/limits.js';

// A deployment's answer that breaks the JSON rules every input of market-stub is read with
// (src/floor/bounded-json.ts, docs/limits.md): nesting past the bound is one json-rule error where
// it is, never a pile of schema errors nor a market taken as it is; a member name is data (named
// like an Object.prototype built-in or not, it is an own member); and an answer sent without a
// Content-Type says so.

const market = { market_id: 'm-1', title: 'Will it rain?', status: 'active', yes_price: 0.6, no_price: 0.4, resolution_date: '2026-12-31' };
const { resolution_date: _, ...summary } = market;
const context = (): CheckContext => ({ sink: createFindingAggregator(), today: '2026-06-01' });
/** `levels` arrays, one inside the other. */
const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** A JSON object text with a member `"x": value` first. */
const withX = (object: object, value: string): string => JSON.stringify(object).replace('{', `{"x":${value},`);

function single(body: string, contentType: string | null = 'application/json') {
  const ctx = context();
  const facts: ResponseFacts = { request: '/markets/m-1', status: 200, contentType: contentType ?? undefined };
  const result = checkSingleBody(facts, body, 'm-1', undefined, ctx);
  return { result, findings: ctx.sink.findings() };
}

function list(body: string, contentType: string | null = 'application/json') {
  const ctx = context();
  const listed = new ListedMarkets();
  const checker = createListPageChecker({ request: '/markets', status: 200, contentType: contentType ?? undefined }, ctx, listed, 'crawl');
  const reader = createJsonReader('list', checker);
  reader.write(body);
  const page = checker.finish(reader.end(), false, undefined);
  return { page, findings: ctx.sink.findings(), listed };
}

const ruleOf = (findings: ReturnType<typeof single>['findings']) => findings.map((f) => [f.code, f.pointer, f.expected.split(', as every')[0], f.examples.map((e) => [e.pointer.replace(/(\/0){3,}$/, '/0…'), e.found])]);

describe('the single endpoint', () => {
  it('a member named __proto__ is data: an own undocumented member, never the prototype; the market is taken', () => {
    const { result, findings } = single(JSON.stringify(market).replace('{', '{"__proto__":{"status":"closed"},'));
    expect(result).toMatchObject({ market_id: 'm-1', status: 'active' });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result as object, '__proto__')).toBe(true);
    expect(findings.map((f) => [f.code, f.pointer])).toEqual([['undocumented-field', '/__proto__']]);
  });

  it('JSON nested past MAX_JSON_DEPTH, or a market past MAX_MARKET_DEPTH, is one json-rule error; up to it the market is judged', () => {
    expect(ruleOf(single(withX(market, nested(MAX_JSON_DEPTH + 1))).findings)).toEqual([['json-rule', '', `JSON nested at most ${MAX_JSON_DEPTH} levels`, [['/x/0…', `more than ${MAX_JSON_DEPTH} levels`]]]]);
    const deep = single(withX(market, nested(MAX_MARKET_DEPTH)));
    expect(deep.result).toBeUndefined();
    expect(ruleOf(deep.findings)).toEqual([['json-rule', '', `a market nested at most ${MAX_MARKET_DEPTH} levels`, [['/x/0…', `more than ${MAX_MARKET_DEPTH} levels`]]]]);
    const within = single(withX(market, nested(MAX_MARKET_DEPTH - 1)));
    expect(within.findings.map((f) => f.code)).toEqual(['undocumented-field']);
    expect(within.result).toMatchObject({ market_id: 'm-1' });
  });

  it('a JSON market sent without a Content-Type is a content-type warning saying so', () => {
    const { result, findings } = single(JSON.stringify(market), null);
    expect(result).toMatchObject({ market_id: 'm-1' });
    expect(findings.map((f) => [f.severity, f.code, f.examples[0]?.found])).toEqual([['warning', 'content-type', 'no Content-Type']]);
  });
});

describe('the list endpoint', () => {
  it('an item with a member named constructor is listed like any other (an undocumented member)', () => {
    const { findings, listed } = list(`[${JSON.stringify({ ...summary, market_id: 'm-0' })},${JSON.stringify(summary).replace('{', '{"constructor":1,')}]`);
    expect(findings.map((f) => [f.code, f.pointer])).toEqual([['undocumented-field', '/*/constructor']]);
    expect([listed.get('m-0') !== undefined, listed.get('m-1') !== undefined]).toEqual([true, true]);
  });

  it('an item nested past MAX_JSON_DEPTH or MAX_MARKET_DEPTH is one json-rule error at that item', () => {
    expect(ruleOf(list(`[${withX(summary, nested(MAX_JSON_DEPTH + 1))}]`).findings)).toEqual([['json-rule', '/*', `JSON nested at most ${MAX_JSON_DEPTH} levels`, [['/0/x/0…', `more than ${MAX_JSON_DEPTH} levels`]]]]);
    const deep = list(`[${JSON.stringify({ ...summary, market_id: 'm-0' })},${withX(summary, nested(MAX_MARKET_DEPTH))}]`);
    expect(ruleOf(deep.findings)).toEqual([['json-rule', '/*', `a market nested at most ${MAX_MARKET_DEPTH} levels`, [['/1/x/0…', `more than ${MAX_MARKET_DEPTH} levels`]]]]);
    expect(deep.findings[0]?.examples[0]?.marketId).toBe('m-1');
  });

  it('a member named constructor or __proto__ beside the items is an envelope member like any other', () => {
    const { page, findings } = list(`{"constructor":1,"__proto__":{"markets":[]},"markets":[${JSON.stringify(summary)}]}`);
    expect(page?.shape).toMatchObject({ kind: 'envelope', key: 'markets' });
    expect(findings.map((f) => f.code)).toEqual([]);
  });

  it('without a Content-Type: a body that is not JSON says so in its error; a JSON list is a content-type warning', () => {
    const notJson = list('<html>', null).findings;
    expect(notJson.map((f) => [f.code, f.examples[0]?.found])).toEqual([['not-json', 'no Content-Type (not JSON: expected a value)']]);
    const json = list(`[${JSON.stringify(summary)}]`, null).findings;
    expect(json.map((f) => [f.severity, f.code, f.examples[0]?.found])).toEqual([['warning', 'content-type', 'no Content-Type']]);
  });
});
