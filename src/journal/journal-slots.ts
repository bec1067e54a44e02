/**
 * The journal's storage: a fixed ring of slots whose numbers live in typed arrays and whose text
 * (path, query, headers) is copied into a byte buffer per slot, reused from one request to the
 * next. A recorded request so leaves nothing on the V8 heap: no entry object, no string and no
 * headers object of the request survives it. Under load, objects that outlive a few young-generation
 * collections make V8 grow its young generation to its maximum (32 MiB) and fill the old one with
 * garbage; kept as JavaScript objects, 1,000 journaled requests cost a loaded stub about 23 MB of
 * peak RSS (measured with wrk). Text is stored as UTF-16 code units, so any string comes
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

/** Kinds of a header value, one UTF-16 code unit each. */
const KIND_STRING = '\u0000';
const KIND_ARRAY = '\u0001';
const KIND_UNDEFINED = '\u0002';

/** Byte buffers of a ring of `capacity` slots, each grown as needed and reused. */
export interface TextSlots {
  /** Copies the text into slot `slot`. */
  write(slot: number, path: string, query: string, headers: SlotHeaders): void;
  /** The path of slot `slot` (for filters), without decoding the rest. */
  path(slot: number): string;
  /** Everything slot `slot` holds, as fresh values. */
  read(slot: number): SlotText;
  /** Lets go of slot `slot`'s text (its entry was dropped): the slot keeps nothing, its buffer goes to the spares. */
  release(slot: number): void;
  /** Drops every buffer. */
  clear(): void;
}

/** Smallest buffer a slot gets, bytes. */
const MIN_BUFFER = 256;
/** Buffers of dropped entries kept for the next writes (beyond it they go to the GC). */
const MAX_SPARES = 8;
/** A buffer is reused only for a text of at least 1/SHRINK_FACTOR of its bytes: a slot never holds much more than its entry. */
const SHRINK_FACTOR = 4;

/** Node's Buffer where it exists (the fast store below); absent in a browser. */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/**
 * Creates the slots of a ring of `capacity` entries; none is allocated before it is written, and a
 * dropped entry's slot keeps nothing (`release`), so the buffers follow the bytes the journal holds,
 * not its capacity: at most SHRINK_FACTOR × 2 bytes per UTF-16 code unit held (or MIN_BUFFER), plus
 * MAX_SPARES buffers. (Each slot once kept its buffer after its entry was dropped: with 100,000 slots
 * and 8 KB of headers per request that was 1.7 GiB for a journal holding 32 MiB.) Each
 * slot holds one string (encodeSlot): each text is preceded by its length in two UTF-16 code
 * units, each header value by its kind (KIND_*), an array by its item count. Under Node the string
 * goes into a byte buffer with a single `Buffer#write`: one write per request instead of one per
 * text and length (one write per text made journaling a large share of what a quiet stub spends
 * per request beyond bare node:http: bench/README.md "What moved the figures"). Elsewhere (a browser) the slot keeps the string itself.
 */
export function createTextSlots(capacity: number): TextSlots {
  return NodeBuffer ? bufferSlots(capacity, NodeBuffer) : stringSlots(capacity);
}

function bufferSlots(capacity: number, NodeBuf: typeof Buffer): TextSlots {
  let buffers: (Buffer | undefined)[] = new Array<Buffer | undefined>(capacity);
  const units = new Int32Array(capacity);
  // Buffers of dropped entries, reused by the next writes: in a full ring the slot written is the one just dropped.
  let spares: Buffer[] = [];
  return {
    write(slot, path, query, headers) {
      const text = encodeSlot(path, query, headers);
      const needed = 2 * text.length;
      let buffer = buffers[slot] ?? spares.pop();
      if (!buffer || buffer.length < needed || buffer.length > Math.max(MIN_BUFFER, SHRINK_FACTOR * needed)) {
        buffer = NodeBuf.allocUnsafe(Math.max(MIN_BUFFER, 2 ** Math.ceil(Math.log2(needed))));
      }
      buffers[slot] = buffer;
      buffer.write(text, 0, 'utf16le');
      units[slot] = text.length;
    },
    path(slot) {
      const buffer = buffers[slot];
      if (!buffer) return '';
      const n = buffer.readUInt16LE(0) + buffer.readUInt16LE(2) * 0x10000;
      return buffer.toString('utf16le', 4, 4 + 2 * n);
    },
    read(slot) {
      const buffer = buffers[slot];
      return buffer ? decodeSlot(buffer.toString('utf16le', 0, 2 * (units[slot] ?? 0))) : { path: '', query: '', headers: {} };
    },
    release(slot) {
      const buffer = buffers[slot];
      if (!buffer) return;
      buffers[slot] = undefined;
      units[slot] = 0;
      if (spares.length < MAX_SPARES) spares.push(buffer);
    },
    clear() {
      buffers = new Array<Buffer | undefined>(capacity);
      spares = [];
      units.fill(0);
    },
  };
}

function stringSlots(capacity: number): TextSlots {
  let texts: (string | undefined)[] = new Array<string | undefined>(capacity);
  return {
    write(slot, path, query, headers) {
      texts[slot] = encodeSlot(path, query, headers);
    },
    path(slot) {
      const text = texts[slot];
      return text === undefined ? '' : take(text, { at: 0 });
    },
    read(slot) {
      const text = texts[slot];
      return text === undefined ? { path: '', query: '', headers: {} } : decodeSlot(text);
    },
    release(slot) {
      texts[slot] = undefined;
    },
    clear() {
      texts = new Array<string | undefined>(capacity);
    },
  };
}

/** A request's path, query and headers as one string of counted texts. */
function encodeSlot(path: string, query: string, headers: SlotHeaders): string {
  let text = counted(path) + counted(query);
  for (const name in headers) {
    const value = headers[name];
    text += counted(name);
    if (typeof value === 'string') text += KIND_STRING + counted(value);
    else if (Array.isArray(value)) {
      text += KIND_ARRAY + length(value.length);
      for (const item of value) text += counted(item);
    } else text += KIND_UNDEFINED;
  }
  return text;
}

/** The path, query and headers of a string from encodeSlot, as fresh values. */
function decodeSlot(text: string): SlotText {
  const cursor = { at: 0 };
  const path = take(text, cursor);
  const query = take(text, cursor);
  const headers: SlotHeaders = {};
  while (cursor.at < text.length) {
    const name = take(text, cursor);
    const kind = text[cursor.at++];
    if (kind === KIND_STRING) headers[name] = take(text, cursor);
    else if (kind === KIND_ARRAY) {
      const items: string[] = [];
      for (let n = count(text, cursor); n > 0; n--) items.push(take(text, cursor));
      headers[name] = items;
    } else headers[name] = undefined;
  }
  return { path, query, headers };
}

/** The encoded lengths of short texts (nearly all of a request's), made once: no string per length per request. */
const SHORT_LENGTHS: readonly string[] = Array.from({ length: 1024 }, (_, n) => String.fromCharCode(n, 0));

/** A length as two UTF-16 code units, low half first (any length a string can have). */
function length(n: number): string {
  return SHORT_LENGTHS[n] ?? String.fromCharCode(n & 0xffff, n >>> 16);
}

function counted(text: string): string {
  return length(text.length) + text;
}

function count(text: string, cursor: { at: number }): number {
  const n = text.charCodeAt(cursor.at) + text.charCodeAt(cursor.at + 1) * 0x10000;
  cursor.at += 2;
  return n;
}

function take(text: string, cursor: { at: number }): string {
  const n = count(text, cursor);
  const value = text.slice(cursor.at, cursor.at + n);
  cursor.at += n;
  return value;
}
