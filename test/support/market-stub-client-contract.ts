// The contract of the handle: one test suite for every way to reach a stub's controls (the
// in-process handle of startMarketStub, connectMarketStub to a CLI process, and to a container).
// A test written against MarketStubClient must pass unchanged on each; errors are compared field
// by field (and message) with an in-process reference stub started with the same options.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MarketStubError, startMarketStub, type Market, type MarketStub, type MarketStubClient } from '../../src/index.js';

/** The catalog every target of the suite is started with. */
export const CONTRACT_STUB = { seed: 5, count: 12, clock: '2026-01-01' } as const;
/** The admin token remote targets are started with (the in-process handle needs none). */
export const CONTRACT_TOKEN = 'contract-token-5f1c';

/** A started target: its controls and how to stop it. */
export interface ClientTarget {
  client: MarketStubClient;
  close(): Promise<void>;
}

const market = (id: string, extra: Record<string, unknown> = {}) => ({ market_id: id, title: `Will ${id} happen?`, status: 'active', yes_price: 0.3, no_price: 0.7, resolution_date: '2027-05-01', ...extra });

/**
 * The fields a caller can rely on, for comparing the same error from two surfaces. Not the
 * subclass: in process, invalid markets are a FixtureError (a MarketStubError with the fixture
 * `problems`); remotely they are a MarketStubError with the same code, findings and message.
 */
function fieldsOf(error: unknown) {
  if (!(error instanceof MarketStubError)) throw new Error(`expected a MarketStubError, got ${String(error)}`, { cause: error });
  const { code, where, option, expected, found, findings, marketId, message } = error;
  return { code, where, option, expected, found, findings, marketId, message };
}

async function errorOf(promise: Promise<unknown>): Promise<ReturnType<typeof fieldsOf>> {
  try {
    await promise;
  } catch (error) {
    return fieldsOf(error);
  }
  throw new Error('expected the call to reject');
}

/**
 * Registers the contract suite for one target. `start` is called once (beforeAll) and must give
 * a stub started with CONTRACT_STUB (and, when remote, CONTRACT_TOKEN); the suite resets it
 * between tests.
 */
