import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ContractRunError } from './contract-run-error.js';

/**
 * Writes `text` to `file` atomically: into `<file>.tmp-<pid>` in the same directory, fsynced, then
 * renamed over `file` (rename is atomic within a file system, POSIX rename(2)). Readers see the
 * old file or the new one, never a partial one.
 * @throws ContractRunError OUTPUT_UNWRITABLE naming the file and the reason.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const target = path.resolve(file);
  const temporary = `${target}.tmp-${process.pid}`;
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    const e = error as NodeJS.ErrnoException;
    const reason = e.code === 'ENOENT' ? 'its directory does not exist' : e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied' : e.code === 'EISDIR' ? 'it is a directory' : (e.message ?? String(error));
    throw new ContractRunError('OUTPUT_UNWRITABLE', `cannot write ${file}: ${reason}. Choose a writable path.`);
  }
}
