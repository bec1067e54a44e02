import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The real cause of a failed file-system operation, and what to do about it, for every surface that
 * writes (record, proxy --record, generate, report files). The codes are POSIX errno names as Node
 * reports them (`error.code`); the wording follows the errno descriptions of POSIX.1-2017
 * (<errno.h>) and Linux's errno(3).
 */
export interface FileSystemCause {
  /** The errno name (`ENOSPC`), or undefined for an error without one. */
  code: string | undefined;
  /** What happened, as a short phrase: `no space left on the device (ENOSPC)`. */
  cause: string;
  /** What to do, as an imperative sentence without the final period. */
  remedy: string;
}

/** Causes by errno name: [what happened, what to do]. */
const CAUSES: Readonly<Record<string, readonly [string, string]>> = {
  ENOENT: ['a directory on the path does not exist', 'create the directory first or choose an existing one'],
  EROFS: ['the file system is read-only', 'choose a path on a writable file system (or remount it read-write)'],
  ENOSPC: ['no space left on the device', 'free space on that file system or choose another one'],
  EDQUOT: ['the disk quota is exhausted', 'free space within your quota or choose another file system'],
  EACCES: ['permission denied', 'check the permissions of the path and of its directory, or choose another path'],
  EPERM: ['the operation is not permitted', 'check the permissions and attributes (immutable, append-only) of the path, or choose another path'],
  ENOTDIR: ['a component of the path is a file, not a directory', 'check the path: a file stands where a directory is expected'],
  EISDIR: ['it is a directory', 'give a file name, not a directory'],
  ELOOP: ['too many symbolic links on the path (a symlink loop)', 'fix or remove the looping symbolic link'],
  ENAMETOOLONG: ['the path or one of its names is too long', 'choose a shorter path (names are limited to 255 bytes on most file systems)'],
  EMFILE: ['too many open files in this process', 'raise the open-file limit (ulimit -n) or close other work, then run again'],
  ENFILE: ['too many open files on the system', 'raise the system open-file limit or close other work, then run again'],
  EEXIST: ['a file is already in the way of the path', 'remove it or choose another path'],
  EFBIG: ['the file is larger than the file system or the process limit allows', 'choose another file system or raise the file-size limit (ulimit -f)'],
  EXDEV: ['the path crosses file systems where a rename is needed', 'choose a path on one file system'],
  EBUSY: ['the path is busy (a mount point or a file in use)', 'choose another path'],
  ETXTBSY: ['the file is a running program', 'choose another path'],
  EIO: ['an input/output error on the device', 'check the device (dmesg) or choose another file system'],
};

/**
 * The cause and remedy of a file-system error: an `ErrnoException` (its `code`), or anything else
 * (its message). Never throws.
 */
export function fileSystemCause(error: unknown): FileSystemCause {
  const e = (error ?? {}) as NodeJS.ErrnoException;
  const code = typeof e.code === 'string' ? e.code : undefined;
  const known = code === undefined ? undefined : CAUSES[code];
  if (known) return { code, cause: `${known[0]} (${code})`, remedy: known[1] };
  const message = e instanceof Error ? e.message : String(error);
  return { code, cause: code === undefined ? message : `${message} (${code})`, remedy: 'choose a writable path with enough space' };
}

/**
 * mkdir -p that reports the real cause: Node's recursive mkdir answers ENOENT when a missing
 * ancestor cannot be created (a read-only file system, no permission), so on ENOENT the first
 * missing ancestor is created alone to obtain the error that stopped it (EROFS, EACCES, ENOSPC…);
 * and it answers EEXIST where a file stands in place of a directory of the path: reported as ENOTDIR.
 * @throws the file-system error of the first directory that cannot be created.
 */
export async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // EEXIST from a recursive mkdir: a file stands where a directory of the path should be.
    if (code === 'EEXIST') throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR', syscall: 'mkdir', path: dir });
    if (code !== 'ENOENT') throw error;
    let child = path.resolve(dir);
    let parent = path.dirname(child);
    while (parent !== child && !(await lstat(parent).then(() => true, () => false))) {
      child = parent;
      parent = path.dirname(child);
    }
    // Rejects with the real cause; when it succeeds (a race), the rest of the path is made again.
    await mkdir(child);
    await mkdir(dir, { recursive: true });
  }
}
