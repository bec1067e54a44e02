#!/usr/bin/env node
// The process edge: the only module that reads process.argv/env, installs signal handlers and sets the exit code.
// Built to dist/cli.cjs (scripts/build.mjs).
import * as nodeModule from 'node:module';

// Node 22.1+ keeps V8's compiled code on disk (NODE_COMPILE_CACHE, or the system's temp folder),
// so a later start skips compiling the CLI's code; Node 20 has no compile cache and skips this.
// The CLI's code is required after it, so all of it can be served from the cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

void run().then((code) => {
  process.exitCode = code;
});

/** Runs the command line; resolves to the exit code. A served stub has closed by then. */
async function run(): Promise<number> {
  const controller = new AbortController();
  // The first SIGINT/SIGTERM stops gracefully; both handlers go at once, so a second signal of
  // either kind takes the default action: the process ends at once.
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const stop = () => {
    for (const signal of signals) process.off(signal, stop);
    controller.abort();
  };
  for (const signal of signals) process.on(signal, stop);
  stopWhenOrphaned(stop);
  try {
    // The commands load after the compile cache is on: the build makes this import a require of
    // dist/cli-main.cjs (scripts/build.mjs).
    const { runCli } = await import('./cli/run-cli.js');
    return await runCli(process.argv.slice(2), {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env,
      cwd: process.cwd(),
      ...(process.stdout.isTTY ? { columns: process.stdout.columns } : {}),
      isTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      signal: controller.signal,
      stdoutStream: process.stdout,
    });
  } catch (error: unknown) {
    // Out of file descriptors (while loading a command's code, say) is the machine's limit, not a bug.
    const code = descriptorLimitCode(error);
    if (code !== undefined) {
      process.stderr.write(`market-stub: cannot run: too many open files (${code}); raise the open-file limit (ulimit -n) or close other work, then run again.\n`);
      return 2;
    }
    process.stderr.write(`market-stub: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nPlease report it with the command you ran.\n`);
    return 2;
  }
}

/** How often a CLI started by npm checks that its wrapper still runs, ms. */
const PARENT_POLL_MS = 250;

/**
 * Under an npm wrapper (`npx`, `npm exec`, `npm start`: npm sets `npm_command`), stops as on
 * SIGTERM once the parent process is gone. npm 11 runs a bin as npm → `sh -c` → node and forwards
 * SIGTERM to the shell only; dash, Debian's sh, dies of it without passing it on, so node is
 * re-parented (to PID 1 or a subreaper) and would go on serving, holding its port
 * (test/packaging/npx-wrapper.test.ts). Like a language server watching its client (the LSP's
 * `processId`: exit when the parent dies), this checks its parent every PARENT_POLL_MS. Started
 * without npm (`./node_modules/.bin/market-stub serve &`, a container, the Python launcher), the
 * process may outlive its parent on purpose and is left alone.
 */
function stopWhenOrphaned(stop: () => void): void {
  if (process.env['npm_command'] === undefined) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop();
  }, PARENT_POLL_MS);
  watch.unref();
}

/**
 * `EMFILE` or `ENFILE` when `error` is the process or the system running out of file descriptors,
 * else undefined. Node 24 (not 20 or 22) reports EMFILE met by the module loader while it reads a
 * package.json as ERR_INVALID_PACKAGE_CONFIG "Cannot read package config …: too many open files."
 * with no errno (test/cli/write-failures.test.ts, run on Node 24 by .ci/node-matrix.sh).
 */
function descriptorLimitCode(error: unknown): 'EMFILE' | 'ENFILE' | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'EMFILE' || code === 'ENFILE') return code;
  if (code === 'ERR_INVALID_PACKAGE_CONFIG' && typeof message === 'string' && /too many open files/i.test(message)) return 'EMFILE';
  return undefined;
}
