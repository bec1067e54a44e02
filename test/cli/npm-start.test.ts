import { afterEach, describe, expect, it } from 'vitest';
import { npmStart as startNpm, stopNpm, type NpmStarted } from '../support/npm-start.js';

// `npm start` as a newcomer runs it: npm → sh -c → node scripts/start.mjs, a real process tree.
const started: NpmStarted[] = [];

afterEach(async () => {
  for (const s of started.splice(0)) await stopNpm(s);
});

/** `npm start -- --port 0`, stopped after the test. */
async function npmStart(): Promise<NpmStarted> {
  const s = await startNpm();
  started.push(s);
  return s;
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
