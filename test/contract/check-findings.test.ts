// Findings added with the deviation catalogue: a slow single answer is a warning naming
// the market, and an anomaly inside a list item (a duplicate member, an unsafe number) names the
// item's market, in a bare array and inside an envelope.
import { describe, expect, it } from 'vitest';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer } from './deviant-server.js';
import { findingOf, problemKeys, runCheckJson } from './contract-report-helpers.js';

const LIST = 'GET /markets';
const SINGLE = 'GET /markets/{market_id}';

/** The list body with one item's text changed. */
function listWith(index: number, text: (itemText: string) => string, envelope?: string): string {
  const items = conformingMarkets(4).map((m, i) => (i === index ? text(JSON.stringify(summaryOf(m))) : JSON.stringify(summaryOf(m))));
  return envelope ? `{"${envelope}":[${items.join(',')}]}` : `[${items.join(',')}]`;
}

describe('slow-answer', () => {
  it('warns about each single answer slower than --slow-ms, naming the market and its time', async () => {
    await withServer(conformingMarkets(4), { single: (id) => (id === 'DEV-2' ? { ...json(conformingMarket(2)), delayMs: 400 } : undefined) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--slow-ms', '200']);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([`warning slow-answer ${SINGLE} `]);
      const slow = findingOf(run.report, 'slow-answer');
      expect(slow).toMatchObject({ count: 1, expected: 'an answer within --slow-ms (200 ms)' });
      expect(slow.examples[0]).toMatchObject({ marketId: 'DEV-2', request: '/markets/DEV-2', found: expect.stringMatching(/^\d+ ms$/) });
      expect(Number.parseInt(slow.found, 10)).toBeGreaterThanOrEqual(400);
      // The default (2 s) lets the same deployment pass without it.
      expect(problemKeys((await runCheckJson(server.url, ['--all'])).report)).toEqual([]);
    });
  });

  it('refuses a --slow-ms outside 1–600,000', async () => {
    const run = await runCheckJson('http://127.0.0.1:9', ['--slow-ms', '0']).catch((error: Error) => error);
    expect(String(run)).toContain('--slow-ms: expected an integer from 1 to 600000');
  });
});

describe('anomalies inside a list item name its market', () => {
  it.each([[undefined], ['markets']])('a duplicate member (envelope %s)', async (envelope) => {
    const body = listWith(2, (t) => t.replace('{', '{"yes_price":0.01,'), envelope);
    await withServer(conformingMarkets(4), { list: () => ({ headers: { 'content-type': 'application/json' }, body }) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      const base = envelope ? `/${envelope}` : '';
      expect(problemKeys(run.report)).toEqual([`warning duplicate-member ${LIST} ${base}/*/yes_price`]);
      expect(findingOf(run.report, 'duplicate-member').examples).toEqual([{ marketId: 'DEV-3', pointer: `${base}/2/yes_price`, found: expect.stringContaining('"yes_price" named twice'), request: '/markets' }]);
    });
  });

  it('an unsafe number', async () => {
    const body = listWith(1, (t) => t.replace(/"yes_price":[\d.]+/, '"yes_price":0.5700000000000000000000001'));
    await withServer(conformingMarkets(4), { list: () => ({ headers: { 'content-type': 'application/json' }, body }) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(findingOf(run.report, 'unsafe-number').examples).toEqual([expect.objectContaining({ marketId: 'DEV-2', pointer: '/1/yes_price', found: expect.stringContaining('0.5700000000000000000000001') })]);
    });
  });

  it('a hostile item with 1,500 duplicate members is one counted finding (past 1,000 held, they are reported without the id)', async () => {
    const duplicates = Array.from({ length: 1500 }, (_, i) => `"x":${i}`).join(',');
    const body = listWith(1, (t) => t.replace('{', `{${duplicates},`));
    await withServer(conformingMarkets(4), { list: () => ({ headers: { 'content-type': 'application/json' }, body }) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(findingOf(run.report, 'duplicate-member').count).toBe(1499);
      expect(run.code).toBe(0);
    });
  });
});
