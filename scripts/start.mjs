// `npm start`: `market-stub serve` from this clone, rebuilding dist/ first only when it is missing
// or older than what it is built from (make's rule: a target is out of date when any
// prerequisite's modification time is newer).
//
//   npm start                     serve on http://127.0.0.1:4010
//   npm start -- --seed 7 --watch the arguments after `--` go to `serve`
//
// The CLI runs in this process, so its own SIGINT/SIGTERM handlers stop the stub gracefully. npm
// forwards SIGTERM to the shell it runs the script with (`sh -c`), and dash, Debian's sh, dies of
// it without passing it on: the CLI, started under npm (`npm_command` is set), watches its parent
// and stops as on SIGTERM once it has been re-parented (src/cli.ts, stopWhenOrphaned).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

/** What scripts/build.mjs reads: a newer file here makes dist/ out of date. */
const BUILD_INPUTS = ['src', 'schemas', 'scripts/build.mjs', 'scripts/build-entries.json', 'scripts/cjs-module-url.js', 'scripts/jsf-pattern-memo.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
/** What scripts/build.mjs writes that `serve` runs; a missing one makes dist/ out of date. */
const BUILD_OUTPUTS = ['dist/cli.cjs', 'dist/cli-main.cjs', 'dist/cli-crawl.cjs'];

/** Newest modification time (ms) of a file or of any file under a folder; 0 when absent. */
function newestMtime(file) {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(file).map((name) => newestMtime(path.join(file, name))));
}

/** Why dist/ must be rebuilt, or undefined when it is up to date. */
function staleReason() {
  const outputs = BUILD_OUTPUTS.map((file) => ({ file, mtime: newestMtime(path.join(ROOT, file)) }));
  const missing = outputs.find((o) => o.mtime === 0);
  if (missing) return `${missing.file} is missing`;
  const built = Math.min(...outputs.map((o) => o.mtime));
  const changed = BUILD_INPUTS.find((input) => newestMtime(path.join(ROOT, input)) > built);
  return changed === undefined ? undefined : `${changed} changed since the last build`;
}

const reason = staleReason();
if (reason !== undefined) {
  process.stderr.write(`npm start: building dist/ (${reason})\n`);
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
}
const cli = path.join(ROOT, 'dist/cli.cjs');
process.argv = [process.argv[0], cli, 'serve', ...process.argv.slice(2)];
createRequire(import.meta.url)(cli);

