// The benchmark measures the built package (dist/), so dist/ must match src/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What dist/ is built from: src (tests excluded), the schema, the manifest and the build script. */
const BUILD_INPUTS = ['src', 'schemas', 'package.json', 'scripts/build.mjs'];
/** The bundles the benchmark runs (scripts/build.mjs writes them together). */
const BUILD_OUTPUTS = ['dist/cli.cjs', 'dist/index.js'];

/** Build inputs newer than the oldest bundle (every input when a bundle is missing). */
export function staleOutputs(root: string): string[] {
  const inputs: string[] = [];
  const walk = (rel: string): void => {
    const stat = statSync(path.join(root, rel), { throwIfNoEntry: false });
    if (!stat) return;
    if (!stat.isDirectory()) {
      if (!rel.endsWith('.test.ts')) inputs.push(rel);
      return;
    }
    for (const entry of readdirSync(path.join(root, rel))) walk(path.join(rel, entry));
  };
  for (const input of BUILD_INPUTS) walk(input);
  const built = Math.min(...BUILD_OUTPUTS.map((out) => statSync(path.join(root, out), { throwIfNoEntry: false })?.mtimeMs ?? 0));
  return inputs.filter((rel) => statSync(path.join(root, rel)).mtimeMs > built);
}

/**
 * Makes sure dist/ is built from the current src/: runs `npm run build` when any output is
 * missing or older than its source (or always, with `force`). With `allowBuild` false it does not
 * build: a stale dist/ is measured as it is, with a warning (smoke runs inside `npm test`, which
 * has just built, must not fail because someone saved a file since).
 * @returns what was done, for the report: `fresh`, `built`, `built (forced)` or `stale (…)`.
 * @throws Error when dist/cli.cjs is missing and building is not allowed, or with the compiler's
 *   output when the build fails.
 */
export function ensureBuild(root: string, options: { allowBuild: boolean; force: boolean; log: (line: string) => void }): string {
  const stale = staleOutputs(root);
  if (stale.length === 0 && !options.force) return 'fresh';
  if (!options.allowBuild) {
    if (!existsSync(path.join(root, 'dist/cli.cjs'))) throw new Error("dist/cli.cjs is missing: run 'npm run build' first (or drop --no-build).");
    const which = `${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ', …' : ''}`;
    options.log(`bench: warning: dist/ is older than ${stale.length} source file(s) (${which}); measuring it as built. Run 'npm run build' to measure the current code.`);
    return `stale: not rebuilt, older than ${which}`;
  }
  options.log(options.force ? 'bench: building (--build)…' : `bench: dist/ is stale (${stale.length} file(s), e.g. ${stale[0]}); running npm run build…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', 'build'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status ?? r.signal}):\n${(r.stdout ?? '') + (r.stderr ?? '')}`);
  return options.force ? 'built (forced)' : 'built';
}
