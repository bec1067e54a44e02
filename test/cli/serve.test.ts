import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { getMarketValidator, type Market } from '../../src/index.js';
import { getText, runCliProcess, startServeProcess } from '../support/cli-process.js';

const FIXTURES = new URL('../../fixtures', import.meta.url).pathname;
const BAD = new URL('../data/bad-markets.json', import.meta.url).pathname;

/** Fetches the list and every item; returns the raw texts. */
async function snapshot(url: string): Promise<{ list: string; items: string[] }> {
  const list = (await getText(`${url}/markets`)).text;
  const ids = (JSON.parse(list) as Market[]).map((m) => m.market_id);
  const items = await Promise.all(ids.map(async (id) => (await getText(`${url}/markets/${encodeURIComponent(id)}`)).text));
  return { list, items };
}

describe('market-stub serve (generated)', () => {
  it('serves 250 valid markets whose list and item agree, with 2-decimal prices summing to 1 and future dates', async () => {
    const stub = await startServeProcess(['--port', '0', '--seed', '7', '--count', '250', '--clock', '2026-01-01']);
    try {
      expect(stub.output().stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ serving generated: 250 markets \(seed 7, clock 2026-01-01\)/);
      const { list, items } = await snapshot(stub.url);
      const summaries = JSON.parse(list) as Market[];
      expect(summaries).toHaveLength(250);
      const v = getMarketValidator();
      summaries.forEach((s, i) => {
        expect(v.summary(s)).toEqual([]);
        expect(s).not.toHaveProperty('resolution_date');
        const itemText = items[i] ?? '';
        const item = JSON.parse(itemText) as Market;
        expect(v.market(item)).toEqual([]);
        const { resolution_date, ...shared } = item;
        expect(shared).toEqual(s);
        expect(resolution_date > '2026-01-01').toBe(true);
        for (const price of itemText.match(/"(yes|no)_price":[^,}]+/g) ?? []) expect(price).toMatch(/:0\.\d{1,2}$/);
        expect(Math.round(item.yes_price * 100) + Math.round(item.no_price * 100)).toBe(100);
      });
    } finally {
      await stub.stop();
    }
  });

  it('gives byte-identical bodies for the same seed/count/clock, other markets for another seed, and --count 10 as a prefix of --count 250', async () => {
    const args = ['--port', '0', '--count', '250', '--clock', '2026-01-01', '--quiet'];
    const [a, b, c, d] = await Promise.all([
      startServeProcess([...args, '--seed', '7']),
      startServeProcess([...args, '--seed', '7']),
      startServeProcess([...args, '--seed', '8']),
      startServeProcess(['--port', '0', '--count', '10', '--clock', '2026-01-01', '--seed', '7', '--quiet']),
    ]);
    try {
      const [sa, sb, sc, sd] = await Promise.all([snapshot(a.url), snapshot(b.url), snapshot(c.url), snapshot(d.url)]);
      expect(sb.list).toBe(sa.list);
      expect(sb.items).toEqual(sa.items);
      expect(sc.list).not.toBe(sa.list);
      const ids = (s: { list: string }) => (JSON.parse(s.list) as Market[]).map((m) => m.market_id);
      expect(ids(sc).filter((id) => ids(sa).includes(id))).toEqual([]);
      expect(JSON.parse(sd.list)).toEqual((JSON.parse(sa.list) as Market[]).slice(0, 10));
      expect(sd.items).toEqual(sa.items.slice(0, 10));
    } finally {
      await Promise.all([a, b, c, d].map((s) => s.stop()));
    }
  });

  it('reads options from the environment (MARKET_STUB_* and plain PORT/HOST)', async () => {
    const stub = await startServeProcess([], { env: { PORT: '0', HOST: '127.0.0.1', MARKET_STUB_COUNT: '3', MARKET_STUB_SEED: '5', MARKET_STUB_CLOCK: '2026-01-01' } });
    try {
      expect(stub.output().stdout).toContain('generated: 3 markets (seed 5, clock 2026-01-01)');
      expect(JSON.parse((await getText(`${stub.url}/markets`)).text)).toHaveLength(3);
    } finally {
      await stub.stop();
    }
  });

  it('logs one line per request with method, path, status and ms: text with --log-format text, JSON lines by default when piped', async () => {
    const text = await startServeProcess(['--port', '0', '--count', '2', '--log-format', 'text']);
    const json = await startServeProcess(['--port', '0', '--count', '2']);
    try {
      await getText(`${text.url}/markets/nope`);
      await getText(`${json.url}/markets`);
      // The request line is written after the answer: wait for it (a fixed 100 ms missed it on a loaded machine).
      await expect.poll(() => text.output().stdout, { timeout: 5000 }).toMatch(/INFO: GET \/markets\/nope 404 \d+\.\d ms/);
      await expect.poll(() => json.output().stdout, { timeout: 5000 }).toContain('"path":"/markets"');
      const lines = json.output().stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ msg: expect.stringContaining('listening on http://127.0.0.1:'), source: 'generated', count: 2, seed: 1 });
      expect(lines.find((l) => l['path'] === '/markets')).toMatchObject({ method: 'GET', status: 200, ms: expect.any(Number) });
    } finally {
      await Promise.all([text.stop(), json.stop()]);
    }
  });

  it('--quiet keeps the ready line and drops request lines', async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '2', '--quiet']);
    try {
      await getText(`${stub.url}/markets`);
      await new Promise((r) => setTimeout(r, 100));
      expect(stub.output().stdout.trim().split('\n')).toHaveLength(1);
    } finally {
      await stub.stop();
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s lets an in-flight request finish, then exits 0 within a second', async (signal) => {
    const stub = await startServeProcess(['--port', '0', '--count', '1000', '--quiet']);
    const inflight = fetch(`${stub.url}/markets`).then(async (r) => ({ status: r.status, length: (await r.text()).length }));
    const keepAlive = await fetch(`${stub.url}/healthz`);
    expect(keepAlive.status).toBe(200);
    const { code, ms } = await stub.stop(signal);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(1000);
    const done = await inflight;
    expect(done.status).toBe(200);
    expect(done.length).toBeGreaterThan(1000);
  });

  it('--port 0 picks a free port; a taken port exits 2 with a clear message', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const res = await runCliProcess(['serve', '--port', String(port)]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      blocker.close();
    }
  });
});

