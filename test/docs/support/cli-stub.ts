// The stub the documentation examples reach at http://127.0.0.1:4010: the built CLI serving its
// defaults (seed 1, 100 markets, today's clock), as `npm start` does, on a free port.
import { spawn } from 'node:child_process';
import { exampleEnv } from './example-sandbox.js';

export interface CliStub {
  url: string;
  /** Start-up markets, deviations and behaviours again, and an empty journal. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `node CLI serve --port 0` in `cwd`; resolves once it prints its ready line. */
export function startCliStub(cli: string, cwd: string): Promise<CliStub> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--quiet', '--log-format', 'json'], { cwd, env: exampleEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = (): Promise<void> => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { resolve(); return; }
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stderr.on('data', (b: Buffer) => { out += b.toString(); });
    child.on('close', (code) => reject(new Error(`the example stub exited ${code} (run npm run build first?)\n${out}`)));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const url = /listening on (http:\/\/[^\s"]+)/.exec(out)?.[1];
      if (!url) return;
      const admin = (method: string, route: string) => fetch(`${url}/__stub${route}`, { method, headers: { 'content-type': 'application/json' } });
      resolve({
        url,
        reset: async () => { await admin('POST', '/reset'); await admin('DELETE', '/requests'); },
        stop,
      });
    });
  });
}
