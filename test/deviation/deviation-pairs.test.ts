// Deviations compose: every pair of the catalogue, at any rates, is served (no answer the pair
// does not declare is a 500, every list and single body a pair leaves JSON is JSON), and `check`
// against a pair reports what both definitions declare. Exhaustive over pairs for the pure
// rendering, a fast-check property over pairs and rates for the served answers.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { todayUtc } from '../../src/floor/market-rules.js';
import { fnv1a } from '../../src/floor/text-hash.js';
import { catalogueIndex, DEVIATIONS } from '../../src/deviation/deviation-catalogue.js';
import type { DeclaredFinding, Deviation, MarketDeviation } from '../../src/deviation/deviation-definition.js';
import { MARKET_DEVIATIONS } from '../../src/deviation/market-deviations.js';
import { renderDeviatedMarket } from '../../src/deviation/render-deviated-market.js';
import { findingKey, problemKeys, runCliInProcess } from '../contract/contract-report-helpers.js';
import { runCliProcess } from '../support/cli-process.js';

const CLOCK = todayUtc();
const MARKET = { market_id: 'KXTEST-27', title: 'Will it compose?', status: 'active', yes_price: 0.57, no_price: 0.43, resolution_date: '2027-03-01' } as const;
const { resolution_date: _date, ...SUMMARY } = MARKET;

/** Every unordered pair of distinct entries. */
function pairs<T>(items: readonly T[]): [T, T][] {
  return items.flatMap((a, i) => items.slice(i + 1).map((b) => [a, b] as [T, T]));
}

/** A body as JSON, after a byte-order mark (the deviations that add one declare it). */
function parseJson(text: string): unknown {
  return JSON.parse(text.replace(/^\uFEFF/, ''));
}

describe('rendering every pair of market deviations', () => {
  it.each(pairs(MARKET_DEVIATIONS).map(([a, b]) => [`${a.name} + ${b.name}`, [a, b]] as const))('%s renders a list item that is JSON, and a single body that is JSON unless the pair replaces it', (_name, pair: readonly MarketDeviation[]) => {
    const served = renderDeviatedMarket({ item: MARKET, summary: SUMMARY }, pair, { seed: 3, idHash: fnv1a(MARKET.market_id) });
    // The list item (once, or twice in a row) is one or two JSON values between the list's brackets.
    expect(() => JSON.parse(`[${served.summaryJson}]`)).not.toThrow();
    const body = new TextDecoder().decode(served.body);
    if (!pair.some((d) => d.reply?.body !== undefined)) expect(() => parseJson(body)).not.toThrow();
  });
});

/**
 * A deviation whose endpoint answers with something not read as markets there (status, HTML, cut
 * JSON, another shape, 404), or, for the list's market_id, makes the single market unaddressable:
 * the other deviation's findings on that endpoint cannot show.
 */
const MASKS: Record<string, 'list' | 'item'> = {
  'list-500': 'list', 'list-not-json': 'list', 'list-truncated-json': 'list', 'list-envelope-change': 'list',
  'item-500': 'item', 'item-not-json': 'item', 'item-truncated-json': 'item', 'listed-but-404': 'item', 'item-envelope': 'item',
  'list-missing-market-id': 'item', 'list-empty-market-id': 'item', 'item-unconditional-304': 'item', 'list-unconditional-304': 'list',
};

/** The deviations that limit every market route to a rate (a 429 past it): the property's requests may meet that 429. */
const RATE_LIMITED = new Set(DEVIATIONS.filter((d) => d.scope === 'list' && d.reply.rateLimit !== undefined).map((d) => d.name));

/**
 * Fields a deviation's finding depends on besides the ones it points at: price-sum reads both prices,
 * past-resolution-date is for active markets only; the list's paging signals are one pseudo-field
 * (`(paging)`): a looping next link is a next-page signal, and a repeated list item makes the first
 * page longer than its page size, so either hides a full first page without a signal.
 */
const READS: Record<string, readonly string[]> = { 'price-sum': ['yes_price', 'no_price'], 'past-resolution-date': ['status'], 'list-paging-loop': ['(paging)'], 'list-partial-no-signal': ['(paging)'], 'list-duplicate-id': ['(paging)'] };

/** The members a deviation's findings are about (the last pointer segment, and READS). */
function fieldsOf(d: Deviation): Set<string> {
  return new Set([...d.findings.map((f) => f.pointer.split('/').at(-1) ?? ''), ...(READS[d.name] ?? [])].filter((f) => f !== '' && f !== '*'));
}

