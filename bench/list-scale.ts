// Catalog scale: a `serve --count 100000` stub answers its first complete
// GET /markets in under 1 s (spawn to the last byte), and a 1,000,000-market list streams at
// ≥ 50 MB/s (request to the last byte). Each server runs as `node dist/cli.cjs serve` with default
// options (request log on, stdout discarded) in its own process; bounded; always stopped.
import { request } from 'node:http';
import { timeColdStart } from './cold-start.js';
import { freePort } from './http-get.js';
import { readProcessMemory } from './process-usage.js';
import { stopChild } from './tracked-children.js';

export interface ListScalePlan {
  node: string;
  cliPath: string;
  cwd: string;
  seed: number;
  clock: string;
  /** Markets of the first-list check (100,000 in a full run). */
  firstListCount: number;
  /** Markets of the streamed-list check (1,000,000 in a full run). */
  streamCount: number;
  timeoutMs: number;
}

export interface FirstListResult {
  count: number;
  /** Spawn to the last byte of the first 200 on GET /markets; null when it failed. */
  ms: number | null;
  bytes: number | null;
  failure?: string;
}

export interface StreamResult {
  count: number;
  /** Request to the last byte of GET /markets, ms; null when it failed. */
  ms: number | null;
  bytes: number | null;
  /** bytes / ms, in MB/s (10^6 bytes). */
  mbPerSecond: number | null;
  /** Peak RSS of the server after streaming, MB. */
  peakRssMb: number | null;
  failure?: string;
}

/** Spawn → first complete GET /markets of `serve --count firstListCount`. */
export async function runFirstList(plan: ListScalePlan): Promise<FirstListResult> {
  const port = await freePort();
  const args = [plan.cliPath, 'serve', '--port', String(port), '--count', String(plan.firstListCount), '--seed', String(plan.seed), '--clock', plan.clock];
  const outcome = await timeColdStart({ command: plan.node, args, cwd: plan.cwd, port, path: '/markets' }, plan.timeoutMs);
  if (!outcome.ok) return { count: plan.firstListCount, ms: null, bytes: null, failure: outcome.reason };
  await stopChild(outcome.child, 0);
  return { count: plan.firstListCount, ms: outcome.ms, bytes: outcome.bytes };
}

/** Starts `serve --count streamCount`, waits for /healthz, then times one whole GET /markets. */
export async function runStream(plan: ListScalePlan): Promise<StreamResult> {
  const result: StreamResult = { count: plan.streamCount, ms: null, bytes: null, mbPerSecond: null, peakRssMb: null };
  const port = await freePort();
  const args = [plan.cliPath, 'serve', '--port', String(port), '--count', String(plan.streamCount), '--seed', String(plan.seed), '--clock', plan.clock];
  const started = await timeColdStart({ command: plan.node, args, cwd: plan.cwd, port, path: '/healthz' }, plan.timeoutMs);
  if (!started.ok) return { ...result, failure: started.reason };
  try {
    const t0 = performance.now();
    const { status, bytes } = await drain(`http://127.0.0.1:${port}/markets`, plan.timeoutMs);
    const ms = performance.now() - t0;
    if (status !== 200) return { ...result, failure: `GET /markets answered ${status}` };
    result.ms = ms;
    result.bytes = bytes;
    result.mbPerSecond = bytes / 1e6 / (ms / 1000);
    result.peakRssMb = readProcessMemory(started.pid).peakRssMb;
    return result;
  } catch (error) {
    return { ...result, failure: (error as Error).message };
  } finally {
    await stopChild(started.child, 0);
  }
}

/** GETs `url` on a fresh connection and counts the body's bytes without keeping them. */
function drain(url: string, timeoutMs: number): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`GET ${url} did not finish within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
