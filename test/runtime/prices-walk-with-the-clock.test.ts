// Prices are a function of time: a generated market's prices at an instant are a
// pure function of (seed, market, instant), one step per --price-step of stub time, at most a cent
// a step, in [0.01, 0.99] with yes + no = 1; list and item agree; fixture and admin-written markets
// and `stale-prices` hold; tick(n) is n steps; reset goes back. Through the public surface.
import { afterEach, describe, expect, it } from 'vitest';
import { startMarketStub, type Market, type MarketStub, type MarketStubOptions } from '../../src/index.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function stub(options: Partial<MarketStubOptions> = {}): Promise<MarketStub> {
  const s = await startMarketStub({ seed: 3, count: 40, clock: '2026-01-01', ...options });
  open.push(s);
  return s;
}

const list = async (s: MarketStub) => (await (await fetch(`${s.url}/markets`)).json()) as Market[];
const item = async (s: MarketStub, id: string) => (await (await fetch(`${s.url}/markets/${encodeURIComponent(id)}`)).json()) as Market;
const cents = (price: number) => Math.round(price * 100);

describe('generated prices walk with the stub clock', () => {
  it('a frozen clock serves the start prices; each minute of stub time is one step of at most a cent, yes + no = 1, list and item the same', async () => {
    const s = await stub();
    const start = await list(s);
    expect(await list(s)).toEqual(start);
    let previous = start;
    for (let minute = 1; minute <= 30; minute++) {
      await s.setClock({ advance: 'PT1M' });
      const now = await list(s);
      now.forEach((m, i) => {
        expect(Math.abs(cents(m.yes_price) - cents(previous[i]?.yes_price ?? 0))).toBeLessThanOrEqual(1);
        expect(String(m.yes_price)).toMatch(/^0\.\d\d?$/);
        expect(cents(m.yes_price) + cents(m.no_price)).toBe(100);
        expect(m.yes_price).toBeGreaterThanOrEqual(0.01);
        expect(m.yes_price).toBeLessThanOrEqual(0.99);
      });
      previous = now;
    }
    expect(previous).not.toEqual(start);
    for (const m of previous.slice(0, 5)) expect(await item(s, m.market_id)).toMatchObject({ yes_price: m.yes_price, no_price: m.no_price });
    expect(await s.catalog()).toEqual(await Promise.all(previous.map((m) => item(s, m.market_id))));
  });

  it('is a function of the instant: two stubs reach the same bytes by different paths, and reset and tick(n) agree with the clock', async () => {
    const [a, b] = await Promise.all([stub({ priceStep: 'PT1H' }), stub({ priceStep: 'PT1H' })]);
    await a.setClock({ advance: 'P3DT5H' });
    for (let i = 0; i < 3; i++) await b.setClock({ advance: 'P1D' });
    expect(await b.tick(5)).toBe(77);
    const [bodyA, bodyB] = await Promise.all([fetch(`${a.url}/markets`).then((r) => r.text()), fetch(`${b.url}/markets`).then((r) => r.text())]);
    expect(bodyA).toBe(bodyB);
    expect((await a.clock()).instant).toBe('2026-01-04T05:00:00Z');
    await a.reset();
    expect(await a.tick()).toBe(1);
    await a.reset();
    const fresh = await stub({ priceStep: 'PT1H' });
    expect(await fetch(`${a.url}/markets`).then((r) => r.text())).toBe(await fetch(`${fresh.url}/markets`).then((r) => r.text()));
  });

  it('admin-written and fixture markets hold their values unless --price-walk all; stale-prices and non-active markets never move', async () => {
    const s = await stub({ deviations: [{ name: 'stale-prices', rate: 0.25 }] });
    const start = await s.catalog();
    const [written, patched] = [start[0] as Market, start[1] as Market];
    await s.putMarket({ ...written, title: 'Written by a test' });
    await s.setClock({ advance: 'P10D' });
    const later = await s.catalog();
    await s.patchMarket(patched.market_id, { title: 'Patched later' });
    const patchedNow = (await s.catalog())[1] as Market;
    expect(patchedNow.yes_price).toBe(later[1]?.yes_price);
    await s.setClock({ advance: 'P10D' });
    const end = await s.catalog();
    expect(end[0]?.yes_price).toBe(written.yes_price);
    expect(end[1]?.yes_price).toBe(patchedNow.yes_price);
    const moved = end.filter((m, i) => m.yes_price !== start[i]?.yes_price).length;
    expect(moved).toBeGreaterThan(10);

    const markets = start.slice(0, 6).map((m, i) => ({ ...m, status: i === 5 ? 'closed' : 'active' }));
    const held = await stub({ markets });
    const all = await stub({ markets, priceWalk: 'all' });
    for (const x of [held, all]) await x.setClock({ advance: 'P30D' });
    expect(await held.catalog()).toEqual(markets);
    const walked = await all.catalog();
    expect(walked.filter((m, i) => m.yes_price !== markets[i]?.yes_price).length).toBeGreaterThan(0);
    expect(walked[5]).toEqual(markets[5]);
  });

  it('refuses a bad price step on every surface, naming it', async () => {
    await expect(startMarketStub({ count: 1, priceStep: 'P1M' })).rejects.toMatchObject({ code: 'OPTION_INVALID', option: 'priceStep' });
    await expect(startMarketStub({ count: 1, priceStep: 'PT0.5S' })).rejects.toMatchObject({ code: 'OPTION_INVALID', option: 'priceStep' });
    await expect(startMarketStub({ count: 1, priceWalk: 'sometimes' as never })).rejects.toMatchObject({ code: 'OPTION_INVALID', option: 'priceWalk' });
  });
});
