#!/usr/bin/env node
// The process edge: the only module that reads process.argv/env, installs signal handlers and sets the exit code.
// Built to dist/cli.cjs, a small CommonJS file (scripts/build.mjs): `--help` and `--version` print
// from dist/help-pages.json without loading the rest; any other line requires dist/cli-main.cjs.
import * as nodeModule from 'node:module';
import { helpWidth, prerenderedOutput } from './cli/help-pages.js';
import { packageVersion } from './core/package-info.js';

// Node 22.1+ keeps V8's compiled code on disk (NODE_COMPILE_CACHE, or the system's temp folder),
// so a later start skips compiling dist/cli-main.cjs; Node 20 has no compile cache and skips this.
// The CLI's code is required after it, so all of it can be served from the cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const argv = process.argv.slice(2);
// `--help` and `--version` print what yargs rendered when the package was built
// (dist/help-pages.json) without loading the CLI; any other line goes through runCli.
const prerendered = prerenderedOutput(argv, helpWidth(process.stdout.columns), new URL('./help-pages.json', import.meta.url), packageVersion());
if (prerendered === undefined) {
  void run().then((code) => {
    process.exitCode = code;
  });
} else {
  process.stdout.write(prerendered);
}

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
  try {
    const { runCli } = await import('./cli/run-cli.js');
    return await runCli(argv, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env,
      cwd: process.cwd(),
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
