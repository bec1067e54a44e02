import { rm } from 'node:fs/promises';
import { writeFileAtomic } from '../file-system/write-file-atomic.js';

/**
 * The ready record: what `serve` and `proxy` write to `--ready-file PATH` once they listen, the one
 * way a launcher (the Python package's MarketStub.start, a CI script) learns where they listen.
 * A launcher never reads a URL from the console: the ready line and the refusals there can carry
 * an option's value, echoed. docs/serving.md ("Waiting for the ready record") documents the shape.
 *
 * One JSON object, one line: `{"marketStub":"ready","command":"serve","url":"http://127.0.0.1:4010","pid":1234}`
 * - `url`: the base URL it listens on (no trailing slash);
 * - `pid`: the process that listens (a launcher checks it is its own child, still running).
 */
export interface ReadyRecord {
  readonly marketStub: 'ready';
  readonly command: 'serve' | 'proxy';
  readonly url: string;
  readonly pid: number;
}

/**
 * Writes the ready record to `file` atomically (writeFileAtomic: a temporary file renamed over it),
 * so a launcher polling for the file reads the whole record or nothing.
 * @throws MarketStubError OUTPUT_UNWRITABLE (where `--ready-file`) when it cannot be written.
 */
export async function writeReadyRecord(file: string, command: ReadyRecord['command'], url: string): Promise<void> {
  const record: ReadyRecord = { marketStub: 'ready', command, url, pid: process.pid };
  await writeFileAtomic(file, `${JSON.stringify(record)}\n`, '--ready-file');
}

/** Removes the ready record at a stop, so a record left behind never names a port no longer listened on. */
export async function removeReadyRecord(file: string | undefined): Promise<void> {
  if (file !== undefined) await rm(file, { force: true }).catch(() => undefined);
}
