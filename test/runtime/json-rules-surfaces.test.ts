import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDeployment, startMarketStub, type MarketStub } from '../../src/index.js';
import { startDeviantServer, type DeviantServer } from '../contract/deviant-server.js';

// One rule set for a market from any source (docs/limits.md, "Reading JSON"): a market nests at
// most 62 levels and names no __proto__/constructor/prototype/Object.prototype member. Every
// surface that builds markets accepts exactly the markets within the rules, and a market accepted
// is served by every route (list, item, admin list, PATCH, tick) without a 5xx. A deployment's
// answer is judged by the depth alone: its member names are data (no name changes a verdict).

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']);
const NAMES = ['a', 'b~/c', 'meta', ...FORBIDDEN];
const json = { 'content-type': 'application/json' };

/** A market as JSON text whose `extra` member holds `depth` nested objects, the innermost naming `name`. */
function marketText(id: string, depth: number, name: string, list = false): string {
  const head = `{"market_id":${JSON.stringify(id)},"title":"Will ${id}?","status":"active","yes_price":0.5,"no_price":0.5${list ? '' : ',"resolution_date":"2027-01-01"'}`;
  if (depth === 0) return `${head}}`;
  const inner = `{${JSON.stringify(name)}:1}`;
  return `${head},"extra":${'{"x":'.repeat(depth - 1)}${inner}${'}'.repeat(depth - 1)}}`;
}

/** The rules, stated independently of the code: the market is level 1, `extra`'s objects below it. */
const withinRules = (depth: number, name: string) => 1 + depth <= 62 && (depth === 0 || !FORBIDDEN.has(name));
/** What check judges: the depth only. */
const withinDepth = (depth: number) => 1 + depth <= 62;

let root: string;
let stub: MarketStub;
let deployment: DeviantServer;
let served = { list: '[]', single: '{}' };
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ms-rules-'));
  stub = await startMarketStub({ markets: [JSON.parse(marketText('base', 0, 'a')) as object] });
  deployment = await startDeviantServer([], {
    list: () => ({ headers: json, body: served.list }),
    single: () => ({ headers: json, body: served.single }),
  });
});
afterAll(async () => {
  await stub.close();
  await deployment.close();
  await rm(root, { recursive: true, force: true });
});

/** Whether each surface takes the market: fixtures (library), markets in code, the admin API, and a deployment's answer (check). */
async function acceptance(id: string, depth: number, name: string): Promise<Record<string, boolean>> {
  const text = marketText(id, depth, name);
  const file = path.join(root, `${id}.json`);
  await writeFile(file, `[${text}]`);
  const fromFixtures = await startMarketStub({ fixtures: file }).then(async (s) => { await s.close(); return true; }, () => false);
  const inCode = await startMarketStub({ markets: [JSON.parse(text) as object] }).then(async (s) => { await s.close(); return true; }, () => false);
  const admin = (await fetch(`${stub.url}/__stub/markets/${id}`, { method: 'PUT', headers: json, body: text })).status;
  expect([200, 201, 400]).toContain(admin);
  served = { list: `[${marketText(id, depth, name, true)}]`, single: text };
  const report = await checkDeployment({ baseUrl: deployment.url, all: true });
  const refused = report.findings.some((f) => f.code === 'json-rule');
  return { fromFixtures, inCode, admin: admin !== 400, deployment: !refused };
}

/** Every route serves an accepted market: no 5xx, list and item agree. */
async function expectServed(id: string): Promise<void> {
  const item = await fetch(`${stub.url}/markets/${id}`);
  expect(item.status).toBe(200);
  const list = (await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[];
  expect(list.map((m) => m.market_id)).toContain(id);
  expect((await fetch(`${stub.url}/__stub/markets`)).status).toBe(200);
  expect((await fetch(`${stub.url}/__stub/markets/${id}`, { method: 'PATCH', headers: json, body: '{"title":"patched?"}' })).status).toBe(200);
  expect((await fetch(`${stub.url}/__stub/tick`, { method: 'POST', headers: json, body: '{"n":1}' })).status).toBeLessThan(300);
  expect((await fetch(`${stub.url}/__stub/requests`)).status).toBe(200);
}

describe('property: a market accepted by one surface is accepted by every other, and served', () => {
  it('random nesting around the limit and random member names: fixtures, code and admin API agree with the rules, a deployment with its depth', async () => {
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 80 }), fc.constantFrom(...NAMES), async (depth, name) => {
      const id = `p-${run++}`;
      const expected = withinRules(depth, name);
      const seen = await acceptance(id, depth, name);
      expect(seen, `depth ${depth}, member ${name}`).toEqual({ fromFixtures: expected, inCode: expected, admin: expected, deployment: withinDepth(depth) });
      if (expected) await expectServed(id);
    }), { numRuns: 40, seed: 2026, examples: [[61, 'a'], [62, 'a'], [5, '__proto__'], [4999, 'a']] });
  }, 60_000);
});
