// Two record runs into one DIR cannot both claim success: the later one fails naming the run that
// holds DIR's lock (pid, host, start), a lock left by a killed run of this host is taken over, and
// a lock of another host is never taken over.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCliProcess, type CliResult } from '../support/cli-process.js';
import { conformingMarkets, json, summaryOf, withServer, type RawMarket } from './deviant-server.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-record-lock-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const markets = conformingMarkets(12);
/** A deployment whose single answers take `delayMs` each, so two crawls of it overlap. */
const slow = (delayMs: number) => ({
  list: () => json(markets.map((m: RawMarket) => summaryOf(m))),
  single: (id: string) => {
    const m = markets.find((x) => x['market_id'] === id);
    return m ? { ...json(m), delayMs } : undefined;
  },
});

/** Runs `record` as a child process, resolving with its pid and result. */
function recordRun(args: readonly string[]): { pid: number; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, 'record', ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { pid: child.pid ?? 0, done };
}

/** A pid that is certainly not running: one of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}

describe('record into one DIR from two runs at once', () => {
  it('lets one run write the set; the other fails (exit 2) naming the run that holds DIR, and changes nothing', async () => {
    await withServer(markets, slow(1_000), async (server) => {
      const out = path.join(work, 'contended');
      const first = recordRun(['--base-url', server.url, '--all', '--out', out]);
      // The first run takes the lock before its crawl starts; the second starts while it crawls.
      const deadline = Date.now() + 10_000;
      while (!(await readdir(work)).includes('.contended.market-stub-lock')) {
        if (Date.now() > deadline) throw new Error('the first run took no lock on DIR within 10 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      const second = recordRun(['--base-url', server.url, '--all', '--out', out]);
      const [a, b] = await Promise.all([first.done, second.done]);
      expect(a.code).toBe(0);
      expect(a.stderr).toContain(`wrote 12 markets to ${path.join(out, 'markets.json')}`);
      expect(b.code).toBe(2);
      expect(b.stderr).toContain(`another run (pid ${first.pid} on host ${hostname()}, started `);
      expect(b.stderr).toContain('is writing it');
      expect(b.stderr).not.toContain('wrote');
      expect(b.stderr).not.toContain('unexpected failure');
      const recorded = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(recorded.map((m) => m['market_id'])).toEqual(markets.map((m) => m['market_id']));
      // The lock is gone with the run that held it.
      expect((await readdir(work)).filter((n) => n.includes('lock'))).toEqual([]);
    });
  }, 60_000);

  it('takes over the lock of a killed run of this host, and refuses the lock of another host', async () => {
    await withServer(markets, slow(0), async (server) => {
      const out = path.join(work, 'stale');
      const lock = path.join(work, '.stale.market-stub-lock');
      await writeFile(lock, JSON.stringify({ pid: await deadPid(), host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
      const taken = await runCliProcess(['record', '--base-url', server.url, '--all', '--out', out]);
      expect(taken.code).toBe(0);
      expect((await readdir(work)).filter((n) => n.startsWith('.stale.'))).toEqual([]);

      await writeFile(lock, JSON.stringify({ pid: process.pid, host: 'build-agent-7', started: '2026-01-01T00:00:00.000Z' }));
      const before = await readFile(path.join(out, 'markets.json'), 'utf8');
      const refused = await runCliProcess(['record', '--base-url', server.url, '--all', '--out', out]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`another run (pid ${process.pid} on host build-agent-7, started 2026-01-01T00:00:00.000Z) is writing it`);
      expect(refused.stderr).toContain(`if that run is gone, delete ${lock}`);
      expect(await readFile(path.join(out, 'markets.json'), 'utf8')).toBe(before);
      expect(await readFile(lock, 'utf8')).toContain('build-agent-7');
    });
  }, 60_000);
});
