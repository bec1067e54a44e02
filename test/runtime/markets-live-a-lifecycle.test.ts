// The opt-in lifecycle (docs/lifecycle.md): generated markets open, close on their resolution date,
// resolve to prices 1 / 0 and leave the list after the retention, as the stub clock passes their
// seeded instants; `off` (the default) serves today's bytes. Through the public surface: the
// library (startMarketStub, setClock), HTTP, the checker (crawlDeployment) and the CLI.
import { afterEach, describe, expect, it } from 'vitest';
import { crawlDeployment, startMarketStub, type Market, type MarketStub, type MarketStubOptions } from '../../src/index.js';
import { watchDeployment } from '../../src/contract/index.js';
import { runCliProcess } from '../support/cli-process.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function stub(options: Partial<MarketStubOptions> = {}): Promise<MarketStub> {
  const s = await startMarketStub({ seed: 5, count: 300, clock: '2026-01-01', ...options });
  open.push(s);
  return s;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const text = async (s: MarketStub, path: string) => (await fetch(`${s.url}${path}`)).text();
const list = async (s: MarketStub, path = '/markets') => JSON.parse(await text(s, path)) as Market[];
const item = async (s: MarketStub, id: string): Promise<Market | 404> => {
  const res = await fetch(`${s.url}/markets/${encodeURIComponent(id)}`);
  return res.status === 404 ? 404 : ((await res.json()) as Market);
};
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** The stub's instant now, epoch ms. */
const now = async (s: MarketStub) => Date.parse((await s.clock()).instant);

/** The statuses of one market at each instant of `instants` (setting the clock forward to each). */
async function statusesOver(s: MarketStub, id: string, instants: number[]): Promise<(Market | 404)[]> {
  const seen: (Market | 404)[] = [];
  for (const t of instants) {
    await s.setClock({ to: iso(t) });
    seen.push(await item(s, id));
  }
  return seen;
}

describe('lifecycle off (the default)', () => {
  it('serves the same bytes as a stub without the option, at the start and a year on', async () => {
    const [plain, off] = await Promise.all([stub(), stub({ lifecycle: 'off' })]);
    for (const advance of [undefined, 'P400D']) {
      if (advance) await Promise.all([plain.setClock({ advance }), off.setClock({ advance })]);
      expect(await text(off, '/markets')).toBe(await text(plain, '/markets'));
      expect((await list(off)).every((m) => m.status === 'active')).toBe(true);
    }
  });
});

describe('the generic lifecycle: active → closed → resolved', () => {
  it('a market closes on its resolution date at a whole hour, resolves an hour later to 1 / 0, and leaves the list 7 days after while its item still answers', async () => {
    const s = await stub({ lifecycle: 'generic' });
    const start = await list(s);
    expect(start.length).toBeGreaterThan(0);
    expect(start.length).toBeLessThan(300);
    expect(start.every((m) => m.status === 'active')).toBe(true);
    // The soonest resolution date among the listed markets.
    const first = (await Promise.all(start.map(async (m) => (await item(s, m.market_id)) as Market))).sort((a, b) => a.resolution_date.localeCompare(b.resolution_date))[0] as Market;
    const day = Date.parse(`${first.resolution_date}T00:00:00Z`);
    const hours = Array.from({ length: 27 }, (_, h) => day + h * HOUR);
    const seen = await statusesOver(s, first.market_id, hours);
    const statuses = seen.map((m) => (m === 404 ? 404 : m.status));
    const closedAt = statuses.indexOf('closed');
    expect(closedAt, statuses.join(' ')).toBeGreaterThanOrEqual(0);
    expect(closedAt).toBeLessThan(24);
    expect(statuses).toEqual([...Array<string>(closedAt).fill('active'), 'closed', ...Array<string>(26 - closedAt).fill('resolved')]);
    const resolved = seen[closedAt + 1] as Market;
    expect([resolved.yes_price, resolved.no_price].sort()).toEqual([0, 1]);
    // Closed: the prices of the close instant, held.
    expect((seen[closedAt] as Market).yes_price).toBeGreaterThan(0);
    for (const later of seen.slice(closedAt + 1)) expect(later).toEqual(resolved);
    // Listed until 7 days after resolution, then gone from the list; the item still answers.
    const resolvedAt = day + (closedAt + 1) * HOUR;
    await s.setClock({ to: iso(resolvedAt + 7 * DAY - 60_000) });
    expect((await list(s)).find((m) => m.market_id === first.market_id)).toMatchObject({ status: 'resolved', yes_price: resolved.yes_price });
    await s.setClock({ to: iso(resolvedAt + 7 * DAY) });
    expect((await list(s)).some((m) => m.market_id === first.market_id)).toBe(false);
    expect(await item(s, first.market_id)).toEqual(resolved);
  });

  it('a market not yet open is neither listed nor answered, and appears once the clock passes its open time', async () => {
    const s = await stub({ lifecycle: 'generic' });
    const listed = new Set((await list(s)).map((m) => m.market_id));
    const later = await (async () => {
      await s.setClock({ advance: 'P200D' });
      return list(s);
    })();
    const opened = later.filter((m) => !listed.has(m.market_id));
    expect(opened.length).toBeGreaterThan(0);
    await s.reset();
    for (const m of opened.slice(0, 5)) expect(await item(s, m.market_id)).toBe(404);
  });

  it('after every market\'s life the list is a valid empty answer and every item still answers resolved', async () => {
    const s = await stub({ lifecycle: 'generic', count: 40 });
    await s.setClock({ advance: 'P3Y' });
    expect(await list(s)).toEqual([]);
    const market = await item(s, 'x');
    expect(market).toBe(404);
    const all = await s.catalog();
    for (const m of all.slice(0, 10)) expect(m.status).toBe('resolved');
  });
});

