// `market-stub generate` streams: any count in flat memory, a reader that hangs up ends it cleanly,
// the bytes are those of JSON.stringify(markets, null, 2), and what it writes to --out is always
// something validate and serve --fixtures accept (split into files within the 64 MiB limit under
// --out DIR/, refused with the way round it for one --out FILE).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateMarket, generateMarkets } from '../../src/index.js';
import { CLI, countItems, runCliProcess } from '../support/cli-process.js';

const LIMIT = 64 * 2 ** 20;

describe('generate streams its output', () => {
  it('writes the same bytes as JSON.stringify(markets, null, 2) (seeds 1 and 7, 500 markets; 0 and 1 market)', async () => {
    for (const [seed, count] of [[1, 500], [7, 500], [7, 0], [7, 1]] as const) {
      const run = await runCliProcess(['generate', '--seed', String(seed), '--count', String(count), '--clock', '2026-01-01']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${JSON.stringify(generateMarkets(count, { seed, clock: '2026-01-01' }), null, 2)}\n`);
    }
  });

  // Flat memory as a property that cannot flake: the child's V8 heap is capped at 32 MiB while it
  // writes 114 MB; building the array first would need several times the cap and end in an
  // out-of-memory crash. The 10,000,000-market run with RSS sampled is in the reliability suite
  // (test/reliability/generate-memory.test.ts).
  it('pipes 500,000 markets (114 MB) to a reader with its heap capped at 32 MiB, every item arriving', async () => {
    const child = spawn(process.execPath, ['--max-old-space-size=32', CLI, 'generate', '--seed', '1', '--count', '500000', '--clock', '2026-01-01'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const sink = countItems(child.stdout);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/heap out of memory|unexpected failure|Please report|RangeError/);
    expect(code).toBe(0);
    expect(sink.items).toBe(500_000);
    expect(sink.tail.endsWith('}\n]\n')).toBe(true);
    expect(sink.bytes).toBeGreaterThan(100_000_000);
    expect(stderr).toContain('over the 64 MiB limit of one fixture file');
  }, 120_000);

  it('stops cleanly, exit 0 and nothing on stderr, when its reader hangs up (| head -c 1000)', async () => {
    const child = spawn(process.execPath, [CLI, 'generate', '--count', '100000000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let got = 0;
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        got += d.length;
        if (got >= 1000) {
          child.stdout.destroy();
          resolve();
        }
      });
    });
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 30_000);
});

describe('generate --out writes what validate and serve --fixtures accept', () => {
  it('refuses one file over the 64 MiB fixture-file limit, naming the limit and the ways round it, and writes nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-gen-limit-'));
    const out = path.join(dir, 'f.json');
    const run = await runCliProcess(['generate', '--count', '380000', '--seed', '3', '--clock', '2026-01-01', '--out', out], { timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('380000 markets exceed the 64 MiB limit of one fixture file');
    expect(run.stderr).toContain(`--out ${path.join(dir, 'f')}/`);
    expect(run.stderr).toContain('serve --count 380000 --seed 3 --clock 2026-01-01');
    expect(run.stderr).not.toContain('unexpected failure');
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('splits a catalog over the limit into files within it under --out DIR/, in catalog order, which validate accepts', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'market-stub-gen-split-')), 'large');
    const run = await runCliProcess(['generate', '--count', '380000', '--seed', '3', '--clock', '2026-01-01', '--out', `${dir}/`], { timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`wrote 380000 markets (seed 3, clock 2026-01-01) to ${dir}/ in 2 files`);
    const files = readdirSync(dir);
    expect(files).toEqual(['markets-00001.json', 'markets-00002.json']);
    for (const f of files) expect(statSync(path.join(dir, f)).size).toBeLessThanOrEqual(LIMIT);
    const markets = files.flatMap((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { market_id: string }[]);
    expect(markets).toHaveLength(380_000);
    for (const k of [0, 1, 290_000, 379_999]) expect(markets[k]).toEqual(generateMarket(k, { seed: 3, clock: '2026-01-01' }));
    const validate = await runCliProcess(['validate', dir], { timeoutMs: 60_000 });
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('380000 markets in 2 file(s) are valid');
  }, 120_000);

  it('refuses a DIR/ that already holds files, before generating anything', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-gen-held-'));
    mkdirSync(path.join(dir, 'set'));
    writeFileSync(path.join(dir, 'set', 'mine.json'), '[]\n');
    const run = await runCliProcess(['generate', '--count', '10', '--out', path.join(dir, 'set')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('it holds 1 entry (mine.json); generate writes a set into a missing or empty directory only');
    expect(readdirSync(path.join(dir, 'set'))).toEqual(['mine.json']);
    expect(readdirSync(dir)).toEqual(['set']);
  });
});
