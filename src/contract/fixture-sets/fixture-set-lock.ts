import { hostname } from 'node:os';
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileSystemCause } from '../../file-system/file-system-cause.js';
import { MarketStubError } from '../../floor/market-stub-error.js';
import { unwritableError } from '../../file-system/write-file-atomic.js';

/** Who holds a fixture set's lock: written into the lock file as JSON. */
export interface FixtureSetLockOwner {
  pid: number;
  host: string;
  /** When the run took the lock, ISO 8601 UTC. */
  started: string;
}

/** A held lock; `release()` removes the lock file (idempotent). */
export interface FixtureSetLock {
  release(): Promise<void>;
}

/** The lock file of DIR: `.<name>.market-stub-lock` beside DIR (DIR itself may not exist yet). */
export function fixtureSetLockFile(dir: string): string {
  const target = path.resolve(dir);
  return path.join(path.dirname(target), `.${path.basename(target)}.market-stub-lock`);
}

/**
 * Takes the lock of the fixture set in `dir`, so two runs (record, proxy --record, writeFixtureSet)
 * can never both write DIR and both report success. The lock file is created whole and
 * exclusively: the owner is written to a temporary file, which is then hard-linked to the lock
 * name (link(2) fails with EEXIST when the name exists, as open(2) with O_CREAT|O_EXCL does, and
 * a reader never sees a half-written owner).
 *
 * Stale locks: a lock whose owner ran on this host and whose pid no longer exists (a run killed
 * with SIGKILL) is taken over; it is first renamed aside (only one of several runs can do that),
 * then removed. A lock from another host, or from a live pid, is never taken over: the run fails
 * naming the owner, and the message says which file to delete if that run is known to be gone.
 * @throws MarketStubError OUTPUT_UNWRITABLE when another run holds the lock, or when the lock
 *   cannot be created (read-only file system, no space…), naming the cause.
 */
export async function lockFixtureSet(dir: string, where: string): Promise<FixtureSetLock> {
  const file = fixtureSetLockFile(dir);
  const owner: FixtureSetLockOwner = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const temporary = `${file}.tmp-${process.pid}`;
  try {
    await writeFile(temporary, `${JSON.stringify(owner)}\n`, { flag: 'w' });
    for (let attempt = 0; ; attempt++) {
      try {
        await link(temporary, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
        const holder = await readOwner(file);
        if (holder === 'gone') continue;
        if (!isStale(holder)) throw heldError(where, path.resolve(dir), file, holder);
        await breakStaleLock(file, holder);
      }
    }
  } catch (error) {
    if (error instanceof MarketStubError) throw error;
    const { cause, remedy } = fileSystemCause(error);
    throw unwritableError(where, `cannot write the fixture set ${path.resolve(dir)}: cannot create its lock file ${file}: ${cause}; ${remedy}. The previous set, if any, was left unchanged.`);
  } finally {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      // Removed only while it is still this run's (never another run's lock).
      const holder = await readOwner(file);
      if (holder !== 'gone' && holder !== 'unreadable' && holder.pid === owner.pid && holder.started === owner.started && holder.host === owner.host) await rm(file, { force: true });
    },
  };
}

/** The lock's owner, `gone` when the file vanished meanwhile, `unreadable` when it holds no owner. */
async function readOwner(file: string): Promise<FixtureSetLockOwner | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<FixtureSetLockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.started === 'string') return { pid: value.pid, host: value.host, started: value.started };
  } catch {
    // Not an owner: reported as unreadable below.
  }
  return 'unreadable';
}

/** A lock left by a run of this host whose process is gone. */
function isStale(holder: FixtureSetLockOwner | 'unreadable'): holder is FixtureSetLockOwner {
  if (holder === 'unreadable' || holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    // Signal 0 sends nothing; it only asks whether the process exists.
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Moves a stale lock aside (atomic: one run wins) and removes it; a lock that changed meanwhile is put back. */
async function breakStaleLock(file: string, holder: FixtureSetLockOwner): Promise<void> {
  const aside = `${file}.stale-${process.pid}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readOwner(aside);
  if (moved !== 'gone' && moved !== 'unreadable' && (moved.pid !== holder.pid || moved.started !== holder.started)) {
    // Another run took the lock between the read and the rename: give it back.
    await link(aside, file).catch(() => undefined);
  }
  await rm(aside, { force: true });
}

function heldError(where: string, target: string, file: string, holder: FixtureSetLockOwner | 'unreadable') {
  const who = holder === 'unreadable' ? 'another run (its lock file names no owner)' : `another run (pid ${holder.pid} on host ${holder.host}, started ${holder.started})`;
  return unwritableError(where, `cannot write the fixture set ${target}: ${who} is writing it. Wait for that run to finish, or give another directory; if that run is gone, delete ${file}. Nothing was changed.`);
}