describe('the kalshi lifecycle: initialized → active → closed → determined → finalized', () => {
  it('answers a market not yet open as initialized (not listed), and walks each stage in order, finalized a day after determined', async () => {
    const s = await stub({ lifecycle: 'kalshi' });
    const listed = new Set((await list(s)).map((m) => m.market_id));
    const ids = (await s.catalog()).map((m) => m.market_id);
    const unopened = ids.find((id) => !listed.has(id)) as string;
    const waiting = (await item(s, unopened)) as Market;
    expect(waiting.status).toBe('initialized');
    const day = Date.parse(`${waiting.resolution_date}T00:00:00Z`);
    const instants = [...Array.from({ length: 25 }, (_, h) => day + h * HOUR), day + 26 * HOUR];
    const statuses = (await statusesOver(s, unopened, instants)).map((m) => (m === 404 ? 404 : m.status));
    const order = ['initialized', 'active', 'closed', 'determined', 'finalized'];
    const ranks = statuses.map((st) => order.indexOf(String(st)));
    expect(ranks.every((r, i) => r >= 1 && (i === 0 || r >= (ranks[i - 1] ?? 0))), statuses.join(' ')).toBe(true);
    const closedAt = statuses.indexOf('closed');
    expect(statuses[closedAt + 1]).toBe('determined');
    // Determined at close + 1 h, finalized 24 h later.
    const determinedAt = day + (closedAt + 1) * HOUR;
    await s.setClock({ to: iso(determinedAt + DAY - 60_000) });
    expect(((await item(s, unopened)) as Market).status).toBe('determined');
    await s.setClock({ to: iso(determinedAt + DAY) });
    expect(((await item(s, unopened)) as Market).status).toBe('finalized');
  });
});

