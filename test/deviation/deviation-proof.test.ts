// The checker and the stub prove each other: for every deviation of the catalogue, `market-stub
// check` (the CLI, in process) against a stub serving it reports exactly the declared findings,
// exits by the deviation's class and names the affected markets; `market-stub record` against the
// same stub writes exactly the markets the catalogue says it keeps. With no deviation, check
// passes with no error and no warning.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { todayUtc } from '../../src/floor/market-rules.js';
import { fnv1a } from '../../src/floor/text-hash.js';
import { DEVIATIONS } from '../../src/deviation/deviation-catalogue.js';
import type { DeclaredFinding, Deviation } from '../../src/deviation/deviation-definition.js';
import { findingKey, problemKeys, runCliInProcess } from '../contract/contract-report-helpers.js';

const SEED = 5;
const COUNT = 12;
/** Positions of the markets a market deviation is served to (the others stay conforming). */
const AFFECTED = [2, 7];
// Resolution dates fall 1–730 days after the clock; check's `today` is the real date, so the clock is today.
const CLOCK = todayUtc();

let work: string;
let catalogIds: string[];
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-deviation-proof-'));
  const stub = await startMarketStub({ seed: SEED, count: COUNT, clock: CLOCK });
  catalogIds = (await stub.catalog()).map((m) => m.market_id);
  await stub.close();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A stub serving one deviation: to the AFFECTED markets, or to the list. */
async function stubServing(deviation: Deviation): Promise<MarketStub> {
  const setting = deviation.scope === 'market' ? { name: deviation.name, marketIds: AFFECTED.map((k) => catalogIds[k] as string) } : { name: deviation.name };
  return startMarketStub({ seed: SEED, count: COUNT, clock: CLOCK, deviations: [setting] });
}

async function check(url: string, command: 'check' | 'record', out?: string): Promise<{ code: number; report: ContractReport; stderr: string }> {
  const run = await runCliInProcess([command, '--base-url', url, '--all', '--format', 'json', ...(out ? ['--out', out] : [])]);
  return { code: run.code ?? -1, report: JSON.parse(run.stdout) as ContractReport, stderr: run.stderr };
}

const declaredKeys = (findings: readonly DeclaredFinding[]) => findings.map((f) => findingKey(f)).sort();

/** The catalog id an example is about: its market id (an alias mapped back), or the market at its list position. */
function exampleMarket(example: { marketId?: string; pointer: string }, deviation: Deviation): string | undefined {
  if (example.marketId !== undefined) {
    if (catalogIds.includes(example.marketId)) return example.marketId;
    return catalogIds.find((id) => deviation.scope === 'market' && deviation.alias?.(id, { seed: SEED, idHash: fnv1a(id) }) === example.marketId);
  }
  const index = /^\/(\d+)(\/|$)/.exec(example.pointer)?.[1];
  return index === undefined ? undefined : catalogIds[Number(index)];
}

describe('the stub serving no deviation', () => {
  it('passes check with no error and no warning', async () => {
    const stub = await startMarketStub({ seed: SEED, count: COUNT, clock: CLOCK });
    try {
      const { code, report } = await check(stub.url, 'check');
      expect(problemKeys(report)).toEqual([]);
      expect(code).toBe(0);
      expect(report.summary).toMatchObject({ errors: 0, warnings: 0, marketsListed: COUNT, marketsChecked: COUNT });
    } finally {
      await stub.close();
    }
  });
});

describe.concurrent('check against a stub serving each deviation of the catalogue', () => {
  it.each(DEVIATIONS.map((d) => [d.name, d] as const))('%s', async (_name, deviation) => {
    const stub = await stubServing(deviation);
    try {
      const { code, report } = await check(stub.url, 'check');
      expect(problemKeys(report), 'the errors and warnings check reports').toEqual(declaredKeys(deviation.findings));
      expect(code, `exit code of a${deviation.class === 'contract' ? ' contract-breaking' : 'n assumption-only'} deviation`).toBe(deviation.class === 'contract' ? 1 : 0);
      if (deviation.scope === 'list') return;
      const affected = AFFECTED.map((k) => catalogIds[k]).sort();
      for (const finding of report.findings.filter((f) => f.severity !== 'info')) {
        expect(finding.count, findingKey(finding)).toBe(affected.length);
        expect(finding.examples.map((e) => exampleMarket(e, deviation)).sort(), `${findingKey(finding)} names the affected markets`).toEqual(affected);
      }
    } finally {
      await stub.close();
    }
  });
});

describe.concurrent('record against a stub serving each deviation of the catalogue', () => {
  it.each(DEVIATIONS.map((d) => [d.name, d] as const))('%s', async (name, deviation) => {
    const stub = await stubServing(deviation);
    const out = path.join(work, name);
    try {
      const { code, report, stderr } = await check(stub.url, 'record', out);
      expect(code).toBe(deviation.class === 'contract' ? 1 : 0);
      expect(problemKeys(report)).toEqual(declaredKeys(deviation.findings));
      const expected = await recordedIds(stub, deviation);
      if (expected.length === 0) {
        expect(stderr).toContain('no valid market to record');
        await expect(stat(out)).rejects.toMatchObject({ code: 'ENOENT' });
        return;
      }
      const written = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as { market_id: string }[];
      expect(written.map((m) => m.market_id)).toEqual(expected);
      expect(stderr).toContain(`wrote ${expected.length} market${expected.length === 1 ? '' : 's'}`);
    } finally {
      await stub.close();
    }
  });

  /** The markets record should write, in list order, by the catalogue's `record` outcome. */
  async function recordedIds(stub: MarketStub, deviation: Deviation): Promise<string[]> {
    const affected = new Set(AFFECTED.map((k) => catalogIds[k]));
    if (deviation.scope === 'market') return deviation.record === 'dropped' ? catalogIds.filter((id) => !affected.has(id)) : catalogIds;
    if (deviation.record === 'kept') return catalogIds;
    if (deviation.record === 'dropped') return [];
    // A cut list: the markets whose list item is complete before the cut.
    const body = await (await fetch(`${stub.url}/markets`)).text();
    const catalog = await stub.catalog();
    return catalog.filter((m) => body.includes(JSON.stringify({ market_id: m.market_id, title: m.title, status: m.status, yes_price: m.yes_price, no_price: m.no_price }))).map((m) => m.market_id);
  }
});
