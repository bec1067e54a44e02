// Cold start: from spawning a server process to the first complete 200 on a URL.
import type { ChildProcess } from 'node:child_process';
import { httpGet } from './http-get.js';
import { spawnTracked, stopChild } from './tracked-children.js';

/** One server start to time. The port is chosen beforehand so polling can begin at spawn time. */
export interface ColdStartSpec {
  command: string;
  /** Arguments; the server must listen on `port` on 127.0.0.1. */
  args: readonly string[];
  cwd: string;
  port: number;
  /** Path (and query) polled until it answers 200, e.g. `/markets`. */
  path: string;
}

/** Outcome of one timed start. */
export type ColdStartOutcome =
  | { ok: true; ms: number; child: ChildProcess; pid: number; bytes: number }
  | { ok: false; reason: string };

/** How often a start is polled, in ms: the resolution of every cold-start figure. */
export const POLL_INTERVAL_MS = 2;

/**
 * Spawns the server (stdout and stdin discarded, stderr kept for errors) and GETs
 * `http://127.0.0.1:{port}{path}` on a fresh connection every POLL_INTERVAL_MS until one returns
 * 200 with its whole body read. Returns the elapsed ms and the still-running child (the caller
 * measures or stops it), or `ok: false` with the reason when it exits, answers another status or
 * does not answer within `timeoutMs` (the child is killed then).
 */
export async function timeColdStart(spec: ColdStartSpec, timeoutMs: number): Promise<ColdStartOutcome> {
  const url = `http://127.0.0.1:${spec.port}${spec.path}`;
  const t0 = performance.now();
  const child = spawnTracked(spec.command, spec.args, { cwd: spec.cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-2_000);
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  for (;;) {
    const attempt = performance.now();
    const elapsed = attempt - t0;
    if (exited()) return { ok: false, reason: `exited (${child.exitCode ?? child.signalCode}) after ${Math.round(elapsed)} ms without answering; stderr: ${stderr.trim() || '(empty)'}` };
    if (elapsed > timeoutMs) {
      await stopChild(child, 0);
      return { ok: false, reason: `did not answer 200 on ${spec.path} within ${(timeoutMs / 1000).toFixed(0)} s` };
    }
    try {
      const res = await httpGet(url, { timeoutMs: Math.max(1, timeoutMs - elapsed), agent: false });
      const ms = performance.now() - t0;
      if (res.status === 200 && child.pid !== undefined) return { ok: true, ms, child, pid: child.pid, bytes: res.body.length };
      await stopChild(child, 0);
      return { ok: false, reason: `answered ${res.status} on ${spec.path}: ${res.body.toString('utf8', 0, 200)}` };
    } catch {
      // Not listening yet (ECONNREFUSED) or the request timed out: poll again.
    }
    const wait = POLL_INTERVAL_MS - (performance.now() - attempt);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Cold-start samples of one server. */
export interface ColdStartFigures {
  /** Each start, ms; empty when none succeeded. */
  samplesMs: number[];
  /** RSS right after the first 200 of each start, MB. */
  rssMb: number[];
  /** Why a start failed, when one did (the figure is then missing). */
  failure?: string;
}