describe('properties', () => {
  it('determinism: the same options at the same instant give the same bytes, whatever path the clock took', async () => {
    const [a, b] = await Promise.all([stub({ lifecycle: 'kalshi', priceStep: 'PT1H' }), stub({ lifecycle: 'kalshi', priceStep: 'PT1H' })]);
    await a.setClock({ advance: 'P150DT5H' });
    for (let i = 0; i < 5; i++) await b.setClock({ advance: 'P30D' });
    await b.setClock({ advance: 'PT5H' });
    expect(await text(a, '/markets')).toBe(await text(b, '/markets'));
    const ids = (await a.catalog()).slice(0, 30).map((m) => m.market_id);
    for (const id of ids) expect(await text(a, `/markets/${id}`)).toBe(await text(b, `/markets/${id}`));
  });

  it('a status never goes back as t grows; from resolution the prices are 1 / 0 and never move', async () => {
    const s = await stub({ lifecycle: 'kalshi', count: 120, priceStep: 'PT1H' });
    const order = ['initialized', 'active', 'closed', 'determined', 'finalized'];
    const last = new Map<string, Market>();
    const start = await now(s);
    // Irregular strides over two years and a month (every life ends by 731 days), so instants fall at every hour of the day.
    for (let t = start, k = 0; t < start + 2 * 365 * DAY + 31 * DAY; t += 3 * DAY + (k++ % 7) * 5 * HOUR) {
      await s.setClock({ to: iso(t) });
      // The admin catalog reads every market at the instant; the item route serves the same.
      const markets = await s.catalog();
      for (const m of markets.slice(0, 3)) expect(await item(s, m.market_id)).toEqual(m);
      for (const m of markets) {
        const id = m.market_id;
        const before = last.get(id);
        if (before) {
          expect(order.indexOf(m.status), `${id} ${before.status} → ${m.status}`).toBeGreaterThanOrEqual(order.indexOf(before.status));
          if (before.status === 'determined' || before.status === 'finalized') expect([m.yes_price, m.no_price]).toEqual([before.yes_price, before.no_price]);
        }
        if (m.status === 'determined' || m.status === 'finalized') expect([m.yes_price + m.no_price, m.yes_price * m.no_price]).toEqual([1, 0]);
        last.set(id, m);
      }
    }
    expect([...last.values()].every((m) => m.status === 'finalized')).toBe(true);
    expect(new Set([...last.values()].map((m) => m.yes_price))).toEqual(new Set([0, 1]));
  }, 60_000);

  it('paging under churn: at one instant the offset pages are the list, in order; the total is the list\'s length', async () => {
    const s = await stub({ lifecycle: 'generic', profile: { paging: 'offset', pageSize: 7, maxPageSize: 100 } });
    for (const advance of ['P1D', 'P120D', 'P300D', 'P2Y']) {
      await s.setClock({ advance });
      const pages: Market[] = [];
      const totals = new Set<number>();
      for (let offset = 0; ; offset += 7) {
        const res = await fetch(`${s.url}/markets?offset=${offset}`);
        totals.add(Number(res.headers.get('x-total-count')));
        const body = (await res.json()) as Market[] | Record<string, Market[]>;
        const items = Array.isArray(body) ? body : (Object.values(body).find(Array.isArray) ?? []);
        pages.push(...items);
        if (items.length < 7) break;
      }
      expect([...totals]).toEqual([pages.length]);
      expect(new Set(pages.map((m) => m.market_id)).size).toBe(pages.length);
      const all = await s.catalog();
      const position = new Map(all.map((m, i) => [m.market_id, i]));
      const positions = pages.map((m) => position.get(m.market_id) ?? -1);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it('the list over many blocks is the same read whole, by pages at any offset, and by one pass after an edit (a removal)', async () => {
    const options = { lifecycle: 'generic' as const, count: 5000, profile: { paging: 'offset' as const, pageSize: 50, maxPageSize: 1000 } };
    const [a, b] = await Promise.all([stub(options), stub(options)]);
    // A market put and removed: b's catalog is the same markets, its list built by a pass per step.
    await b.putMarket({ market_id: 'GONE-1', title: 'Gone?', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2026-02-01' });
    await b.removeMarket('GONE-1');
    const ids = (body: unknown) => (body as Market[]).map((m) => m.market_id);
    /** The list's ids at the stub's instant, read in pages of 1,000. */
    const allPages = async (s: MarketStub): Promise<string[]> => {
      const all: string[] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = ids(await (await fetch(`${s.url}/markets?limit=1000&offset=${offset}`)).json());
        all.push(...page);
        if (page.length < 1000) return all;
      }
    };
    for (const advance of ['PT1M', 'P90D', 'P400DT7H']) {
      await Promise.all([a.setClock({ advance }), b.setClock({ advance })]);
      const pages = await allPages(a);
      expect(pages.length).toBeGreaterThan(1024);
      // Pages started at odd offsets (each a jump into the index) agree with the pages read in order.
      for (const offset of [1, 1023, 1024, 1500, pages.length - 3]) {
        expect(ids(await (await fetch(`${a.url}/markets?limit=5&offset=${offset}`)).json())).toEqual(pages.slice(offset, offset + 5));
      }
      expect(await allPages(b)).toEqual(pages);
    }
  }, 60_000);
});

describe('what else the lifecycle touches', () => {
  it('fixture and admin-written markets keep their status; a patched generated market keeps what it served when written', async () => {
    const fixture = { market_id: 'FIX-1', title: 'Fixture?', status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2026-01-02' };
    const s = await stub({ lifecycle: 'generic' });
    await s.putMarket(fixture);
    const [first] = await list(s);
    await s.patchMarket(first?.market_id ?? '', { title: 'Written' });
    await s.setClock({ advance: 'P3Y' });
    expect(await list(s)).toEqual([
      expect.objectContaining({ market_id: first?.market_id, status: 'active', title: 'Written' }),
      expect.objectContaining({ market_id: 'FIX-1', status: 'active' }),
    ]);
    const fixtures = await startMarketStub({ markets: [fixture], lifecycle: 'kalshi', clock: '2026-01-01' });
    open.push(fixtures);
    await fixtures.setClock({ advance: 'P1Y' });
    expect(await list(fixtures)).toEqual([fixture].map(({ resolution_date: _, ...summary }) => summary));
  });

  it('refuses a lifecycle on a generated catalog above 250,000 markets, and a value that is not a lifecycle set', async () => {
    await expect(startMarketStub({ count: 250_001, lifecycle: 'generic' })).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', option: 'lifecycle' });
    await expect(startMarketStub({ count: 3, lifecycle: 'sometimes' as 'generic' })).rejects.toMatchObject({ code: 'OPTION_INVALID', message: expect.stringContaining('lifecycle') });
  });

  it('the CLI refuses a bad --lifecycle and MARKET_STUB_LIFECYCLE with exit 2 naming the option and the values it takes', async () => {
    for (const [args, env] of [[['serve', '--lifecycle', 'sometimes', '--port', '0'], {}], [['serve', '--port', '0'], { MARKET_STUB_LIFECYCLE: 'kalshy' }]] as const) {
      const run = await runCliProcess(args, { env, timeoutMs: 30_000 });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/lifecycle/i);
      expect(run.stderr).toContain('off');
      expect(run.stderr).toContain('generic');
      expect(run.stderr).toContain('kalshi');
    }
  }, 60_000);
});

describe('check against a lifecycle stub', () => {
  /** The findings of a full crawl as (code, severity, pointer, count) rows. */
  async function findings(s: MarketStub) {
    const { report } = await crawlDeployment({ baseUrl: s.url, all: true });
    // Information findings (timing, paging, the probe) say how the crawl went, not what the markets are.
    return report.findings.filter((f) => f.severity !== 'info').map((f) => ({ code: f.code, severity: f.severity, endpoint: f.endpoint, pointer: f.pointer, count: f.count }));
  }

  it('sees what is there and nothing false: no finding while all listed markets are active, the status assumption for exactly the markets not active', async () => {
    const s = await stub({ lifecycle: 'kalshi', count: 400 });
    expect(await findings(s)).toEqual([]);
    for (const advance of ['P45D', 'P100DT13H', 'P150D']) {
      await s.setClock({ advance });
      const served = await list(s);
      const notActive = served.filter((m) => m.status !== 'active');
      expect(notActive.length, advance).toBeGreaterThan(0);
      const seen = await findings(s);
      expect(seen, advance).toEqual([
        { code: 'const', severity: 'warning', endpoint: 'GET /markets', pointer: '/*/status', count: notActive.length },
        { code: 'const', severity: 'warning', endpoint: 'GET /markets/{market_id}', pointer: '/status', count: notActive.length },
      ]);
    }
  }, 60_000);
});

describe('a watch of a lifecycle stub', () => {
  it('over rounds three stub days apart, sees no status go back, no price move after resolution, no market flap: only the Date far from this machine\'s clock', async () => {
    const s = await stub({ lifecycle: 'kalshi', count: 200, clock: new Date().toISOString().slice(0, 10) });
    const seen: string[] = [];
    let notActive = 0;
    for await (const round of watchDeployment({ baseUrl: s.url, all: true, intervalMs: 100, rounds: 14 })) {
      expect(round.failure, `round ${round.round} ran`).toBeUndefined();
      seen.push(...round.findings.map((f) => `${f.severity} ${f.code}`));
      notActive += (await list(s)).filter((m) => m.status !== 'active').length;
      await s.setClock({ advance: 'P3D' });
    }
    // The rounds saw markets close, resolve and leave the list (the lifecycle moved under the watch).
    expect(notActive).toBeGreaterThan(0);
    expect([...new Set(seen)]).toEqual(['warning clock-skew']);
  }, 60_000);
});
