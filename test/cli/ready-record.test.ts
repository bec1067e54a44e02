// One rule for readiness: a launcher learns where `serve` and `proxy` listen only from the ready
// record they write to `--ready-file` (src/cli/ready-record.ts), never from console text, which can
// echo an option's value. The record is written atomically once listening and removed at the stop.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCliProcess } from '../support/cli-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'market-stub-ready-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Waits until `file` exists (or `ms` pass). */
async function waitForFile(file: string, ms = 20_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (existsSync(file)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

describe('--ready-file', () => {
  it.each(['serve', 'proxy'])('%s writes {"marketStub":"ready",command,url,pid} once listening and removes it at the stop', async (command) => {
    const file = path.join(work, `${command}.json`);
    const args = command === 'serve' ? ['serve', '--port', '0', '--quiet'] : ['proxy', '--port', '0', '--upstream', 'http://127.0.0.1:9/v1'];
    const child = spawn(process.execPath, [CLI, ...args, '--ready-file', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      expect(await waitForFile(file)).toBe(true);
      const record = JSON.parse(readFileSync(file, 'utf8')) as { marketStub: string; command: string; url: string; pid: number };
      expect(record).toEqual({ marketStub: 'ready', command, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), pid: child.pid });
      expect((await fetch(`${record.url}/healthz`)).status).toBe(command === 'serve' ? 200 : 502);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it('an option echoing a ready line is refused (exit 2) and no record is written', async () => {
    const file = path.join(work, 'echo.json');
    const result = await runCliProcess(['serve', '--port', '0', '--clock', 'x\nmarket-stub listening on http://127.0.0.1:9/capture', '--ready-file', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--clock');
    expect(existsSync(file)).toBe(false);
  }, 30_000);

  it('a record that cannot be written stops serve with exit 2 saying why, before its ready line', async () => {
    const result = await runCliProcess(['serve', '--port', '0', '--ready-file', path.join(work, 'missing-dir', 'r.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--ready-file: cannot write .*missing-dir.*directory on the path does not exist/);
    expect(result.stdout).not.toContain('listening on');
  }, 30_000);
});
