import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// `npm start` as a newcomer runs it: npm → sh -c → node scripts/start.mjs, a real process tree
// (test/cli/npm-start.test.ts, test/cli/poller-example.test.ts).
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** One `npm start`: its npm process, the URL the stub printed, what it wrote, and its exit. */
export interface NpmStarted {
  npm: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `npm start -- --port 0 ...serveArgs`; resolves once the stub prints its ready line (a build, if
 * any, comes first; at most 60 s). npm runs in a process group of its own: stop it with stopNpm.
 */
export function npmStart(serveArgs: readonly string[] = []): Promise<NpmStarted> {
  return new Promise((resolve, reject) => {
    const npm = spawn(NPM, ['start', '--silent', '--', '--port', '0', ...serveArgs], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let text = '';
    const exited = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
    const timer = setTimeout(() => reject(new Error(`npm start was not ready within 60 s:\n${text}`)), 60_000);
    const read = (d: Buffer) => {
      text += d.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(text);
      if (!m?.[1]) return;
      clearTimeout(timer);
      resolve({ npm, url: m[1], output: () => text, exited });
    };
    npm.stdout.on('data', read);
    npm.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`npm start exited with ${code} before it was ready:\n${text}`)));
  });
}

/** Kills npm's whole process group (a server a failed run left behind is in it too) and waits for npm's exit. */
export async function stopNpm(started: NpmStarted): Promise<void> {
  try {
    if (process.platform !== 'win32' && started.npm.pid !== undefined) process.kill(-started.npm.pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
  await started.exited;
}
