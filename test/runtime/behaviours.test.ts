import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub, type MarketStubOptions } from '../../src/index.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function stub(options: MarketStubOptions = {}): Promise<MarketStub> {
  const s = await startMarketStub({ count: 20, clock: '2026-01-01', ...options });
  open.push(s);
  return s;
}
const firstId = async (s: MarketStub) => (await s.catalog())[0]?.market_id ?? '';

/** GET with node:http so resets and truncation surface as they happen on the wire. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; error?: NodeJS.ErrnoException }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ status: res.statusCode ?? 0, body, error }));
      res.on('aborted', () => resolve({ status: res.statusCode ?? 0, body, error: Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, body: '', error }));
    req.end();
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

describe('latency', () => {
  it('fixed delay (global, CLI-style) delays every market response', async () => {
    const s = await stub({ behaviour: { delayMs: 300 } });
    const ms = await timed(() => fetch(`${s.url}/markets`).then((r) => r.text()));
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1500);
  });

  it('Prefer: delay=250 delays one request only', async () => {
    const s = await stub();
    expect(await timed(() => fetch(`${s.url}/markets`, { headers: { prefer: 'delay=250' } }).then((r) => r.text()))).toBeGreaterThanOrEqual(240);
    expect(await timed(() => fetch(`${s.url}/markets`).then((r) => r.text()))).toBeLessThan(200);
  });

  it('random delay is seeded: the same sequence of delays on every run', async () => {
    const run = async () => {
      const s = await stub({ seed: 5, behaviour: { jitterMs: 50 } });
      for (let i = 0; i < 5; i++) await fetch(`${s.url}/markets/${await firstId(s)}`).then((r) => r.text());
      return (await s.requests()).map((e) => e.behaviour.join());
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(1);
    expect(a[0]).toMatch(/^jitter=\d+$/);
  });
});

describe('status overrides', () => {
  it('Prefer: code=503 answers with a JSON error body in the profile shape', async () => {
    const s = await stub({ profile: { errors: 'problem' } });
    const res = await fetch(`${s.url}/markets/${await firstId(s)}`, { headers: { prefer: 'code=503' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await res.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
  });

  it('429 carries Retry-After (rule per market, set at runtime, without headers)', async () => {
    const s = await stub();
    const rule = await s.addRule({ match: { route: 'item', marketId: await firstId(s) }, behaviour: { status: 429, retryAfter: 7 } });
    const limited = await fetch(`${s.url}/markets/${await firstId(s)}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toMatchObject({ error: 'rate_limited' });
    const other = (await s.catalog())[1]?.market_id ?? '';
    expect((await fetch(`${s.url}/markets/${other}`)).status).toBe(200);
    await s.removeRule(rule.id);
    expect((await fetch(`${s.url}/markets/${await firstId(s)}`)).status).toBe(200);
  });

  it('a rule with times applies to the next N matching requests only (per route)', async () => {
    const s = await stub();
    await s.addRule({ match: { route: 'list' }, behaviour: { status: 500 }, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${s.url}/markets`)).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
  });

  it('the error rate is seeded: the same requests fail on every run', async () => {
    const run = async () => {
      const s = await stub({ seed: 9, behaviour: { errorRate: 0.3, status: 502 } });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await fetch(`${s.url}/markets`)).status);
      return out;
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    const failures = a.filter((x) => x === 502).length;
    expect(failures).toBeGreaterThan(4);
    expect(failures).toBeLessThan(24);
    expect(a.every((x) => x === 200 || x === 502)).toBe(true);
  });
});

describe('transport faults', () => {
  it('connection reset is seen by the client as an error, with no response', async () => {
    const s = await stub({ behaviour: { fault: 'reset' } });
    const res = await rawGet(`${s.url}/markets`);
    expect(res.status).toBe(0);
    expect(res.error?.code).toBe('ECONNRESET');
    await expect(fetch(`${s.url}/markets`)).rejects.toThrow();
    expect((await s.requests({ path: '/markets' }))[0]).toMatchObject({ status: null, behaviour: ['fault=reset'] });
  });

  it('truncate: the body ends before its Content-Length and the client sees an error', async () => {
    const s = await stub();
    const res = await rawGet(`${s.url}/markets`, { prefer: 'fault=truncate' });
    expect(res.status).toBe(200);
    expect(res.error).toBeDefined();
    expect(() => JSON.parse(res.body) as unknown).toThrow();
  });

  it('malformed: a complete response whose JSON fails to parse', async () => {
    const s = await stub();
    const res = await fetch(`${s.url}/markets/${await firstId(s)}`, { headers: { prefer: 'fault=malformed' } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
  });

  it('slow body: the body is dribbled over the given time and arrives whole', async () => {
    const s = await stub();
    let first = 0;
    const t = performance.now();
    const res = await fetch(`${s.url}/markets`, { headers: { prefer: 'fault=slow-body, dribble=600' } });
    const reader = res.body?.getReader();
    let text = '';
    let chunks = 0;
    for (;;) {
      const { done, value } = (await reader?.read()) ?? { done: true, value: undefined };
      if (done) break;
      if (chunks === 0) first = performance.now() - t;
      chunks++;
      text += Buffer.from(value).toString();
    }
    const total = performance.now() - t;
    expect(first).toBeLessThan(300);
    expect(total).toBeGreaterThanOrEqual(500);
    expect(chunks).toBeGreaterThan(3);
    expect(JSON.parse(text)).toHaveLength(20);
  });

  it('rejects a bad Prefer value with 400 naming it', async () => {
    const s = await stub();
    const res = await fetch(`${s.url}/markets`, { headers: { prefer: 'fault=explode' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('Prefer.fault: expected one of reset, truncate, malformed, slow-body');
  });
});

describe('the deviations that were the domain faults of 0.1', () => {
  it('missing: listed, but the single endpoint answers 404', async () => {
    const s = await stub();
    const id = await firstId(s);
    await s.setDeviations([{ name: 'listed-but-404', marketIds: [id] }]);
    const list = (await (await fetch(`${s.url}/markets`)).json()) as { market_id: string }[];
    expect(list.map((m) => m.market_id)).toContain(id);
    expect((await fetch(`${s.url}/markets/${id}`)).status).toBe(404);
  });

  it('stale: its prices stop changing while others move with ticks', async () => {
    const s = await stub();
    const id = await firstId(s);
    await s.setDeviations([{ name: 'stale-prices', marketIds: [id] }]);
    const before = (await (await fetch(`${s.url}/markets`)).json()) as { market_id: string; yes_price: number; no_price: number }[];
    await s.tick(5);
    const after = (await (await fetch(`${s.url}/markets`)).json()) as typeof before;
    expect(after[0]).toEqual(before[0]);
    const moved = after.filter((m, i) => m.yes_price !== before[i]?.yes_price);
    expect(moved.length).toBeGreaterThan(5);
    for (const m of after) {
      expect(Math.round(m.yes_price * 100) + Math.round(m.no_price * 100)).toBe(100);
      expect(String(m.yes_price)).toMatch(/^0\.\d{1,2}$/);
    }
  });

  it.each([
    ['non-active-status', (m: Record<string, unknown>) => expect(m['status']).toBe('suspended')],
    ['price-out-of-range', (m: Record<string, unknown>) => expect(m['yes_price']).toBe(1.25)],
    ['price-sum', (m: Record<string, unknown>) => expect(Math.round((m['yes_price'] as number) * 100) + Math.round((m['no_price'] as number) * 100)).toBe(105)],
  ] as const)('%s shows on both list and item', async (fault, check) => {
    const s = await stub();
    const id = await firstId(s);
    await s.setDeviations([{ name: fault, marketIds: [id] }]);
    const item = (await (await fetch(`${s.url}/markets/${id}`)).json()) as Record<string, unknown>;
    const listItem = ((await (await fetch(`${s.url}/markets`)).json()) as Record<string, unknown>[])[0] ?? {};
    check(item);
    check(listItem);
  });

  it('a shared deviation hits the same seeded share of markets on every start', async () => {
    const ids = async () => {
      const s = await stub({ count: 200, seed: 4, deviations: [{ name: 'non-active-status', rate: 0.2 }] });
      const list = (await (await fetch(`${s.url}/markets`)).json()) as { market_id: string; status: string }[];
      return list.filter((m) => m.status === 'suspended').map((m) => m.market_id);
    };
    const [a, b] = [await ids(), await ids()];
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(20);
    expect(a.length).toBeLessThan(60);
  });
});
