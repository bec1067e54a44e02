// Every process the harness starts goes through spawnTracked, so none outlives the harness: they
// are killed on normal exit, on an uncaught error and on SIGINT/SIGTERM (Ctrl-C in a long run).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const running = new Set<ChildProcess>();
const cleanups = new Set<() => void>();
let handlersInstalled = false;

function killAllNow(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  running.clear();
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // best effort: the process is exiting
    }
  }
  cleanups.clear();
}

/**
 * Registers synchronous work (e.g. removing a temp dir) to run when the harness exits or is
 * interrupted, after its children are killed; returns a function that unregisters it.
 */
export function onHarnessExit(cleanup: () => void): () => void {
  installHandlers();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // 'exit' handlers must be synchronous: SIGKILL is, and needs no cooperation from the child.
  process.on('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAllNow();
      process.stderr.write(`bench: stopped by ${signal}; all servers it started were killed.\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143); // 128 + signal number, as a shell reports it
    });
  }
}

/** Spawns a child (node:child_process spawn, same arguments) that is killed when the harness exits. */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  installHandlers();
  const child = spawn(command, args, options);
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

/**
 * Stops a child: SIGTERM, then SIGKILL when it has not exited after `graceMs`. Resolves once it
 * has exited (at once if it already had).
 */
export async function stopChild(child: ChildProcess, graceMs = 2_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(graceMs === 0 ? 'SIGKILL' : 'SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Kills every child still running (SIGKILL) and waits for each to exit. */
export async function killTrackedChildren(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child, 0)));
}
