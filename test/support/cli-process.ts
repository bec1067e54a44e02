import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Absolute path of the built CLI (npm test builds before vitest runs). */
export const CLI = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));

/** Result of a CLI run to completion. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli.cjs ...args` to completion (bounded by `timeoutMs`). */
export function runCliProcess(args: readonly string[], options: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...options.env }, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`market-stub ${args.join(' ')} did not finish within ${options.timeoutMs ?? 20_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A served stub running as a real process. */
export interface ServedProcess {
  url: string;
  child: ChildProcess;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  /** Sends `signal` and resolves with the exit code and the ms it took to exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

/**
 * Spawns `market-stub serve ...args` and resolves once it prints its ready line
 * (`listening on http://HOST:PORT`); rejects if it exits first or takes over `timeoutMs`.
 */
export function startServeProcess(args: readonly string[], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<ServedProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', ...args], { env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not become ready within ${options.timeoutMs ?? 15_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 15_000);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(stdout);
      if (m?.[1] && !ready) {
        ready = true;
        clearTimeout(timer);
        resolve({
          url: m[1],
          child,
          output: () => ({ stdout, stderr }),
          stop: async (signal = 'SIGTERM') => {
            const t = performance.now();
            if (child.exitCode === null) child.kill(signal);
            const code = await exited;
            return { code, ms: performance.now() - t };
          },
        });
      }
    });
    void exited.then((code) => {
      if (!ready) {
        clearTimeout(timer);
        reject(Object.assign(new Error(`serve exited with ${code} before it was ready\nstdout: ${stdout}\nstderr: ${stderr}`), { code, stdout, stderr }));
      }
    });
  });
}

/** GET `url` and return status, headers and the body text. */
export async function getText(url: string): Promise<{ status: number; contentType: string | null; text: string }> {
  const res = await fetch(url);
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

/** What a counting sink saw of `generate`'s JSON array: bytes, items and the last 4 characters. */
export interface GeneratedCount {
  bytes: number;
  items: number;
  tail: string;
}

/**
 * Counts what `generate` writes to a stream without keeping it: bytes, and array items (each starts a
 * line with `  {`, as JSON.stringify(markets, null, 2) writes them), across chunk boundaries. The
 * returned object fills in as data arrives.
 */
export function countItems(stream: NodeJS.ReadableStream): GeneratedCount {
  const count: GeneratedCount = { bytes: 0, items: 0, tail: '' };
  stream.on('data', (d: Buffer) => {
    count.bytes += d.length;
    const text = count.tail + d.toString('latin1');
    count.items += text.split('\n  {\n').length - 1;
    count.tail = text.slice(-4);
  });
  return count;
}
