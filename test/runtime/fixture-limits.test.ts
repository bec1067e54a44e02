import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateMarkets } from '../../src/file-system/build-catalog.js';
import { readFixtures, type FixtureError } from '../../src/file-system/load-fixtures.js';
import { runCliProcess } from '../support/cli-process.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ms-fx-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));
const market = (id: string, extra: Record<string, unknown> = {}) => ({ market_id: id, title: `Will ${id}?`, status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01', ...extra });

describe('fixture files: regular files only, bounded', () => {
  it('a FIFO as --fixtures, in a fixtures directory, or as --behaviours never hangs: exit 2 at once', async () => {
    const fifo = path.join(root, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    const dir = path.join(root, 'with-fifo');
    await mkdir(dir);
    await writeFile(path.join(dir, 'a.json'), JSON.stringify([market('a')]));
    execFileSync('mkfifo', [path.join(dir, 'b.json')]);
    for (const args of [['--fixtures', fifo], ['--fixtures', dir], ['--behaviours', fifo]]) {
      const t = performance.now();
      const res = await runCliProcess(['serve', '--port', '0', ...args], { timeoutMs: 10_000 });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/FIFO/);
      expect(performance.now() - t).toBeLessThan(5_000);
    }
  });

  it('--behaviours /dev/zero is refused as a device, without reading it', async () => {
    const res = await runCliProcess(['serve', '--port', '0', '--behaviours', '/dev/zero'], { timeoutMs: 10_000 });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('/dev/zero is a device, not a regular file');
  });

  it('/dev/zero as fixtures is one located problem', async () => {
    const load = await readFixtures('/dev/zero');
    expect(load.problems).toEqual([expect.objectContaining({ file: '/dev/zero', found: 'a device' })]);
  });

  it('more than 10,000 fixture files are one problem, not 10,001 reads', async () => {
    const dir = path.join(root, 'many');
    await mkdir(dir);
    await Promise.all(Array.from({ length: 10_001 }, (_, i) => writeFile(path.join(dir, `f${i}.json`), '[')));
    const load = await readFixtures(dir);
    expect(load.problems).toEqual([expect.objectContaining({ code: 'too-many-files', found: '10001 files' })]);
  });

  it('thousands of problems: the first 100 in findings and in the message, the rest counted', async () => {
    const items = Array.from({ length: 3_000 }, (_, i) => ({ market_id: `x${i}` }));
    try {
      validateMarkets(items, 'stub.setMarkets');
      expect.unreachable();
    } catch (error) {
      const e = error as FixtureError;
      expect(e.findings).toHaveLength(100);
      expect(e.more).toBe(15_000 - 100);
      expect(e.message.split('\n').length).toBe(102);
      expect(e.message).toContain('(15000 problems)');
      expect(e.message).toMatch(/… and 14900 more problem\(s\), not listed/);
    }
  });
});

describe('one pass reports every problem', () => {
  it('duplicate market_ids are reported among invalid markets too (validate and fixtures)', async () => {
    const file = path.join(root, 'dups.json');
    await writeFile(file, JSON.stringify([market('d1', { yes_price: 'x' }), market('d1'), market('d2'), market('d2', { title: 5 })]));
    const load = await readFixtures(file);
    expect(load.problems.map((p) => `${p.code} ${p.pointer}`)).toEqual(['type /0/yes_price', 'duplicate-id /1/market_id', 'type /3/title', 'duplicate-id /3/market_id']);
    expect(load.markets.map((m) => m.market_id)).toEqual(['d2']);
    const res = await runCliProcess(['validate', file]);
    expect(res.code).toBe(1);
    expect(res.stdout + res.stderr).toContain('/1/market_id: expected a market_id unique across the fixture set, found "d1"');
  });
});
