import { get } from 'node:http';
import { createServer } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, MarketStubError, startMarketStub, type MarketStub, type MarketStubOptions } from '../../src/index.js';

// Every library option is checked up front and refused with one error class,
// worded for the library; nothing runs in the background that could throw past the stub.

const listeners = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;

/** Collects uncaught exceptions and unhandled rejections while `fn` runs (and a tick after). */
async function withoutStrayErrors<T>(fn: () => Promise<T>): Promise<{ value: T; stray: unknown[] }> {
  const stray: unknown[] = [];
  const onError = (error: unknown) => stray.push(error);
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  try {
    const value = await fn();
    await new Promise((r) => setTimeout(r, 20));
    return { value, stray };
  } finally {
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
  }
}

describe('startMarketStub refuses bad options before binding anything', () => {
  it.each([
    [{ clock: '2026-13-01' }, 'startMarketStub: clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-13-01"'],
    [{ clock: 'tomorrow' }, 'startMarketStub: clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "tomorrow"'],
    [{ clock: '2026-02-30' }, 'startMarketStub: clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-02-30"'],
    [{ count: -1 }, 'startMarketStub: count: expected an integer from 0 to 100000000, found -1'],
    [{ count: 1.5 }, 'startMarketStub: count: expected an integer from 0 to 100000000, found 1.5'],
    [{ seed: 'abc' }, 'startMarketStub: seed: expected an integer from 0 to 9007199254740991, found "abc"'],
    [{ port: 70_000 }, 'startMarketStub: port: expected an integer from 0 to 65535, found 70000'],
    [{ host: '' }, 'startMarketStub: host: expected a non-empty value, found ""'],
    [{ cuont: 5 }, 'startMarketStub: cuont: expected a known option ('],
    [{ profile: { paging: 'pages' } }, 'startMarketStub: profile.paging: expected one of none, offset, cursor, found "pages"'],
    [{ profile: { pageSize: 2000 } }, 'startMarketStub: profile.pageSize: expected an integer from 1 to profile.maxPageSize (1000), found 2000'],
    [{ behaviour: { delayMs: -5 } }, 'startMarketStub: behaviour.delayMs: expected an integer from 0 to 600000, found -5'],
    [{ behaviour: { delay: 5 } }, 'startMarketStub: behaviour.delay: expected a known field ('],
    [{ rules: [{ match: { route: 'lists' }, behaviour: {} }] }, 'startMarketStub: rules[0].match.route: expected "list" or "item", found "lists"'],
    [{ globalFaults: [{ fault: 'missing', rate: 0.1 }] }, 'startMarketStub: globalFaults: expected a known option'],
    [{ journalSize: -1 }, 'startMarketStub: journalSize: expected an integer from 0 to 100000, found -1'],
    [{ logger: {} }, 'startMarketStub: logger: expected a logger with info, warn and error methods'],
    [{ watch: true }, 'startMarketStub: watch: expected a fixtures path to watch'],
    [{ fixtures: 'fixtures', markets: [] }, 'startMarketStub: markets: expected either fixtures or markets, not both'],
    [{ adminToken: 42 }, 'startMarketStub: adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged, found "(not shown)"'],
    // Tokens no HTTP client can send unchanged: they would start and never authenticate.
    [{ adminToken: ' tok' }, 'startMarketStub: adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged, found "(not shown)"'],
    [{ adminToken: 'tok\t' }, 'startMarketStub: adminToken: expected a token of at most 1024 printable ASCII'],
    [{ adminToken: 'tök€n' }, 'startMarketStub: adminToken: expected a token of at most 1024 printable ASCII'],
    [{ adminToken: 'to\u0000k' }, 'startMarketStub: adminToken: expected a token of at most 1024 printable ASCII'],
    [{ adminToken: 'to\nk' }, 'startMarketStub: adminToken: expected a token of at most 1024 printable ASCII'],
  ] as [Record<string, unknown>, string][])('%j', async (options, message) => {
    const before = listeners();
    const { value: error, stray } = await withoutStrayErrors(() => startMarketStub(options as MarketStubOptions).then(() => undefined, (e: unknown) => e));
    expect(error).toBeInstanceOf(MarketStubError);
    expect((error as MarketStubError).code).toBe('OPTION_INVALID');
    expect((error as Error).message).toContain(message);
    expect(stray).toEqual([]);
    expect(listeners()).toBe(before);
  });

  it('carries option, expected and found as fields', async () => {
    const error = (await startMarketStub({ clock: '2026-13-01' }).catch((e: unknown) => e)) as MarketStubError;
    expect(error).toMatchObject({ code: 'OPTION_INVALID', where: 'startMarketStub', option: 'clock', expected: 'a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999', found: '"2026-13-01"' });
  });

  it('refuses a taken port as LISTEN_FAILED naming the port, with the system error as cause', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const error = (await startMarketStub({ port }).catch((e: unknown) => e)) as MarketStubError;
      expect(error).toBeInstanceOf(MarketStubError);
      expect(error).toMatchObject({ code: 'LISTEN_FAILED', option: 'port' });
      expect(error.message).toContain(`port ${port} is already in use`);
      expect((error.cause as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });

  it('buildCatalog and createApp check their options too, worded for themselves', async () => {
    await expect(buildCatalog({ seed: 1, count: 10, clock: 'tomorrow' })).rejects.toThrow('buildCatalog: clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "tomorrow"');
    await expect(buildCatalog({ seed: 1, count: -1, clock: '2026-01-01' })).rejects.toThrow('buildCatalog: count: expected an integer from 0 to 100000000, found -1');
    const catalog = await buildCatalog({ seed: 1, count: 3, clock: '2026-01-01' });
    expect(() => createApp({ catalog, profile: { errors: 'xml' as never } })).toThrow('createApp: profile.errors: expected one of default, problem, error-object, found "xml"');
    expect(() => createApp({ catalog: {} as never })).toThrow('createApp: catalog: expected a catalog from buildCatalog()');
    await request(createApp({ catalog })).get('/markets').expect(200);
  });
});

describe('the handle speaks for the library', () => {
  let stub: MarketStub;
  beforeAll(async () => {
    stub = await startMarketStub({ count: 5, clock: '2026-01-01' });
  });
  afterAll(() => stub.close());

  it('invalid markets: MARKETS_INVALID with findings, worded for the method, nothing changed', async () => {
    const before = await stub.catalog();
    const error = (await stub.setMarkets([{ market_id: 'A' }]).catch((e: unknown) => e)) as MarketStubError;
    expect(error).toBeInstanceOf(MarketStubError);
    expect(error.code).toBe('MARKETS_INVALID');
    expect(error.message).toMatch(/^stub\.setMarkets: invalid markets \(\d+ problems\); nothing was changed:\n {2}- market \[0\] at \/0\/title: expected a value \(required field\), found nothing \(missing\)/);
    expect(error.message).not.toMatch(/Fixtures at|market-stub validate/);
    expect(error.findings.map((f) => f.pointer)).toContain('/0/title');
    expect(await stub.catalog()).toEqual(before);
  });

  it('unknown ids are errors everywhere', async () => {
    await expect(stub.patchMarket('nope', { title: 'x' })).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND', marketId: 'nope', message: 'stub.patchMarket: no market with market_id "nope"' });
    await expect(stub.removeMarket('nope')).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND' });
    await expect(stub.patchMarket('nope', { title: 'x' })).rejects.toMatchObject({ code: 'MARKET_NOT_FOUND' });
    await expect(stub.removeRule('r999')).rejects.toMatchObject({ code: 'RULE_NOT_FOUND' });
  });

  it('bad arguments name the argument', async () => {
    await expect(stub.tick(0)).rejects.toThrow('stub.tick: n: expected an integer from 1 to 10000, found 0');
    await expect(stub.setBehaviour({ status: 'x' } as never)).rejects.toThrow('stub.setBehaviour: behaviour.status: expected an integer from 200 to 599, found "x"');
    await expect(stub.requests({ limit: -1 })).rejects.toThrow('stub.requests: filter.limit: expected an integer from 0 to 1000, found -1');
    await expect(stub.requests({ stauts: 200 } as never)).rejects.toThrow('stub.requests: filter.stauts: expected a known field');
  });

  it('requests and requestCount agree and are both asynchronous; limit keeps the newest', async () => {
    await stub.clearRequests();
    for (let i = 0; i < 4; i++) await fetch(`${stub.url}/markets?i=${i}`);
    const count = stub.requestCount({ path: '/markets' });
    expect(count).toBeInstanceOf(Promise);
    expect(await count).toBe(4);
    const newest = await stub.requests({ path: '/markets', limit: 2 });
    expect(newest.map((e) => e.query['i'])).toEqual(['2', '3']);
  });
});

/**
 * GET `url` on a connection of its own (`agent: false`: `Connection: close`), so the close() that
 * follows has no idle keep-alive connection to leave open for IDLE_CLOSE_DELAY_MS
 * (src/http/server.ts): 300 starts would otherwise wait that out one after another.
 */
function getOnce(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('property: random option objects', () => {
  const PATH_VALUES = [undefined, 'fixtures', 'test/data/bad-markets.json', '/no/such/place', '', 3];
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const scalar = fc.oneof(fc.integer({ min: -5, max: 60 }), fc.double(), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant(null));
  const options = fc.record({
    port: maybe(fc.oneof(fc.constant(0), fc.constant(70_000), fc.constant(-1), fc.constant('0'), fc.constant(1.5))),
    host: maybe(fc.constantFrom('127.0.0.1', '', 42, 'no such host.invalid')),
    seed: maybe(fc.oneof(fc.nat(), scalar, fc.constant(2 ** 60))),
    count: maybe(fc.oneof(fc.integer({ min: 0, max: 40 }), scalar, fc.constant(200_000_000))),
    clock: maybe(fc.constantFrom('2026-01-01', '2026-13-01', 'tomorrow', '2026-02-30', 20_260_101, '2024-02-29')),
    fixtures: fc.constantFrom(...PATH_VALUES),
    watch: maybe(fc.oneof(fc.boolean(), fc.constant('yes'))),
    markets: maybe(fc.constantFrom([], [{ market_id: 'm', title: 't', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01' }], [{}], 'x')),
    profile: maybe(fc.record({ paging: maybe(fc.constantFrom('none', 'offset', 'cursor', 'pages', 1)), pageSize: maybe(fc.oneof(fc.integer({ min: -1, max: 3000 }), scalar)), envelope: maybe(fc.constantFrom('bare', 'markets', 'a b', '')) }, { requiredKeys: [] })),
    behaviour: maybe(fc.record({ delayMs: maybe(fc.oneof(fc.integer({ min: -2, max: 3 }), scalar)), status: maybe(fc.oneof(fc.integer({ min: 90, max: 610 }), scalar)), fault: maybe(fc.constantFrom('reset', 'explode')), errorRate: maybe(fc.oneof(fc.double({ min: -1, max: 2 }), scalar)) }, { requiredKeys: [] })),
    rules: maybe(fc.constantFrom([], [{ match: {}, behaviour: { status: 503 }, times: 2 }], [{ match: { route: 'x' }, behaviour: {} }], [null], 'r')),
    journalSize: maybe(fc.oneof(fc.integer({ min: -2, max: 20 }), scalar)),
    cors: maybe(fc.oneof(fc.boolean(), scalar)),
    admin: maybe(fc.oneof(fc.boolean(), scalar)),
    extra: maybe(scalar),
  }, { requiredKeys: [] });
  const valid = fc.record({
    port: fc.constant(0),
    seed: fc.nat(),
    count: fc.integer({ min: 0, max: 40 }),
    clock: fc.constantFrom('2026-01-01', '2024-02-29', '1999-12-31'),
    fixtures: fc.constantFrom(undefined, 'fixtures'),
    profile: fc.record({ paging: fc.constantFrom('none', 'offset', 'cursor'), pageSize: fc.integer({ min: 1, max: 1000 }), envelope: fc.constantFrom('bare', 'markets', 'data') }, { requiredKeys: [] }),
    behaviour: fc.record({ delayMs: fc.integer({ min: 0, max: 3 }), status: fc.integer({ min: 200, max: 599 }), fault: fc.constantFrom('reset', 'truncate'), errorRate: fc.double({ min: 0, max: 1, noNaN: true }) }, { requiredKeys: [] }),
    rules: fc.constantFrom([], [{ match: {}, behaviour: { status: 503 }, times: 2 }]),
    journalSize: fc.integer({ min: 0, max: 20 }),
    cors: fc.boolean(),
    admin: fc.boolean(),
  }, { requiredKeys: [] });

  it('each start resolves to a working stub or rejects with MarketStubError; no stray error, no port left bound', async () => {
    await new Promise((r) => setTimeout(r, 50)); // let servers closed by earlier tests release their handles
    const before = listeners();
    let started = 0;
    let refused = 0;
    await fc.assert(fc.asyncProperty(fc.oneof(valid, options), async (raw) => {
      const opts = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined).map(([k, v]) => [k === 'extra' ? 'cuont' : k, v]));
      const { value: outcome, stray } = await withoutStrayErrors(async () => {
        try {
          const stub = await startMarketStub(opts as MarketStubOptions);
          try {
            const health = await getOnce(`${stub.url}/healthz`);
            return { ok: health.status === 200 && (JSON.parse(health.body) as { status: string }).status === 'ok' };
          } finally {
            await stub.close();
          }
        } catch (error) {
          return { error };
        }
      });
      expect(stray).toEqual([]);
      if ('error' in outcome) {
        expect(outcome.error, String(outcome.error)).toBeInstanceOf(MarketStubError);
        refused += 1;
      } else {
        expect(outcome.ok).toBe(true);
        started += 1;
      }
      expect(listeners()).toBe(before);
    }), { numRuns: 300, seed: 20_261_122 });
    // Both outcomes happen: the generator is not all-bad or all-good.
    expect(started).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  }, 120_000);
});
