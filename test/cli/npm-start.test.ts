import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `npm start` as a newcomer runs it: npm → sh -c → node scripts/start.mjs, a real process tree.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Started {
  npm: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

const started: Started[] = [];

afterEach(async () => {
  for (const s of started.splice(0)) {
    // npm runs in a process group of its own: a server a failed run left behind is in it too.
    try {
      if (process.platform !== 'win32' && s.npm.pid !== undefined) process.kill(-s.npm.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    await s.exited;
  }
});

/** `npm start -- --port 0`; resolves once the stub prints its ready line (a build, if any, comes first). */
function npmStart(): Promise<Started> {
  return new Promise((resolve, reject) => {
    const npm = spawn(NPM, ['start', '--silent', '--', '--port', '0'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let text = '';
    const exited = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
    const timer = setTimeout(() => reject(new Error(`npm start was not ready within 60 s:\n${text}`)), 60_000);
    const read = (d: Buffer) => {
      text += d.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(text);
      if (!m?.[1]) return;
      clearTimeout(timer);
      const s = { npm, url: m[1], output: () => text, exited };
      started.push(s);
      resolve(s);
    };
    npm.stdout.on('data', read);
    npm.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`npm start exited with ${code} before it was ready:\n${text}`)));
  });
}

/** True while something answers GET {url}/markets. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/markets`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  it.skipIf(process.platform === 'win32')('SIGTERM to npm stops the stub: nothing is left answering on its port', async () => {
    const s = await npmStart();
    expect(await answers(s.url)).toBe(true);
    s.npm.kill('SIGTERM');
    await s.exited;
    let serving = true;
    for (let i = 0; i < 40 && serving; i++) {
      serving = await answers(s.url);
      if (serving) await new Promise((r) => setTimeout(r, 100));
    }
    expect(serving, `${s.url} still answers after npm exited:\n${s.output()}`).toBe(false);
  }, 90_000);

  it('does not rebuild an up-to-date dist/', async () => {
    // The first start builds only if dist/ is older than its sources; the second finds it fresh.
    const first = await npmStart();
    first.npm.kill('SIGTERM');
    await first.exited;
    const second = await npmStart();
    expect(second.output()).not.toMatch(/build/i);
    expect(await answers(second.url)).toBe(true);
  }, 120_000);
});
