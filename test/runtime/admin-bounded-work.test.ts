// Bounded admin work: an invalid catalog sent to the admin API (or setMarkets) lists its first
// MAX_LISTED_PROBLEMS problems and counts the rest, so the answer stays small whatever was sent;
// one tick call moves the clock, not the markets, so it costs the same on any catalog size.
import { afterEach, describe, expect, it } from 'vitest';
import { generateMarket, startMarketStub, type MarketStub } from '../../src/index.js';
import { MAX_LISTED_PROBLEMS } from '../../src/floor/limits.js';
import type { FixtureError} from '../../src/file-system/load-fixtures.js';
import { MarketStubError } from '../../src/floor/market-stub-error.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function stub(count: number): Promise<MarketStub> {
  const s = await startMarketStub({ count, clock: '2026-01-01' });
  open.push(s);
  return s;
}

const EMPTY_MARKETS = JSON.stringify(Array.from({ length: 10_000 }, () => ({})));

describe('an invalid catalog through the admin API', () => {
  it('PUT /__stub/markets of 10,000 {} (29 KiB) answers a 400 of at most 64 KiB: the first 100 problems listed, the other 59,900 counted', async () => {
    const s = await stub(5);
    const res = await fetch(`${s.url}/__stub/markets`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: EMPTY_MARKETS });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(Buffer.byteLength(text)).toBeLessThan(64 * 1024);
    const body = JSON.parse(text) as { error: string; message: string; findings: { pointer: string }[]; more: number };
    expect(body.error).toBe('markets_invalid');
    expect(body.findings).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(body.more).toBe(60_000 - MAX_LISTED_PROBLEMS);
    expect(body.findings[0]?.pointer).toBe('/0/market_id');
    expect(body.message).toContain('invalid markets (60000 problems); nothing was changed');
    expect(body.message).toContain(`… and ${60_000 - MAX_LISTED_PROBLEMS} more problem(s), not listed`);
    expect((await s.catalog()).length).toBe(5);
  });

  it('setMarkets throws the same bounded FixtureError: findings hold the first 100, `more` counts the rest', async () => {
    const s = await stub(5);
    const error = (await s.setMarkets(JSON.parse(EMPTY_MARKETS) as never[]).catch((e: unknown) => e)) as FixtureError;
    expect(error).toBeInstanceOf(MarketStubError);
    expect(error.code).toBe('MARKETS_INVALID');
    expect(error.findings).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(error.more).toBe(60_000 - MAX_LISTED_PROBLEMS);
  });

  it('a catalog with a few problems still lists every one, with no count line', async () => {
    const s = await stub(5);
    const res = await fetch(`${s.url}/__stub/markets`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ market_id: 'a' }]) });
    const body = (await res.json()) as { message: string; findings: unknown[] };
    expect(res.status).toBe(400);
    expect(body.findings).toHaveLength(5);
    expect(body.message).not.toContain('more problem');
  });
});

describe('one tick call', () => {
  it('moves a catalog of 10,000,000 markets: a tick advances the clock, and each market is read at its instant (no cap, nothing visited)', async () => {
    const s = await stub(10_000_000);
    const id = generateMarket(9_999_999, { seed: 1, clock: '2026-01-01' }).market_id;
    const before = await (await fetch(`${s.url}/markets/${encodeURIComponent(id)}`)).text();
    const res = await fetch(`${s.url}/__stub/tick`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":10000}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ tick: 10_000 });
    const after = await (await fetch(`${s.url}/markets/${encodeURIComponent(id)}`)).text();
    expect(after).not.toBe(before);
    const index = (await (await fetch(`${s.url}/__stub`)).json()) as { limits: Record<string, unknown> };
    expect(index.limits['tickWork']).toBeUndefined();
    expect(index.limits['ticksPerRequest']).toBe(10_000);
  }, 90_000);
});
