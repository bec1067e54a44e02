import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';

/**
 * Why a path cannot be read as a bounded regular file: `not-regular` (a FIFO, device, socket or
 * directory: never opened for reading, so a FIFO cannot hang the caller nor /dev/zero fill memory),
 * `too-large` (over `maxBytes`), or the system error's code (`ENOENT`, `EACCES`…).
 */
export class UnreadableFileError extends Error {
  /** What was found, in words for a problem's `found`: `a FIFO (named pipe)`, `70000000 bytes`. */
  readonly found: string;
  constructor(readonly path: string, readonly reason: 'not-regular' | 'too-large', found: string, message: string) {
    super(message);
    this.found = found;
    this.name = 'UnreadableFileError';
  }
}

/** What a non-regular file is, in words. */
function kind(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a directory';
  return 'not a regular file';
}

function check(path: string, info: Stats, maxBytes: number): void {
  if (!info.isFile()) throw new UnreadableFileError(path, 'not-regular', kind(info), `${path} is ${kind(info)}, not a regular file`);
  if (info.size > maxBytes) throw new UnreadableFileError(path, 'too-large', `${info.size} bytes`, `${path} is ${info.size} bytes, over the ${maxBytes}-byte limit`);
}

// O_NONBLOCK: opening a FIFO swapped in after the stat returns at once instead of waiting for a writer.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads the bytes of a regular file of at most `maxBytes` (JSON inputs then go through
 * core/bounded-json.ts, which refuses bytes that are not UTF-8 instead of replacing them). The path is stat'ed first (nothing that
 * is not a regular file is opened), opened non-blocking, and fstat'ed again (a file swapped between
 * the two is caught); reading stops at `maxBytes + 1` bytes whatever the size said.
 * @throws UnreadableFileError (not a regular file, too large) or a system error (ENOENT, EACCES…).
 */
export async function readRegularFileBytes(path: string, maxBytes: number): Promise<Buffer> {
  check(path, await stat(path), maxBytes);
  const handle = await open(path, FLAGS);
  try {
    check(path, await handle.stat(), maxBytes);
    // `end` is inclusive: at most maxBytes + 1 bytes are read, enough to tell the file grew past the limit.
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of handle.createReadStream({ start: 0, end: maxBytes, autoClose: false }) as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
    }
    if (length > maxBytes) throw new UnreadableFileError(path, 'too-large', `over ${maxBytes} bytes`, `${path} grew past the ${maxBytes}-byte limit while read`);
    return Buffer.concat(chunks, length);
  } finally {
    await handle.close();
  }
}

/** readRegularFileBytes, synchronously (config files, before anything serves). Same checks and errors. */
export function readRegularFileBytesSync(path: string, maxBytes: number): Buffer {
  check(path, statSync(path), maxBytes);
  const fd = openSync(path, FLAGS);
  try {
    const info = fstatSync(fd);
    check(path, info, maxBytes);
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, info.size + 1));
    let length = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw new UnreadableFileError(path, 'too-large', `over ${maxBytes} bytes`, `${path} grew past the ${maxBytes}-byte limit while read`);
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
