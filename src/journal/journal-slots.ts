/**
 * The journal's storage: a fixed ring of slots whose numbers live in typed arrays and whose text
 * (path, query, headers) is copied into a byte buffer per slot, reused from one request to the
 * next. A recorded request so leaves nothing on the V8 heap: no entry object, no string and no
 * headers object of the request survives it. Under load, objects that outlive a few young-generation
 * collections make V8 grow its young generation to its maximum (32 MiB) and fill the old one with
 * garbage; kept as JavaScript objects, 1,000 journaled requests cost a loaded stub about 23 MB of
 * peak RSS (issue 13, measured with wrk). Text is stored as UTF-16 code units, so any string comes
 * back exactly as given.
 */

/** Headers as Node gives them (names lower-cased; a value, several values, or undefined). */
export type SlotHeaders = Record<string, string | string[] | undefined>;

/** The text of one entry: path, query and headers. */
export interface SlotText {
  path: string;
  query: string;
  headers: SlotHeaders;
}

const KIND_STRING = 0;
const KIND_ARRAY = 1;
const KIND_UNDEFINED = 2;

/** Byte buffers of a ring of `capacity` slots, each grown as needed and reused. */
export interface TextSlots {
  /** Copies the text into slot `slot`. */
  write(slot: number, path: string, query: string, headers: SlotHeaders): void;
  /** The path of slot `slot` (for filters), without decoding the rest. */
  path(slot: number): string;
  /** Everything slot `slot` holds, as fresh values. */
  read(slot: number): SlotText;
  /** Drops every buffer. */
  clear(): void;
}

/** Creates the byte buffers of a ring of `capacity` slots; none is allocated before it is written. */
export function createTextSlots(capacity: number): TextSlots {
  let buffers: (Buffer | undefined)[] = new Array<Buffer | undefined>(capacity);
  return {
    write(slot, path, query, headers) {
      const needed = textBytes(path, query, headers);
      let buffer = buffers[slot];
      if (!buffer || buffer.length < needed) {
        buffer = Buffer.allocUnsafe(Math.max(256, 2 ** Math.ceil(Math.log2(needed))));
        buffers[slot] = buffer;
      }
      let at = putString(buffer, 0, path);
      at = putString(buffer, at, query);
      const countAt = at;
      at += 4;
      let count = 0;
      for (const name in headers) {
        const value = headers[name];
        at = putString(buffer, at, name);
        if (typeof value === 'string') {
          buffer[at++] = KIND_STRING;
          at = putString(buffer, at, value);
        } else if (Array.isArray(value)) {
          buffer[at++] = KIND_ARRAY;
          at = buffer.writeUInt32LE(value.length, at);
          for (const item of value) at = putString(buffer, at, item);
        } else {
          buffer[at++] = KIND_UNDEFINED;
        }
        count += 1;
      }
      buffer.writeUInt32LE(count, countAt);
    },
    path(slot) {
      const buffer = buffers[slot];
      return buffer ? getString(buffer, 0).value : '';
    },
    read(slot) {
      const buffer = buffers[slot];
      if (!buffer) return { path: '', query: '', headers: {} };
      const path = getString(buffer, 0);
      const query = getString(buffer, path.next);
      let at = query.next;
      const count = buffer.readUInt32LE(at);
      at += 4;
      const headers: SlotHeaders = {};
      for (let i = 0; i < count; i++) {
        const name = getString(buffer, at);
        const kind = buffer[name.next];
        at = name.next + 1;
        if (kind === KIND_STRING) {
          const value = getString(buffer, at);
          headers[name.value] = value.value;
          at = value.next;
        } else if (kind === KIND_ARRAY) {
          const items: string[] = [];
          const n = buffer.readUInt32LE(at);
          at += 4;
          for (let k = 0; k < n; k++) {
            const item = getString(buffer, at);
            items.push(item.value);
            at = item.next;
          }
          headers[name.value] = items;
        } else {
          headers[name.value] = undefined;
        }
      }
      return { path: path.value, query: query.value, headers };
    },
    clear() {
      buffers = new Array<Buffer | undefined>(capacity);
    },
  };
}

/** Exact bytes `write` needs: a 4-byte length and 2 bytes per UTF-16 code unit for each string, plus counts and kinds. */
function textBytes(path: string, query: string, headers: SlotHeaders): number {
  let total = 4 + 2 * path.length + 4 + 2 * query.length + 4;
  for (const name in headers) {
    const value = headers[name];
    total += 4 + 2 * name.length + 1;
    if (typeof value === 'string') total += 4 + 2 * value.length;
    else if (Array.isArray(value)) {
      total += 4;
      for (const item of value) total += 4 + 2 * item.length;
    }
  }
  return total;
}

function putString(buffer: Buffer, at: number, text: string): number {
  const next = buffer.writeUInt32LE(text.length, at);
  return next + buffer.write(text, next, 'utf16le');
}

function getString(buffer: Buffer, at: number): { value: string; next: number } {
  const length = buffer.readUInt32LE(at);
  const start = at + 4;
  const end = start + 2 * length;
  return { value: buffer.toString('utf16le', start, end), next: end };
}
