// `generate` streams any count in flat memory: 10,000,000 markets (2.3 GB; 2,000,000 in --quick)
// piped to a reader with the child's V8 heap capped at 32 MiB and its RSS sampled from /proc. The
// quick 500,000-market form of this property is in `npm test` (test/cli/generate-stream.test.ts).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, countItems } from '../support/cli-process.js';
import { figure, QUICK, rssOf } from './reliability-support.js';

const MiB = 2 ** 20;
const COUNT = QUICK ? 2_000_000 : 10_000_000;

describe('generate memory', () => {
  it(`pipes ${COUNT} markets to a reader with a 32 MiB heap and RSS under 256 MiB`, async () => {
    const child = spawn(process.execPath, ['--max-old-space-size=32', CLI, 'generate', '--seed', '1', '--count', String(COUNT), '--clock', '2026-01-01'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = child.pid ?? 0;
    let peak = 0;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssOf(pid));
      } catch {
        // The child has exited between two samples.
      }
    }, 250);
    const sink = countItems(child.stdout);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    clearInterval(sampler);
    figure('generate memory', `${COUNT} markets, ${(sink.bytes / MiB).toFixed(0)} MiB piped in ${((performance.now() - started) / 1000).toFixed(1)} s with --max-old-space-size=32: peak RSS ${(peak / MiB).toFixed(0)} MiB`);
    expect(stderr).not.toMatch(/heap out of memory|unexpected failure|Please report|RangeError/);
    expect(code).toBe(0);
    expect(sink.items).toBe(COUNT);
    expect(sink.tail.endsWith('}\n]\n')).toBe(true);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(256 * MiB);
  });
});
