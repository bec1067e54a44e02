import { cp, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Market } from '../schema/market-types.js';
import { ContractRunError } from './contract-run-error.js';

/** The file a recorded fixture set holds its markets in (`serve --fixtures DIR` reads `DIR/*.json`). */
export const FIXTURE_FILE = 'markets.json';
/** Sub-directory of invalid answers kept with --keep-invalid; serve and validate read only `DIR/*.json`, never this. */
export const INVALID_DIR = 'invalid';
export const INVALID_FILE = 'responses.json';

/** What was written. */
export interface FixtureSetWritten {
  /** Absolute path of the fixtures file. */
  file: string;
  /** Absolute path of the invalid-answers file, when written. */
  invalidFile?: string;
}

/**
 * Replaces the fixture set in `dir` with `markets` (a JSON array in the given order, 2-space
 * indent, trailing newline: the format `serve --fixtures` reads and `generate` writes), atomically
 * as a whole:
 *
 * 1. the new set is written into a temporary directory next to `dir` (`<dir>.tmp-<pid>`), each
 *    file fsynced, then the directory itself;
 * 2. only then is `dir` renamed to `<dir>.old-<pid>`, the temporary directory renamed to `dir`,
 *    and the old set removed.
 *
 * An interrupted run leaves either the old set or the new one in `dir`, never a partial file
 * (at worst a `<dir>.tmp-<pid>` or `<dir>.old-<pid>` sibling, which the next run cleans up or
 * restores). Files in `dir` that are not fixtures (anything but `*.json` and `invalid/`, e.g. a
 * README) are carried over into the new set.
 * @throws ContractRunError OUTPUT_UNWRITABLE when a file or directory cannot be written.
 */
export async function writeFixtureSet(dir: string, markets: readonly Market[], invalid?: readonly unknown[]): Promise<FixtureSetWritten> {
  const target = path.resolve(dir);
  const parent = path.dirname(target);
  const name = path.basename(target);
  const temporary = path.join(parent, `${name}.tmp-${process.pid}`);
  if ((await exists(target)) && !(await isDirectory(target))) {
    throw new ContractRunError('OUTPUT_UNWRITABLE', `cannot write the fixture set ${target}: it is a file, not a directory. Give --out a directory (it is created when missing).`);
  }
  try {
    await mkdir(parent, { recursive: true });
    await recoverInterruptedRuns(parent, name, target);
    await rm(temporary, { recursive: true, force: true });
    await mkdir(temporary);
    if (await isDirectory(target)) await carryOverNonFixtures(target, temporary);
    await writeDurable(path.join(temporary, FIXTURE_FILE), `${JSON.stringify(markets, null, 2)}\n`);
    if (invalid !== undefined) {
      await mkdir(path.join(temporary, INVALID_DIR));
      await writeDurable(path.join(temporary, INVALID_DIR, INVALID_FILE), `${JSON.stringify(invalid, null, 2)}\n`);
      await syncDirectory(path.join(temporary, INVALID_DIR));
    }
    await syncDirectory(temporary);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true }).catch(() => undefined);
    throw unwritable(target, error);
  }
  try {
    if (await exists(target)) {
      const old = path.join(parent, `${name}.old-${process.pid}`);
      await rm(old, { recursive: true, force: true });
      await rename(target, old);
      await rename(temporary, target);
      await syncDirectory(parent);
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(temporary, target);
      await syncDirectory(parent);
    }
  } catch (error) {
    throw unwritable(target, error);
  }
  return { file: path.join(target, FIXTURE_FILE), ...(invalid !== undefined ? { invalidFile: path.join(target, INVALID_DIR, INVALID_FILE) } : {}) };
}

/**
 * Cleans up after a run that was killed: restores `<dir>.old-<pid>` when `dir` is missing (killed
 * between the two renames), and removes `<dir>.tmp-<pid>` / `<dir>.old-<pid>` siblings whose
 * process is gone.
 */
async function recoverInterruptedRuns(parent: string, name: string, target: string): Promise<void> {
  const siblings = await readdir(parent);
  const pattern = new RegExp(`^${escapeRegExp(name)}\\.(tmp|old)-(\\d+)$`);
  for (const sibling of siblings) {
    const m = pattern.exec(sibling);
    if (!m || Number(m[2]) === process.pid || isAlive(Number(m[2]))) continue;
    const full = path.join(parent, sibling);
    if (m[1] === 'old' && !(await exists(target))) await rename(full, target);
    else await rm(full, { recursive: true, force: true });
  }
}

async function carryOverNonFixtures(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const isFixture = entry.name.endsWith('.json') && !entry.isDirectory();
    if (isFixture || entry.name === INVALID_DIR) continue;
    await cp(path.join(from, entry.name), path.join(to, entry.name), { recursive: true, preserveTimestamps: true });
  }
}

/** Writes a new file and fsyncs it, so a rename after it never exposes an empty or short file. */
async function writeDurable(file: string, text: string): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsyncs a directory so the names created or renamed in it survive a crash (POSIX). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems refuse fsync on directories (EINVAL/EISDIR); the rename stays atomic.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw error;
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false);
}

async function isDirectory(file: string): Promise<boolean> {
  return stat(file).then((s) => s.isDirectory(), () => false);
}

function isAlive(pid: number): boolean {
  try {
    // Signal 0 sends nothing; it only asks whether the process exists.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function unwritable(target: string, error: unknown): ContractRunError {
  const e = error as NodeJS.ErrnoException;
  const reason = e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied' : e.code === 'ENOTDIR' ? 'a file is in the way' : e.code === 'ENOSPC' ? 'no space left on the device' : (e.message ?? String(error));
  return new ContractRunError('OUTPUT_UNWRITABLE', `cannot write the fixture set ${target}: ${reason}. Check the directory is writable; the previous set, if any, was left unchanged.`);
}