/** The pairs the catalogue refuses to serve together: both set the Content-Type of the same answer. */
function cannotCompose(a: Deviation, b: Deviation): boolean {
  return a.scope === b.scope && a.reply?.contentType !== undefined && b.reply?.contentType !== undefined;
}

describe('the pairs that cannot compose are refused when set, naming the pair', () => {
  const refused = pairs(DEVIATIONS).filter(([a, b]) => cannotCompose(a, b));
  const pattern = (a: Deviation, b: Deviation) => new RegExp(`${a.name} and ${b.name} both set the Content-Type`);

  it('six pairs: the list\'s and the single market\'s Content-Type deviations', () => {
    expect(refused.map(([a, b]) => `${a.name} + ${b.name}`)).toEqual([
      'item-not-json + item-wrong-content-type', 'item-not-json + item-charset', 'item-wrong-content-type + item-charset',
      'list-not-json + list-wrong-content-type', 'list-not-json + list-charset', 'list-wrong-content-type + list-charset',
    ]);
  });

  it.each(refused.map(([a, b]) => [`${a.name} + ${b.name}`, a, b] as const))('%s: startMarketStub and PUT /__stub/deviations refuse it', async (_name, a, b) => {
    const settings = [{ name: a.name }, { name: b.name }];
    await expect(startMarketStub({ count: 3, deviations: settings })).rejects.toMatchObject({ code: 'OPTION_INVALID', option: 'deviations', message: expect.stringMatching(pattern(a, b)) as unknown });
    const stub = await startMarketStub({ count: 3 });
    try {
      const res = await fetch(`${stub.url}/__stub/deviations`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(pattern(a, b));
      expect(((await (await fetch(`${stub.url}/__stub/deviations`)).json()) as { active: unknown[] }).active).toEqual([]);
    } finally {
      await stub.close();
    }
  });

  it('composes them on different markets, and refuses one market\'s own deviation that meets a share in force', async () => {
    const stub = await startMarketStub({ count: 3, clock: CLOCK });
    try {
      const [x, y] = (await stub.catalog()).map((m) => m.market_id) as [string, string];
      await stub.setDeviations([{ name: 'item-charset', marketIds: [x] }, { name: 'item-wrong-content-type', marketIds: [y] }]);
      expect((await fetch(`${stub.url}/markets/${x}`)).headers.get('content-type')).toBe('application/json; charset=iso-8859-1');
      await expect(stub.setDeviations([{ name: 'item-charset', marketIds: [x] }, { name: 'item-wrong-content-type', marketIds: [x, y] }])).rejects.toMatchObject({ code: 'OPTION_INVALID' });
      await stub.setDeviations([{ name: 'item-charset', rate: 0.5 }]);
      const res = await fetch(`${stub.url}/__stub/markets/${x}/deviations`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(['item-not-json']) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/item-not-json and item-charset both set the Content-Type|item-charset and item-not-json both set/);
    } finally {
      await stub.close();
    }
  });

  it('serve --deviation A --deviation B exits 2 naming the pair', async () => {
    const run = await runCliProcess(['serve', '--port', '0', '--deviation', 'list-charset', '--deviation', 'list-wrong-content-type']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/list-wrong-content-type and list-charset both set the Content-Type/);
  });
});

describe('serving any pair of deviations at any rates', () => {
  let stub: MarketStub;
  let ids: string[];
  beforeAll(async () => {
    stub = await startMarketStub({ seed: 11, count: 12, clock: CLOCK });
    ids = (await stub.catalog()).map((m) => m.market_id);
  });
  afterAll(async () => {
    await stub.close();
  });

  const setting = (deviation: Deviation, rate: number) => (deviation.scope === 'list' ? { name: deviation.name } : { name: deviation.name, rate });
  const deviation = fc.constantFrom(...DEVIATIONS);
  const rate = fc.oneof(fc.constantFrom(0, 1, 0.5), fc.double({ min: 0, max: 1, noNaN: true }));

  it('answers no 500 the pair does not declare, and JSON where neither breaks the body', async () => {
    await fc.assert(fc.asyncProperty(deviation, deviation, rate, rate, async (a, b, rateA, rateB) => {
      fc.pre(a !== b);
      const names = new Set([a.name, b.name]);
      const settings = [setting(a, rateA), setting(b, rateB)];
      if (cannotCompose(a, b)) {
        await expect(stub.setDeviations(settings)).rejects.toMatchObject({ code: 'OPTION_INVALID', message: expect.stringMatching(new RegExp(`${a.name}.*${b.name}|${b.name}.*${a.name}`)) as unknown });
        return;
      }
      await stub.setDeviations(settings);
      const list = await fetch(`${stub.url}/markets`);
      const listText = await list.text();
      const limited = [...names].some((n) => RATE_LIMITED.has(n));
      expect([names.has('list-500') ? 500 : names.has('list-unconditional-304') ? 304 : 200, ...(limited ? [429] : [])], `GET /markets with ${[...names].join(' + ')}: ${listText.slice(0, 200)}`).toContain(list.status);
      if (list.status !== 429 && ![...names].some((n) => MASKS[n] === 'list')) expect(Array.isArray(parseJson(listText)), listText.slice(0, 200)).toBe(true);
      const items = await Promise.all(ids.map(async (id) => {
        const res = await fetch(`${stub.url}/markets/${encodeURIComponent(id)}`);
        return { id, status: res.status, text: await res.text() };
      }));
      for (const { id, status, text } of items) {
        const allowed = [200, ...(names.has('listed-but-404') ? [404] : []), ...(names.has('item-500') ? [500] : []), ...(names.has('item-unconditional-304') ? [304] : []), ...(limited ? [429] : [])];
        expect(allowed, `GET /markets/${id} with ${[...names].join(' + ')} answered ${status}: ${text.slice(0, 200)}`).toContain(status);
        if (status === 200 && !names.has('item-not-json') && !names.has('item-truncated-json')) expect(() => parseJson(text), text.slice(0, 200)).not.toThrow();
      }
    }), { numRuns: 150 });
  }, 120_000);
});

describe('check against a pair', () => {
  const declared = (...findings: (readonly DeclaredFinding[])[]) => [...new Set(findings.flat().map((f) => findingKey(f)))].sort();

  /** check --all (in process, JSON report) against a stub serving `names` to every market. */
  async function checkPair(names: readonly string[]): Promise<{ code: number; report: ContractReport }> {
    const stub = await startMarketStub({ seed: 5, count: 8, clock: CLOCK, deviations: names.map((name) => ({ name })) });
    try {
      const run = await runCliInProcess(['check', '--base-url', stub.url, '--all', '--format', 'json']);
      return { code: run.code ?? -1, report: JSON.parse(run.stdout) as ContractReport };
    } finally {
      await stub.close();
    }
  }

  it('list-duplicate-id + list-duplicate-member: the list is served and check reports both warnings', async () => {
    const { code, report } = await checkPair(['list-duplicate-id', 'list-duplicate-member']);
    const [dupId, dupMember] = ['list-duplicate-id', 'list-duplicate-member'].map((n) => DEVIATIONS.find((d) => d.name === n) as Deviation);
    expect(problemKeys(report)).toEqual(declared(dupId?.findings ?? [], dupMember?.findings ?? []));
    expect(code).toBe(0);
  });

  // Pairs where neither deviation hides the other's endpoint and neither touches a field the other
  // rewrites or reads (the same member, a price, the status): check reports exactly the union.
  // (Run over all of them once by hand, 4 at a time: every pair matched.)
  const independent = pairs(DEVIATIONS).filter(([a, b]) => {
    if (MASKS[a.name] !== undefined || MASKS[b.name] !== undefined || cannotCompose(a, b)) return false;
    if (a.findings.length === 0 || b.findings.length === 0 || a.name === 'item-slow' || b.name === 'item-slow') return false;
    const [fa, fb] = [fieldsOf(a), fieldsOf(b)];
    const prices = (f: Set<string>) => f.has('yes_price') || f.has('no_price');
    return ![...fa].some((f) => fb.has(f)) && !(prices(fa) && prices(fb));
  });

  it('a sample of independent pairs: check reports the union of both declared findings', async () => {
    expect(independent.length).toBeGreaterThan(400);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...independent), async ([a, b]) => {
      const [first, second] = [a, b].sort((x, y) => catalogueIndex(x) - catalogueIndex(y)) as [Deviation, Deviation];
      const { report } = await checkPair([first.name, second.name]);
      expect(problemKeys(report), `${first.name} + ${second.name}`).toEqual(declared(first.findings, second.findings));
    }), { numRuns: 40 });
  }, 120_000);
});
