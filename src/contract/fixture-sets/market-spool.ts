import { fnv1a } from '../../floor/text-hash.js';
import { open, rm, type FileHandle } from 'node:fs/promises';

/**
 * Valid markets kept on disk until a fixture set is written: record and the proxy put each one
 * as JSON text in an append-only file and keep only its place in memory (about 100 bytes a
 * market), so a set is bounded by the disk, not by memory or by a string's length.
 */
export interface MarketSpool {
  /** Markets kept (distinct ids). */
  readonly size: number;
  /** Keeps the latest JSON text of a market (an identical text is not written again). */
  put(id: string, json: string): Promise<void>;
  has(id: string): boolean;
  /** The kept texts: first those of `order` (ids not kept are skipped), then the others in first-seen order. */
  texts(order?: Iterable<string>): AsyncIterable<string>;
  /** Closes and deletes the file. Idempotent. */
  dispose(): Promise<void>;
}

interface Place {
  offset: number;
  length: number;
  hash: number;
}

/**
 * Creates a spool in `file` (created, truncated). Writes are queued so `put` calls from
 * concurrent requests append one after another. A failed write (no space left…) rejects that
 * `put` and every later one with `describeError(error)`.
 * @throws the file system's error when the file cannot be created.
 */
export async function createMarketSpool(file: string, describeError: (error: unknown) => unknown = (error) => error): Promise<MarketSpool> {
  const handle: FileHandle = await open(file, 'w+');
  const places = new Map<string, Place>();
  let end = 0;
  let queue: Promise<void> = Promise.resolve();
  let disposed = false;
  const settled = () => queue.catch((error: unknown) => {
    throw describeError(error);
  });
  return {
    get size() {
      return places.size;
    },
    put(id, json) {
      const hash = fnv1a(json);
      const known = places.get(id);
      if (known && known.hash === hash && known.length === Buffer.byteLength(json)) return settled();
      const bytes = Buffer.from(json);
      const place = { offset: end, length: bytes.length, hash };
      end += bytes.length;
      queue = queue.then(async () => {
        await handle.write(bytes, 0, bytes.length, place.offset);
        places.set(id, place);
      });
      return settled();
    },
    has: (id) => places.has(id),
    async *texts(order = []) {
      await queue;
      const done = new Set<string>();
      const read = async (id: string) => {
        const place = places.get(id);
        if (!place || done.has(id)) return undefined;
        done.add(id);
        const buffer = Buffer.alloc(place.length);
        await handle.read(buffer, 0, place.length, place.offset);
        return buffer.toString('utf8');
      };
      for (const id of order) {
        const text = await read(id);
        if (text !== undefined) yield text;
      }
      for (const id of places.keys()) {
        const text = await read(id);
        if (text !== undefined) yield text;
      }
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await queue.catch(() => undefined);
      await handle.close().catch(() => undefined);
      await rm(file, { force: true });
    },
  };
}
