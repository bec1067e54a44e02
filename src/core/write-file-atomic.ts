import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fileSystemCause } from './file-system-cause.js';
import { MarketStubError } from './market-stub-error.js';

/** What a file is written from: one text, or chunks produced as it is written (bounded by disk, not by string length). */
export type FileContent = string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

/**
 * Writes `content` to `file` atomically: into `<file>.tmp-<pid>` in the same directory, streamed
 * chunk by chunk, fsynced, then renamed over `file` (rename is atomic within a file system, POSIX
 * rename(2)). Readers see the old file or the new one, never a partial one. The temporary file is
 * removed when anything fails.
 * @throws MarketStubError OUTPUT_UNWRITABLE naming the file and the real cause (no space left,
 *   permission denied, missing directory, …); `where` is `what` (e.g. `--output`).
 */
export async function writeFileAtomic(file: string, content: FileContent, what = file): Promise<void> {
  const target = path.resolve(file);
  const temporary = `${target}.tmp-${process.pid}`;
  try {
    await writeDurable(temporary, content, 'w');
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    // A refusal from whoever produced the content (a limit, an interruption) keeps its own words.
    if (error instanceof MarketStubError) throw error;
    throw unwritableError(what, `cannot write ${file}: ${writeFailureReason(error)}. Nothing was written; a file already there is unchanged.`);
  }
}

/**
 * Writes `content` to `file` and fsyncs it before closing, so a rename after it never exposes an
 * empty or short file. `flag` `wx` (default) refuses an existing file.
 */
export async function writeDurable(file: string, content: FileContent, flag: 'w' | 'wx' = 'wx'): Promise<void> {
  const handle = await open(file, flag);
  try {
    await writeContent(handle, content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes every chunk of `content` to an open file, in order, awaiting each write (memory stays at one chunk). */
export async function writeContent(handle: FileHandle, content: FileContent): Promise<void> {
  if (typeof content === 'string' || content instanceof Uint8Array) {
    await handle.writeFile(content);
    return;
  }
  for await (const chunk of content as AsyncIterable<string | Uint8Array>) {
    if (typeof chunk === 'string') await handle.write(chunk);
    else await handle.write(chunk);
  }
}

/**
 * The real cause of a failed file-system write and what to do, as one clause
 * (`no space left on the device (ENOSPC); free space on that file system or choose another one`).
 * The mapping is fileSystemCause's (core/file-system-cause.ts).
 */
export function writeFailureReason(error: unknown): string {
  const { cause, remedy } = fileSystemCause(error);
  return `${cause}; ${remedy}`;
}

/** The error of an output that cannot be written: MarketStubError OUTPUT_UNWRITABLE. */
export function unwritableError(where: string, message: string): MarketStubError {
  return new MarketStubError({ code: 'OUTPUT_UNWRITABLE', where, message });
}
