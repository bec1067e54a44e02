// `npx market-stub serve` as a user runs it from a project that installed the packed tarball: a
// real npm 11 wrapper (npm exec → sh -c → node). Stopping the wrapper must stop the stub, so the
// next start finds its port free (src/cli.ts, stopWhenOrphaned); started without a wrapper, the
// stub outlives the shell that put it in the background, as a daemon may. Runs after `npm run build`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const unix = process.platform !== 'win32';
let project: string;
const groups: ChildProcess[] = [];
const strays: number[] = [];

/** npm with the test runner's own npm_* variables removed (the user's shell has none of them). */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
  return { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

beforeAll(() => {
  project = mkdtempSync(path.join(tmpdir(), 'market-stub-npx-'));
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(packed.status, packed.stderr).toBe(0);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  writeFileSync(path.join(project, 'package.json'), '{ "name": "npx-user", "private": true }\n');
  const installed = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '-D', `./${filename}`], { cwd: project, env: userEnv(), encoding: 'utf8', timeout: 240_000 });
  expect(installed.status, installed.stderr).toBe(0);
}, 300_000);

afterEach(() => {
  for (const g of groups.splice(0)) {
    try {
      if (g.pid !== undefined) process.kill(-g.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

/** A port nothing listens on now (the kernel's pick, closed again). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether a new server can bind 127.0.0.1:port: what the next `serve --port` needs. */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Starts `command` in its own process group; resolves with the ready line's pid-free text once it is printed. */
function startReady(command: string, args: readonly string[]): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: project, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    groups.push(child);
    let text = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const timer = setTimeout(() => reject(new Error(`not ready within 60 s:\n${text}`)), 60_000);
    const read = (d: Buffer) => {
      text += d.toString();
      if (!/listening on http/.test(text)) return;
      clearTimeout(timer);
      resolve({ child, output: () => text, exited });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then((code) => reject(new Error(`exited with ${code} before it was ready:\n${text}`)));
  });
}

/** Waits up to `ms` for the port to be bindable again; true when it is. */
async function freedWithin(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await canBind(port)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return canBind(port);
}

/** The pid of the process listening on a port, read from `ss` (iproute2), or undefined. */
function listenerPid(port: number): number | undefined {
  const r = spawnSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(r.stdout ?? '');
  return m ? Number(m[1]) : undefined;
}

describe.skipIf(!unix)('npx market-stub serve beside its wrapper (the packed tarball, installed)', () => {
  it('SIGTERM to npx stops the stub: its port is free for the next start', async () => {
    const port = await freePort();
    const s = await startReady('npx', ['market-stub', 'serve', '--port', String(port), '--count', '3']);
    expect(await canBind(port)).toBe(false);
    const pid = listenerPid(port);
    if (pid !== undefined) strays.push(pid);
    s.child.kill('SIGTERM');
    await s.exited;
    expect(await freedWithin(port, 5_000), `port ${port} is still held after npx exited:\n${s.output()}`).toBe(true);
    // The next start on the same port works.
    const again = await startReady('npx', ['market-stub', 'serve', '--port', String(port), '--count', '3']);
    expect(again.output()).toContain(`:${port}`);
    again.child.kill('SIGTERM');
    await again.exited;
    expect(await freedWithin(port, 5_000)).toBe(true);
  }, 120_000);

  it('npm exec behaves the same', async () => {
    const port = await freePort();
    const s = await startReady('npm', ['exec', '--', 'market-stub', 'serve', '--port', String(port), '--count', '3']);
    s.child.kill('SIGTERM');
    await s.exited;
    expect(await freedWithin(port, 5_000), s.output()).toBe(true);
  }, 120_000);

  it('started without a wrapper and put in the background by a shell that then exits, the stub goes on serving (a daemon may)', async () => {
    const port = await freePort();
    const shell = spawnSync('sh', ['-c', `./node_modules/.bin/market-stub serve --port ${port} --count 3 >/dev/null 2>&1 &`], { cwd: project, env: userEnv(), timeout: 10_000 });
    expect(shell.status).toBe(0);
    let pid: number | undefined;
    for (let i = 0; i < 100 && pid === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      pid = listenerPid(port);
    }
    expect(pid, 'the stub never listened').toBeDefined();
    strays.push(pid as number);
    await new Promise((r) => setTimeout(r, 1_000));
    const answer = await fetch(`http://127.0.0.1:${port}/markets`);
    expect(answer.status).toBe(200);
    process.kill(pid as number, 'SIGTERM');
    expect(await freedWithin(port, 5_000)).toBe(true);
  }, 60_000);
});
