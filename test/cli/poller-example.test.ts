import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startMarketStub } from '../../src/index.js';
import { npmStart, ROOT, stopNpm, type NpmStarted } from '../support/npm-start.js';

// examples/poller.mjs, the dashboard-style poller docs/caching.md shows, run as a reader runs it:
// against `npm start -- --clock-rate 60` (a real process tree; prices step every real second), for
// a few seconds. It must see prices change on 200s and nothing change on 304s, and against a frozen
// clock one 200 and only 304s after it.
const run = promisify(execFile);
const POLLER = path.join(ROOT, 'examples/poller.mjs');
const started: NpmStarted[] = [];
afterAll(async () => {
  for (const s of started.splice(0)) await stopNpm(s);
});

interface Polled { lines: string[]; polls: number; ok: number; notModified: number; changes: number }

/** Runs the poller for `seconds` (killed at 3× that): its lines and its closing counts. */
async function poll(url: string, seconds: number): Promise<Polled> {
  const { stdout } = await run(process.execPath, [POLLER, url, '--interval', '200', '--for', String(seconds)], { timeout: seconds * 3000 });
  const lines = stdout.trim().split('\n');
  const summary = /^(\d+) polls in [\d.]+ s: (\d+) × 200, (\d+) × 304, (\d+) price changes$/.exec(lines.at(-1) ?? '');
  expect(summary, stdout).not.toBeNull();
  const [polls, ok, notModified, changes] = summary!.slice(1).map(Number) as [number, number, number, number];
  return { lines, polls, ok, notModified, changes };
}

describe('examples/poller.mjs', () => {
  it('against npm start -- --clock-rate 60: 200s exactly when prices moved, 304s in between', async () => {
    const stub = await npmStart(['--clock-rate', '60']);
    started.push(stub);
    const polled = await poll(stub.url, 5);
    expect(polled.lines[0]).toBe('200 100 markets');
    const changed = polled.lines.filter((l) => l.startsWith('200 ') && l.includes('prices changed'));
    // Five seconds at a minute a second: about five price steps; each later 200 moved some price.
    expect(changed.length).toBeGreaterThanOrEqual(2);
    for (const line of changed) expect(line).toMatch(/^200 [1-9]\d* prices changed: \S+ 0\.\d+ → 0\.\d+/);
    expect(polled.ok).toBe(changed.length + 1);
    expect(polled.notModified).toBeGreaterThanOrEqual(1);
    expect(polled.polls).toBe(polled.ok + polled.notModified);
    expect(polled.changes).toBeGreaterThan(0);
  }, 90_000);

  it('against a frozen clock (the default): one 200, then only 304s and no change', async () => {
    const stub = await startMarketStub({ seed: 1, count: 20 });
    try {
      const polled = await poll(stub.url, 2);
      expect(polled.lines).toHaveLength(2);
      expect(polled.lines[0]).toBe('200 20 markets');
      expect(polled).toMatchObject({ ok: 1, changes: 0 });
      expect(polled.notModified).toBe(polled.polls - 1);
      expect(polled.notModified).toBeGreaterThanOrEqual(3);
    } finally {
      await stub.close();
    }
  }, 30_000);

  it('exits 1 saying the stub cannot be reached, and 2 for a bad interval', async () => {
    await expect(run(process.execPath, [POLLER, 'http://127.0.0.1:9', '--for', '1'], { timeout: 15_000 })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('is the stub running?') });
    await expect(run(process.execPath, [POLLER, '--interval', '0'], { timeout: 15_000 })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--interval takes 50 to 3600000 ms') });
  }, 30_000);
});