export function describeMarketStubClient(name: string, start: () => Promise<ClientTarget>): void {
  describe(`MarketStubClient contract: ${name}`, () => {
    let target: ClientTarget | undefined;
    let reference: MarketStub | undefined;
    let startCatalog: Market[] = [];
    const client = (): MarketStubClient => {
      if (!target) throw new Error(`${name} did not start; see beforeAll`);
      return target.client;
    };
    const ref = (): MarketStub => {
      if (!reference) throw new Error('the reference stub did not start');
      return reference;
    };
    /** The same failing call on the target and on the in-process reference: the same error, field by field. */
    const sameError = async (call: (c: MarketStubClient) => Promise<unknown>) => {
      const mine = await errorOf(call(client()));
      const theirs = await errorOf(call(ref()));
      expect(mine).toEqual(theirs);
      return mine;
    };

    beforeAll(async () => {
      [target, reference] = await Promise.all([start(), startMarketStub({ ...CONTRACT_STUB })]);
      startCatalog = await ref().catalog();
    }, 120_000);
    afterAll(async () => {
      await Promise.all([target?.close(), reference?.close()]);
    });
    beforeEach(async () => {
      await Promise.all([client().reset(), ref().reset()]);
      await Promise.all([client().clearRequests(), ref().clearRequests()]);
    });

    it('catalog() is the start-up catalog, the same markets as in process for the same seed, count and clock', async () => {
      const catalog = await client().catalog();
      expect(catalog).toHaveLength(CONTRACT_STUB.count);
      expect(catalog).toEqual(startCatalog);
      const list = (await (await fetch(`${client().url}/markets`)).json()) as { market_id: string }[];
      expect(list.map((m) => m.market_id)).toEqual(catalog.map((m) => m.market_id));
    });

    it('setMarkets() replaces the catalog; invalid markets reject with MARKETS_INVALID and findings, changing nothing', async () => {
      await client().setMarkets([market('a'), market('b')]);
      expect((await client().catalog()).map((m) => m.market_id)).toEqual(['a', 'b']);
      expect(await (await fetch(`${client().url}/markets/b`)).json()).toEqual(market('b'));
      const error = await sameError((c) => c.setMarkets([market('c', { yes_price: '0.3' }), market('d')]));
      expect(error).toMatchObject({ code: 'MARKETS_INVALID', where: 'stub.setMarkets' });
      expect(error.findings).toEqual([expect.objectContaining({ pointer: '/0/yes_price', found: '"0.3"' })]);
      expect((await client().catalog()).map((m) => m.market_id)).toEqual(['a', 'b']);
      expect(await sameError((c) => c.setMarkets('nope' as unknown as unknown[]))).toMatchObject({ code: 'OPTION_INVALID', option: 'markets' });
    });

    it('putMarket() creates, then replaces; an invalid market rejects with findings', async () => {
      expect(await client().putMarket(market('new-1'))).toBe('created');
      expect(await client().putMarket(market('new-1', { title: 'Will it, now?' }))).toBe('replaced');
      expect(await (await fetch(`${client().url}/markets/new-1`)).json()).toMatchObject({ title: 'Will it, now?' });
      const withSlash = 'KX/odd id?';
      expect(await client().putMarket(market(withSlash))).toBe('created');
      expect((await client().catalog()).some((m) => m.market_id === withSlash)).toBe(true);
      const noId = await sameError((c) => c.putMarket({ title: 'no id', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' }));
      expect(noId).toMatchObject({ code: 'MARKETS_INVALID' });
      expect(noId.findings.length).toBeGreaterThan(0);
    });

    it('patchMarket() merges (RFC 7396) and returns the market; unknown ids reject with MARKET_NOT_FOUND and the id', async () => {
      const id = startCatalog[0]?.market_id ?? '';
      const patched = await client().patchMarket(id, { title: 'Patched?', category: 'extra' });
      expect(patched).toMatchObject({ market_id: id, title: 'Patched?', category: 'extra' });
      expect(await (await fetch(`${client().url}/markets/${encodeURIComponent(id)}`)).json()).toEqual(patched);
      expect((await client().patchMarket(id, { category: null })).category).toBeUndefined();
      expect(await sameError((c) => c.patchMarket('no-such-market', { title: 'x' }))).toMatchObject({ code: 'MARKET_NOT_FOUND', marketId: 'no-such-market' });
      expect(await sameError((c) => c.patchMarket(id, { resolution_date: '2026-02-30' }))).toMatchObject({ code: 'MARKETS_INVALID' });
      expect(await sameError((c) => c.patchMarket(id, [1] as unknown as Record<string, unknown>))).toMatchObject({ code: 'OPTION_INVALID', option: 'patch' });
    });

    it('removeMarket() removes; unknown and empty ids reject as in process', async () => {
      const id = startCatalog[1]?.market_id ?? '';
      await client().removeMarket(id);
      expect((await fetch(`${client().url}/markets/${encodeURIComponent(id)}`)).status).toBe(404);
      expect(await sameError((c) => c.removeMarket('no-such-market'))).toMatchObject({ code: 'MARKET_NOT_FOUND', marketId: 'no-such-market' });
      expect(await sameError((c) => c.removeMarket(''))).toMatchObject({ code: 'OPTION_INVALID', option: 'marketId' });
    });

    it('setDeviations() serves deviations to named markets, a seeded share and the list, byte for byte as in process; bad settings reject as in process', async () => {
      const id = startCatalog[3]?.market_id ?? '';
      const settings = [{ name: 'listed-but-404', marketIds: [id] }, { name: 'non-active-status', rate: 0.5 }, { name: 'list-bom' }];
      await Promise.all([client().setDeviations(settings), ref().setDeviations(settings)]);
      expect((await fetch(`${client().url}/markets/${encodeURIComponent(id)}`)).status).toBe(404);
      const [mine, theirs] = await Promise.all([client(), ref()].map(async (c) => Buffer.from(await (await fetch(`${c.url}/markets`)).arrayBuffer())));
      expect([...(mine ?? Buffer.alloc(0)).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(mine?.toString()).toBe(theirs?.toString());
      await client().setDeviations([]);
      expect((await fetch(`${client().url}/markets/${encodeURIComponent(id)}`)).status).toBe(200);
      expect(await sameError((c) => c.setDeviations([{ name: 'strng-price' }]))).toMatchObject({ code: 'OPTION_INVALID', option: 'deviations[0].name' });
      expect(await sameError((c) => c.setDeviations([{ name: 'item-bom', marketIds: ['no-such-market'] }]))).toMatchObject({ code: 'MARKET_NOT_FOUND', marketId: 'no-such-market' });
    });

    it('tick() counts ticks and moves prices like the in-process stub; a bad n rejects', async () => {
      expect(await client().tick()).toBe(1);
      expect(await client().tick(3)).toBe(4);
      await ref().tick(4);
      expect(await client().catalog()).toEqual(await ref().catalog());
      expect(await sameError((c) => c.tick(0))).toMatchObject({ code: 'OPTION_INVALID', option: 'n', found: '0' });
      expect(await sameError((c) => c.tick(1.5))).toMatchObject({ code: 'OPTION_INVALID', option: 'n' });
    });

    it('reset() restores the start-up markets, behaviours and tick count; the journal is kept', async () => {
      await client().setMarkets([market('only')]);
      await client().setBehaviour({ status: 503 });
      await client().tick(2);
      await fetch(`${client().url}/markets`).then((r) => r.arrayBuffer());
      await client().reset();
      expect(await client().catalog()).toEqual(startCatalog);
      expect((await fetch(`${client().url}/markets`)).status).toBe(200);
      expect(await client().tick()).toBe(1);
      expect(await client().requestCount({ path: '/markets' })).toBe(2);
    });

    it('clock() and setClock() read and move the stub clock (frozen at the start by default); Date follows it; bad changes reject as in process, changing nothing', async () => {
      expect(await client().clock()).toEqual({ instant: '2026-01-01T00:00:00Z', rate: 0, start: '2026-01-01T00:00:00Z', lifecycle: 'off' });
      expect(await client().setClock({ advance: 'PT6H' })).toEqual({ instant: '2026-01-01T06:00:00Z', rate: 0, start: '2026-01-01T00:00:00Z', lifecycle: 'off' });
      expect((await fetch(`${client().url}/markets`)).headers.get('date')).toBe('Thu, 01 Jan 2026 06:00:00 GMT');
      expect((await client().setClock({ to: '2026-01-02T00:00:00+01:00', advance: 'P1M' })).instant).toBe('2026-02-01T23:00:00Z');
      await ref().setClock({ to: '2026-02-01T23:00:00Z' });
      expect(await sameError((c) => c.setClock({ to: '2026-01-01' }))).toMatchObject({ code: 'OPTION_INVALID', option: 'to', found: '"2026-01-01"' });
      expect(await sameError((c) => c.setClock({ advance: '-PT1H' }))).toMatchObject({ code: 'OPTION_INVALID', option: 'advance' });
      expect(await sameError((c) => c.setClock({ advance: 'P1D', rate: -1 }))).toMatchObject({ code: 'OPTION_INVALID', option: 'rate', found: '-1' });
      expect(await sameError((c) => c.setClock({ to: '1969-12-31T23:59:59Z' } as never))).toMatchObject({ code: 'OPTION_INVALID', option: 'to' });
      expect(await sameError((c) => c.setClock({ speed: 2 } as never))).toMatchObject({ code: 'OPTION_INVALID', option: 'speed' });
      expect((await client().clock()).instant).toBe('2026-02-01T23:00:00Z');
      const running = await client().setClock({ rate: 3600 });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(Date.parse((await client().clock()).instant)).toBeGreaterThanOrEqual(Date.parse(running.instant) + 60_000);
      await client().reset();
      expect(await client().clock()).toEqual({ instant: '2026-01-01T00:00:00Z', rate: 0, start: '2026-01-01T00:00:00Z', lifecycle: 'off' });
    });

    it('setBehaviour() applies to every market request; a bad field rejects naming it', async () => {
      await client().setBehaviour({ status: 503, retryAfter: 7 });
      const res = await fetch(`${client().url}/markets`);
      await res.arrayBuffer();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('7');
      const error = await sameError((c) => c.setBehaviour({ delayMs: -1 }));
      expect(error).toMatchObject({ code: 'OPTION_INVALID', option: 'behaviour.delayMs', found: '-1' });
    });

    it('addRule() stores and applies a rule; removeRule() removes it; unknown ids reject with RULE_NOT_FOUND', async () => {
      const id = startCatalog[3]?.market_id ?? '';
      const rule = await client().addRule({ id: 'r-item', match: { route: 'item', marketId: id }, behaviour: { status: 500 }, times: 1 });
      expect(rule).toMatchObject({ id: 'r-item', match: { route: 'item', marketId: id }, behaviour: { status: 500 } });
      expect((await fetch(`${client().url}/markets/${encodeURIComponent(id)}`)).status).toBe(500);
      expect((await fetch(`${client().url}/markets/${encodeURIComponent(id)}`)).status).toBe(200);
      await client().addRule({ id: 'r-list', match: { route: 'list' }, behaviour: { status: 429 } });
      expect((await fetch(`${client().url}/markets`)).status).toBe(429);
      await client().removeRule('r-list');
      expect((await fetch(`${client().url}/markets`)).status).toBe(200);
      expect(await sameError((c) => c.removeRule('r-list'))).toMatchObject({ code: 'RULE_NOT_FOUND' });
      expect(await sameError((c) => c.addRule({ match: { route: 'sideways' as 'list' }, behaviour: {} }))).toMatchObject({ code: 'OPTION_INVALID' });
    });

    it('requests(), requestCount() and clearRequests() read and empty the journal with filters', async () => {
      const id = startCatalog[4]?.market_id ?? '';
      await fetch(`${client().url}/markets`).then((r) => r.arrayBuffer());
      await fetch(`${client().url}/markets/${encodeURIComponent(id)}?x=1`).then((r) => r.arrayBuffer());
      await fetch(`${client().url}/markets/no-such-market`).then((r) => r.arrayBuffer());
      const all = await client().requests();
      expect(all.map((e) => [e.method, e.path, e.status])).toEqual([
        ['GET', '/markets', 200], ['GET', `/markets/${encodeURIComponent(id)}`, 200], ['GET', '/markets/no-such-market', 404],
      ]);
      expect(all[1]?.query).toEqual({ x: '1' });
      expect(await client().requestCount({ pathPrefix: '/markets/' })).toBe(2);
      expect(await client().requestCount({ status: 404 })).toBe(1);
      expect((await client().requests({ limit: 1 })).map((e) => e.path)).toEqual(['/markets/no-such-market']);
      expect(await sameError((c) => c.requests({ status: 'abc' as unknown as number }))).toMatchObject({ code: 'OPTION_INVALID', option: 'filter.status' });
      expect(await sameError((c) => c.requestCount({ colour: 'red' } as never))).toMatchObject({ code: 'OPTION_INVALID', option: 'filter.colour' });
      await client().clearRequests();
      expect(await client().requestCount()).toBe(0);
    });

    it('admin calls never enter the journal', async () => {
      await client().catalog();
      await client().tick();
      expect(await client().requests()).toEqual([]);
    });
  });
}
