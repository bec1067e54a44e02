import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { startMarketStub } from '../../src/index.js';
import { waitForTitle, WATCH_PATTERNS } from '../support/watch-patterns.js';

// npm test runs each pattern a few times; the reliability suite runs each 100 times in a row.
const ROUNDS = Number(process.env['MARKET_STUB_WATCH_ROUNDS'] ?? 3);

describe('--watch never goes deaf', () => {
  it.each(Object.keys(WATCH_PATTERNS))(`%s: picked up ${ROUNDS} times in a row, each reload logged`, async (name) => {
    const pattern = WATCH_PATTERNS[name]!;
    const root = await mkdtemp(path.join(tmpdir(), 'ms-watch-'));
    const info: string[] = [];
    const logger = { info: (_o: unknown, m: string) => info.push(m), warn: () => undefined, error: () => undefined } as unknown as Logger;
    try {
      const set = await pattern.setUp(root);
      const stub = await startMarketStub({ fixtures: set.location, watch: true, logger, errorLog: () => undefined });
      try {
        for (let round = 1; round <= ROUNDS; round++) {
          await pattern.write(set, `v${round}`, round);
          expect(await waitForTitle(`${stub.url}/markets/w-1`, `v${round}`), `round ${round}`).toBe(true);
        }
        expect(info.filter((m) => m.startsWith('fixtures reloaded: 1 markets')).length).toBeGreaterThanOrEqual(ROUNDS);
      } finally {
        await stub.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 30_000 + ROUNDS * 1_000);

  it('an invalid change is refused with a logged warning (even with no request log), then a valid one is picked up', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'ms-watch-'));
    const file = path.join(root, 'markets.json');
    const warnings: string[] = [];
    try {
      await writeFile(file, JSON.stringify([{ market_id: 'w-1', title: 'v0', status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2027-01-01' }]));
      const stub = await startMarketStub({ fixtures: file, watch: true, errorLog: (l) => warnings.push(l) });
      try {
        await writeFile(file, '[{"market_id":');
        for (let i = 0; i < 400 && warnings.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
        expect(warnings[0]).toMatch(/^market-stub: warning: fixtures changed but are invalid; still serving the previous data\./);
        expect(warnings[0]).toContain('expected valid JSON');
        expect(((await (await fetch(`${stub.url}/markets/w-1`)).json()) as { title: string }).title).toBe('v0');
        await writeFile(file, JSON.stringify([{ market_id: 'w-1', title: 'v1', status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2027-01-01' }]));
        expect(await waitForTitle(`${stub.url}/markets/w-1`, 'v1')).toBe(true);
        await rm(file);
        for (let i = 0; i < 400 && warnings.length < 2; i++) await new Promise((r) => setTimeout(r, 25));
        expect(warnings[1]).toContain('no such file or directory');
        expect(((await (await fetch(`${stub.url}/markets/w-1`)).json()) as { title: string }).title).toBe('v1');
      } finally {
        await stub.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
