// Deviations say what they do: the ready line, `GET /__stub` and `GET /__stub/deviations` name the
// deviations in force with how many markets each reaches, counted from the markets the stub
// actually serves deviated; a share that reaches none is a warning naming it and the catalog size.
import { afterEach, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { startServeProcess, type ServedProcess } from '../support/cli-process.js';

const started: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});

async function serve(args: string[]): Promise<ServedProcess> {
  const s = await startServeProcess(['--port', '0', '--seed', '1', '--clock', '2026-01-01', '--log-format', 'text', ...args]);
  started.push({ close: () => s.stop() });
  return s;
}

/** The market_ids whose listed yes_price is a string: the markets serving string-price, read from the list. */
async function servedStringPrice(url: string): Promise<string[]> {
  const list = (await (await fetch(`${url}/markets`)).json()) as { market_id: string; yes_price: unknown }[];
  return list.filter((m) => typeof m.yes_price === 'string').map((m) => m.market_id);
}

interface Reach { name: string; chosen: string; rate?: number; markets?: number; catalog: number; estimated?: true; marketIds?: string[] }

describe('the deviations in force, with how many markets each reaches', () => {
  it('the ready line counts the markets a share selects, the very markets served deviated', async () => {
    const s = await serve(['--count', '200', '--deviation', 'string-price=0.1', '--deviation', 'list-bom']);
    const served = await servedStringPrice(s.url);
    expect(served.length).toBeGreaterThan(0);
    expect(s.output().stdout).toContain(`; deviations: string-price=0.1 on ${served.length} of 200 markets, list-bom on the list`);
    const { reach } = (await (await fetch(`${s.url}/__stub/deviations`)).json()) as { reach: Reach[] };
    expect(reach).toEqual([
      { name: 'string-price', scope: 'market', chosen: 'rate', rate: 0.1, markets: served.length, catalog: 200, marketIds: served },
      { name: 'list-bom', scope: 'list', chosen: 'list', catalog: 200 },
    ]);
    const index = (await (await fetch(`${s.url}/__stub`)).json()) as { deviations: Reach[] };
    expect(index.deviations).toEqual([
      { name: 'string-price', scope: 'market', chosen: 'rate', rate: 0.1, markets: served.length, catalog: 200 },
      { name: 'list-bom', scope: 'list', chosen: 'list', catalog: 200 },
    ]);
  }, 30_000);

  it('a rate that selects none of the catalog is a warning naming the deviation, its rate and the catalog size', async () => {
    // seed 1, 25 markets: string-price=0.01 selects none (what the ready line says is checked against the list).
    const s = await serve(['--count', '25', '--deviation', 'string-price=0.01', '--quiet']);
    expect(await servedStringPrice(s.url)).toEqual([]);
    expect(s.output().stdout).toContain('; deviations: string-price=0.01 on 0 of 25 markets');
    expect(s.output().stderr).toContain('market-stub: warning: deviation string-price=0.01 selects none of the 25 markets of this catalog, so no answer deviates: raise the rate, or name markets');
  }, 30_000);

  it('no deviation: the ready line is as before and nothing is warned', async () => {
    const s = await serve(['--count', '5', '--quiet']);
    expect(s.output().stdout).toMatch(/serving generated: 5 markets \(seed 1, clock 2026-01-01\)\n$/);
    expect(s.output().stderr).toBe('');
  }, 30_000);

  it('the JSON ready line carries the counts as fields', async () => {
    const s = await startServeProcess(['--port', '0', '--count', '30', '--deviation', 'null-price', '--log-format', 'json']);
    started.push({ close: () => s.stop() });
    const ready = JSON.parse(s.output().stdout.split('\n').find((l) => l.includes('listening on')) as string) as { deviations: Reach[] };
    expect(ready.deviations).toEqual([{ name: 'null-price', scope: 'market', chosen: 'all', markets: 30, catalog: 30 }]);
  }, 30_000);
});

describe('the reach through the library and the admin API', () => {
  let stub: MarketStub;

  it('named markets count those in the catalog; a share set at run time that selects none warns once', async () => {
    const warnings: string[] = [];
    stub = await startMarketStub({ seed: 7, count: 25, clock: '2026-01-01', errorLog: (line: string) => warnings.push(line) });
    started.push(stub);
    const [first] = await stub.catalog();
    await stub.setDeviations([{ name: 'item-bom', marketIds: [first?.market_id as string] }, { name: 'string-price', rate: 0 }]);
    const { reach } = (await (await fetch(`${stub.url}/__stub/deviations`)).json()) as { reach: Reach[] };
    expect(reach.map((r) => [r.name, r.chosen, r.markets])).toEqual([['string-price', 'rate', 0], ['item-bom', 'marketIds', 1]]);
    expect(warnings.filter((w) => w.includes('string-price=0 selects none of the 25 markets'))).toHaveLength(1);
    await stub.removeMarket(first?.market_id as string);
    const after = (await (await fetch(`${stub.url}/__stub/deviations`)).json()) as { reach: Reach[] };
    expect(after.reach.find((r) => r.name === 'item-bom')).toBeUndefined();
  });

  it('a share of a catalog above the counted size is estimated (rate × size), without ids', async () => {
    stub = await startMarketStub({ seed: 7, count: 300_000, clock: '2026-01-01', deviations: [{ name: 'string-price', rate: 0.1 }] });
    started.push(stub);
    const index = (await (await fetch(`${stub.url}/__stub`)).json()) as { deviations: Reach[] };
    expect(index.deviations).toEqual([{ name: 'string-price', scope: 'market', chosen: 'rate', rate: 0.1, markets: 30_000, estimated: true, catalog: 300_000 }]);
  }, 30_000);
});
