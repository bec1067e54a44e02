// Proves the benchmark harness runs end to end without loading the machine: `--smoke` is 100
// markets, 4 connections, one 0.2 s run per server and endpoint, no scale check. It asserts the
// harness produced every figure and ratio, never what the figures are (no timing assertions).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../../bench/bench-results.js';
import { median } from '../../bench/bench-stats.js';
import { renderTable } from '../../bench/render-report.js';
import { ROOT, runBenchScript } from './run-script.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const runHarness = (args: string[]) => runBenchScript('bench/run-bench.ts', args, 45_000);

const positive = (v: number | null | undefined) => typeof v === 'number' && Number.isFinite(v) && v > 0;
const STUBS = ['stub-generated', 'stub-fixtures', 'stub-quiet'] as const;

describe('bench harness (npm run bench -- --smoke)', () => {
  it('runs the baseline and the three stub configurations and reports every figure with its ratio', { timeout: 60_000 }, async () => {
    const json = path.join(tmp, 'smoke.json');
    const resultsMd = path.join(ROOT, 'bench/RESULTS.md');
    const mdBefore = (() => {
      try {
        return statSync(resultsMd).mtimeMs;
      } catch {
        return null;
      }
    })();

    const { code, stdout, stderr } = await runHarness(['--smoke', '--json', json]);
    expect(code, stderr).toBe(0);

    const results = JSON.parse(readFileSync(json, 'utf8')) as BenchResults;
    expect(results.mode).toBe('smoke');
    expect(results.settings.count).toBe(100);
    for (const endpoint of ['market', 'list'] as const) {
      for (const server of ['baseline', 'stub-generated', 'stub-fixtures', 'stub-quiet'] as const) {
        const m = results.load[endpoint]?.[server];
        expect(m?.rounds, `${endpoint} ${server}`).toHaveLength(1);
        expect(positive(m?.median.reqPerSec), `${endpoint} ${server} req/s`).toBe(true);
        expect(positive(m?.median.p99Ms), `${endpoint} ${server} p99`).toBe(true);
        expect(m?.median.p50Ms).toBeLessThanOrEqual(m?.median.p99Ms ?? 0);
      }
    }
    // Every comparative figure has a baseline value and a ratio for each stub configuration.
    expect(results.figures.map((f) => f.id)).toEqual([
      'market.reqPerSec', 'market.p50Ms', 'market.p99Ms', 'market.cpuUsPerReq',
      'list.reqPerSec', 'list.p50Ms', 'list.p99Ms', 'list.cpuUsPerReq',
      'coldStartMs', 'rssAfterLoadMb', 'peakRssMb',
    ]);
    for (const f of results.figures) {
      // CPU per request needs procfs (Linux); everything else must be there on any system.
      if (f.id.endsWith('cpuUsPerReq') && process.platform !== 'linux') continue;
      expect(positive(f.baseline), `${f.id} baseline`).toBe(true);
      for (const stub of STUBS) {
        expect(positive(f.stubs[stub].ratio), `${f.id} ${stub} ratio`).toBe(true);
        expect(f.stubs[stub].ratio).toBeCloseTo((f.stubs[stub].value ?? 0) / (f.baseline ?? 1), 9);
      }
    }
    // Each ratio goal carries a verdict; the figure values decide which.
    const goalOf = (id: string, stub: (typeof STUBS)[number]) => results.figures.find((f) => f.id === id)?.stubs[stub].goal;
    expect(goalOf('market.reqPerSec', 'stub-generated')).toMatchObject({ op: '>=', limit: 0.5 });
    expect(goalOf('market.reqPerSec', 'stub-fixtures')).toMatchObject({ op: '>=', limit: 0.5 });
    expect(goalOf('market.reqPerSec', 'stub-quiet')).toMatchObject({ op: '>=', limit: 0.8 });
    expect(goalOf('market.p99Ms', 'stub-fixtures')).toMatchObject({ op: '<=', limit: 1.5 });
    expect(goalOf('list.reqPerSec', 'stub-generated')).toMatchObject({ op: '>=', limit: 0.8 });
    expect(goalOf('coldStartMs', 'stub-generated')).toMatchObject({ op: '<=', limit: 1.5 });
    expect(goalOf('coldStartMs', 'stub-fixtures')).toMatchObject({ op: '<=', limit: 1.5 });
    expect(goalOf('coldStartMs', 'stub-quiet')).toBeNull();
    expect(goalOf('rssAfterLoadMb', 'stub-fixtures')).toBeNull();
    expect(goalOf('peakRssMb', 'stub-quiet')).toMatchObject({ op: '<=', limit: 1.5 });
    // Load figures also carry the median of per-round ratios (each round's stub ÷ that round's
    // baseline), and their verdicts are taken on it; the other figures' on the ratio of medians.
    const loadFigure = (id: string) => id.startsWith('market.') || id.startsWith('list.');
    for (const f of results.figures) {
      for (const stub of STUBS) {
        const cell = f.stubs[stub];
        if (loadFigure(f.id)) {
          if (f.id.endsWith('cpuUsPerReq') && process.platform !== 'linux') continue;
          const [endpoint, field] = f.id.split('.') as ['market' | 'list', 'reqPerSec' | 'p50Ms' | 'p99Ms' | 'cpuUsPerReq'];
          const base = new Map(results.load[endpoint]?.baseline?.rounds.map((r) => [r.round, r[field]]));
          const ratios = (results.load[endpoint]?.[stub]?.rounds ?? []).flatMap((r) => {
            const b = base.get(r.round);
            return r[field] !== null && b ? [(r[field] as number) / b] : [];
          });
          expect(ratios.length, `${f.id} ${stub} paired rounds`).toBe(results.settings.rounds);
          expect(cell.pairedRatio).toBeCloseTo(median(ratios), 9);
        } else {
          expect(cell.pairedRatio, `${f.id} ${stub}`).toBeNull();
        }
        const judged = loadFigure(f.id) ? cell.pairedRatio : cell.ratio;
        if (cell.goal && judged !== null) expect(cell.goal.pass).toBe(cell.goal.op === '>=' ? judged >= cell.goal.limit : judged <= cell.goal.limit);
      }
    }

    // The stubs logged their requests (default options) to a file, not to the harness.
    expect(results.servers['stub-generated']?.logLines).toBeGreaterThan(results.load.market?.['stub-generated']?.rounds[0]?.requests ?? Infinity);
    expect(results.servers['stub-generated']?.sampleLogLine).toMatch(/GET \/markets/);

    // The quiet stub logged nothing but its ready line.
    expect(results.servers['stub-quiet']?.logLines).toBe(1);

    // Micro-benchmarks ran; the scale checks and the checker are skipped in smoke mode and say so.
    expect(positive(results.micro?.generation.marketsPerSecond)).toBe(true);
    expect(positive(results.micro?.validation.isMarketPerSecond)).toBe(true);
    expect(positive(results.micro?.startStub.firstReadyMedianMs)).toBe(true);
    expect(positive(results.micro?.importTime.medianMs)).toBe(true);
    expect(results.scale).toBeNull();
    for (const id of ['scaleStartMs', 'helpRatio', 'firstListMs', 'streamMbPerSecond']) {
      expect(results.goals.find((g) => g.id === id), id).toMatchObject({ pass: null, display: 'skipped in this mode' });
    }
    expect(results.goals.find((g) => g.id === 'generationRate')?.pass).not.toBeNull();
    expect(results.checker).toEqual([]);

    // A run whose baseline CPU per request swings across rounds (the machine changed speed) says so; a steady one does not.
    const withBaselineRounds = (cpus: number[]): BenchResults => {
      const copy = structuredClone(results);
      const baseline = copy.load.market?.baseline;
      const round = baseline?.rounds[0];
      if (!baseline || !round) throw new Error('smoke results without a baseline round');
      baseline.rounds = cpus.map((cpuUsPerReq, i) => ({ ...round, round: i + 1, cpuUsPerReq }));
      return copy;
    };
    const swingNote = /baseline's server CPU per request on GET \/markets\/\{id\} ranged 8\.0–12\.0 µs across rounds \(1\.50×\)/;
    expect(renderTable(withBaselineRounds([8, 12, 9]))).toMatch(swingNote);
    expect(renderTable(withBaselineRounds([8, 8.4, 8.2]))).not.toMatch(/GET \/markets\/\{id\} ranged/);

    // The table went to stdout; a smoke run never rewrites the committed RESULTS.md.
    expect(stdout).toMatch(/GET \/markets\/\{id\} req\/s\s+req\/s\s+[\d,]+\s+[\d,]+\s+[\d.]+×/);
    expect(stdout).toContain('stub-fixtures');
    expect(stdout).toContain('stub-quiet');
    const mdAfter = (() => {
      try {
        return statSync(resultsMd).mtimeMs;
      } catch {
        return null;
      }
    })();
    expect(mdAfter).toBe(mdBefore);
  });

  it('rejects a bad option with exit 2, naming the option and what it expects', async () => {
    const { code, stderr } = await runHarness(['--rounds', 'many']);
    expect(code).toBe(2);
    expect(stderr).toContain('--rounds: expected an integer ≥ 1, found "many"');
    expect(stderr).toContain('Usage: npm run bench');
  });
});