describe('market-stub serve --fixtures', () => {
  it('serves the real-sample markets unchanged, in file order', async () => {
    const stub = await startServeProcess(['--port', '0', '--fixtures', FIXTURES]);
    try {
      const expected = JSON.parse(readFileSync(`${FIXTURES}/markets.json`, 'utf8')) as Market[];
      expect(expected.length).toBeGreaterThanOrEqual(20);
      expect(stub.output().stdout).toContain(`fixtures: ${expected.length} markets from ${FIXTURES}`);
      const list = JSON.parse((await getText(`${stub.url}/markets`)).text) as Market[];
      expect(list.map((m) => m.market_id)).toEqual(expected.map((m) => m.market_id));
      for (const market of expected) {
        const res = await getText(`${stub.url}/markets/${encodeURIComponent(market.market_id)}`);
        expect(res.status).toBe(200);
        expect(res.text).toBe(JSON.stringify(market));
      }
    } finally {
      await stub.stop();
    }
  });

  it('refuses bad fixtures: exit 2, one message per problem with file and pointer, no port bound', async () => {
    const res = await runCliProcess(['serve', '--port', '0', '--fixtures', BAD]);
    expect(res.code).toBe(2);
    expect(res.stdout).not.toContain('listening');
    const lines = res.stderr.split('\n').filter((l) => l.startsWith('  - '));
    expect(lines).toEqual([
      `  - ${BAD}: market [1] at /1/yes_price: expected number, found "0.63"`,
      `  - ${BAD}: market [2] at /2/resolution_date: expected a calendar date YYYY-MM-DD, found "2026-02-30"`,
      `  - ${BAD}: market [3] at /3/title: expected a value (required field), found nothing (missing)`,
      `  - ${BAD}: market [4] at /4/market_id: expected a market_id unique across the fixture set, found "ok-1", already at ${BAD} /0`,
    ]);
    expect(res.stderr).toContain(`market-stub validate ${BAD}`);
  });

  it.each([
    ['a missing path', '/no/such/fixtures.json', 'expected a readable JSON file or directory, found no such file or directory'],
    ['bad JSON', new URL('../data/broken.json', import.meta.url).pathname, 'expected valid JSON, found invalid JSON at line 2, column 1'],
  ])('refuses %s with exit 2', async (_label, path, message) => {
    const res = await runCliProcess(['serve', '--port', '0', '--fixtures', path]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stdout).toBe('');
  });
});
