// One bounded wrk run (Debian's `wrk`, a C load generator) against one server: the same plan and
// figures as load-run.ts, for machines that have wrk. On 2 cores wrk needs a fraction of the CPU
// autocannon needs, so the baseline, not the load generator, sets the pace.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadPlan, LoadSample } from './load-run.js';
import { spawnTracked, stopChild } from './tracked-children.js';

let available: boolean | undefined;

/** Whether `wrk` is on the PATH (`wrk -v` prints `wrk <version> …` on stdout and exits 1). */
export function wrkAvailable(): boolean {
  if (available === undefined) {
    try {
      execFileSync('wrk', ['-v'], { stdio: 'pipe' });
      available = true;
    } catch (error) {
      available = /^wrk \S/m.test(String((error as { stdout?: Buffer }).stdout ?? ''));
    }
  }
  return available;
}

/** wrk's version, e.g. `wrk 4.1.0` or `wrk debian/4.1.0-3+b2`. */
export function wrkVersion(): string {
  try {
    execFileSync('wrk', ['-v'], { stdio: 'pipe' });
  } catch (error) {
    const m = /^wrk \S+/m.exec(String((error as { stdout?: Buffer }).stdout ?? ''));
    if (m) return m[0];
  }
  return 'wrk';
}

/**
 * The Lua script: each wrk thread cycles through the plan's paths; `done` prints one JSON line with
 * every count and the latency percentiles (wrk measures each response in µs).
 */
function script(paths: readonly string[], headers: readonly Readonly<Record<string, string>>[] = []): string {
  const lua = (h: Readonly<Record<string, string>> | undefined) => `{ ${Object.entries(h ?? {}).map(([n, v]) => `[${JSON.stringify(n)}] = ${JSON.stringify(v)}`).join(', ')} }`;
  return `local paths = { ${paths.map((p) => JSON.stringify(p)).join(', ')} }
local headers = { ${paths.map((_, i) => lua(headers[i])).join(', ')} }
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], headers[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK-RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50Us":%.3f,"p99Us":%.3f,"meanUs":%.3f}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.mean))
end
`;
}

/**
 * Loads `plan.url` with `wrk -t1 -c<connections> -d<durationS>s` (one thread: the server gets the
 * other core). `plan.durationS` must be a whole number of seconds (wrk's unit) and pipelining 1.
 * Bounded: killed at twice its duration plus 10 s.
 * @throws Error when wrk fails or any request failed, timed out or got a status ≥ 400 (wrk counts
 *   those as status errors), as load-run.ts does.
 */
export async function runWrk(plan: LoadPlan): Promise<LoadSample> {
  if (!Number.isInteger(plan.durationS) || plan.durationS < 1 || plan.pipelining !== 1) {
    throw new Error(`wrk runs whole seconds without pipelining; got ${plan.durationS} s, pipelining ${plan.pipelining}`);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'market-stub-wrk-'));
  try {
    const file = path.join(dir, 'paths.lua');
    writeFileSync(file, script(plan.paths, plan.headers));
    const args = ['-t1', `-c${plan.connections}`, `-d${plan.durationS}s`, '--timeout', '10s', '-s', file, plan.url];
    const child = spawnTracked('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const watchdog = setTimeout(() => void stopChild(child, 0), (plan.durationS * 2 + 10) * 1000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    clearTimeout(watchdog);
    const line = /WRK-RESULT (\{.*\})/.exec(stdout)?.[1];
    if (code !== 0 || !line) throw new Error(`wrk ${args.join(' ')} failed (exit ${code}): ${(stderr || stdout).trim().slice(-500)}`);
    const r = JSON.parse(line) as { requests: number; durationUs: number; bytes: number; connect: number; read: number; write: number; status: number; timeout: number; p50Us: number; p99Us: number; meanUs: number };
    const failures = r.connect + r.read + r.write + r.status + r.timeout;
    if (failures > 0 || r.requests === 0) {
      throw new Error(`load run on ${plan.url}${plan.paths[0] ?? ''} was not clean: ${r.requests} responses, errors connect ${r.connect}, read ${r.read}, write ${r.write}, status ≥ 400 ${r.status}, timeouts ${r.timeout}. Check the server's stderr and that the paths exist.`);
    }
    const seconds = r.durationUs / 1e6;
    return {
      reqPerSec: r.requests / seconds,
      p50Ms: r.p50Us / 1000,
      p99Ms: r.p99Us / 1000,
      meanMs: r.meanUs / 1000,
      requests: r.requests,
      bytesPerSec: r.bytes / seconds,
      durationS: seconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
