// A server under test as a separate child process, started on port 0; its URL comes from the
// `… listening on http://ADDRESS:PORT …` line both market-stub and the baseline print.
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { readProcessCpuSeconds, readProcessMemory, type ProcessMemory } from './process-usage.js';
import { spawnTracked, stopChild } from './tracked-children.js';

/** How to start one server. */
export interface ServerSpec {
  /** Short name used in tables and JSON: `baseline`, `stub-generated`, `stub-fixtures`. */
  name: string;
  /** Executable and arguments, e.g. `node` and `['dist/cli.cjs', 'serve', '--port', '0', …]`. */
  command: string;
  args: readonly string[];
  /** Variables added to the harness's environment for this child (a measurement control's settings). */
  env?: Readonly<Record<string, string>>;
  /**
   * File the child's stdout (ready line and request log) goes to, emptied first. A file, not a pipe the
   * harness reads: under load the log then costs the server what `serve > file` costs a user, and
   * costs the load generator's CPU nothing.
   */
  stdoutFile: string;
  cwd: string;
}

/** A running server. */
export interface ServerProcess {
  readonly name: string;
  /** `http://127.0.0.1:PORT` as printed by the server. */
  readonly url: string;
  readonly pid: number;
  readonly stdoutFile: string;
  /** Resident memory now. @throws when the process has exited. */
  memory(): ProcessMemory;
  /** CPU seconds used so far (user + system); null where procfs is missing. */
  cpuSeconds(): number | null;
  /** Whether it is still running. */
  alive(): boolean;
  /** SIGTERM, then SIGKILL after a grace period; resolves when it has exited. */
  stop(): Promise<void>;
}

// Matches the text ready line and the same words inside a JSON log record (`"msg":"… listening on http://…"`).
const READY = /listening on (http:\/\/[^\s"]+)/;

/**
 * Starts a server and resolves once it has printed its ready line.
 * @throws Error naming the server, with the tail of its stderr, when it exits first or does not
 *   print the line within `readyTimeoutMs` (the child is killed then).
 */
export async function startServerProcess(spec: ServerSpec, readyTimeoutMs: number): Promise<ServerProcess> {
  writeFileSync(spec.stdoutFile, ''); // a ready line left from an earlier run must not match
  const fd = openSync(spec.stdoutFile, 'a');
  let child: ChildProcess;
  try {
    child = spawnTracked(spec.command, spec.args, { cwd: spec.cwd, stdio: ['ignore', fd, 'pipe'], ...(spec.env ? { env: { ...process.env, ...spec.env } } : {}) });
  } finally {
    closeSync(fd); // the child holds its own copy
  }
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-4_000);
  });
  const describe = () => `${spec.name} (${spec.command} ${spec.args.join(' ')})`;
  const deadline = performance.now() + readyTimeoutMs;
  let url: string | undefined;
  while (url === undefined) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${describe()} exited (${child.exitCode ?? child.signalCode}) before it was ready. Its stderr:\n${stderr || '(empty)'}`);
    }
    if (performance.now() > deadline) {
      await stopChild(child, 0);
      throw new Error(`${describe()} printed no 'listening on' line within ${readyTimeoutMs} ms. Its stderr:\n${stderr || '(empty)'}`);
    }
    const m = READY.exec(readFileSync(spec.stdoutFile, 'utf8'));
    if (m?.[1]) url = m[1];
    else await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${describe()} has no pid`);
  return {
    name: spec.name,
    url,
    pid,
    stdoutFile: spec.stdoutFile,
    memory: () => readProcessMemory(pid),
    cpuSeconds: () => readProcessCpuSeconds(pid),
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: () => stopChild(child),
  };
}
