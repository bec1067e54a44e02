import { closeSync, openSync } from 'node:fs';

/**
 * Why a dependency loaded on first use (undici, tough-cookie: deployment-client.ts) did not load.
 * Out of file descriptors, Node 20's module loader cannot read the package's package.json and
 * reports the package as missing (ERR_MODULE_NOT_FOUND "Cannot find package …/index.js"), which
 * hides the cause; so after a failed load this asks the system: when no file can be opened now,
 * the error is that one (EMFILE or ENFILE, which the CLI names with what to do: src/cli.ts),
 * else the loader's own error.
 */
export function dependencyLoadFailure(error: unknown): unknown {
  try {
    closeSync(openSync(process.execPath, 'r'));
  } catch (probe) {
    const code = (probe as { code?: unknown }).code;
    if (code === 'EMFILE' || code === 'ENFILE') return probe;
  }
  return error;
}
