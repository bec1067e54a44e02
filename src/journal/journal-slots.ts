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
  /** Lets go of slot `slot`'s text (its entry was dropped): the slot keeps nothing, its buffer goes to the spares. */
  release(slot: number): void;
  /** Drops every buffer. */
  clear(): void;
}

/** Smallest buffer a slot gets, UTF-16 code units (256 bytes). */
const MIN_BUFFER = 128;
/** Buffers of dropped entries kept for the next writes (beyond it they go to the GC). */
const MAX_SPARES = 8;
/** A buffer is reused only for a text of at least 1/SHRINK_FACTOR of its code units: a slot never holds much more than its entry. */
const SHRINK_FACTOR = 4;
/** Code units turned into a string per String.fromCharCode call when a slot is read (well under engines' argument limits). */
const DECODE_CHUNK = 8192;

/**
 * Creates the slots of a ring of `capacity` entries; none is allocated before it is written, and a
 * dropped entry's slot keeps nothing (`release`), so the buffers follow the bytes the journal holds,
 * not its capacity: at most SHRINK_FACTOR × 2 bytes per UTF-16 code unit held (or MIN_BUFFER), plus
 * MAX_SPARES buffers. (Each slot once kept its buffer after its entry was dropped: with 100,000 slots
 * and 8 KB of headers per request that was 1.7 GiB for a journal holding 32 MiB.) A slot's buffer is
 * a Uint16Array holding, in order, the path, the query and each header (see writeSlot): each text
 * preceded by its length in two code units, each header value by its kind (KIND_*), an array by its
 * item count. The code units are copied one by one, straight from the strings, with no string built
 * per request: cheaper under Node, Bun and Deno alike than joining the texts into one string and
 * writing it with Node's `Buffer#write` (which Deno implements in JavaScript), and the same store
 * in every runtime, a browser included (bench/README.md, "Figures behind the code's comments").
 */
export function createTextSlots(capacity: number): TextSlots {
  let buffers: (Uint16Array | undefined)[] = new Array<Uint16Array | undefined>(capacity);
  const units = new Int32Array(capacity);
  // Buffers of dropped entries, reused by the next writes: in a full ring the slot written is the one just dropped.
  let spares: Uint16Array[] = [];
  return {
    write(slot, path, query, headers) {
      const needed = slotUnits(path, query, headers);
      let buffer = buffers[slot] ?? spares.pop();
      if (!buffer || buffer.length < needed || buffer.length > Math.max(MIN_BUFFER, SHRINK_FACTOR * needed)) {
        buffer = new Uint16Array(Math.max(MIN_BUFFER, 2 ** Math.ceil(Math.log2(needed))));
      }
      buffers[slot] = buffer;
      units[slot] = writeSlot(buffer, path, query, headers);
    },
    path(slot) {
      const buffer = buffers[slot];
      return buffer ? take(decode(buffer, 0, 2 + (buffer[0] ?? 0) + (buffer[1] ?? 0) * 0x10000), { at: 0 }) : '';
    },
    read(slot) {
      const buffer = buffers[slot];
      return buffer ? decodeSlot(decode(buffer, 0, units[slot] ?? 0)) : { path: '', query: '', headers: {} };
    },
    release(slot) {
      const buffer = buffers[slot];
      if (!buffer) return;
      buffers[slot] = undefined;
      units[slot] = 0;
      if (spares.length < MAX_SPARES) spares.push(buffer);
    },
    clear() {
      buffers = new Array<Uint16Array | undefined>(capacity);
      spares = [];
      units.fill(0);
    },
  };
}

/** Code units a request's text takes in a slot (writeSlot's layout). */
function slotUnits(path: string, query: string, headers: SlotHeaders): number {
  let n = 4 + path.length + query.length;
  for (const name in headers) {
    const value = headers[name];
    n += 3 + name.length;
    if (typeof value === 'string') n += 2 + value.length;
    else if (Array.isArray(value)) {
      n += 2;
      for (const item of value) n += 2 + item.length;
    }
  }
  return n;
}

/** Writes a request's path, query and headers into `buffer` (at least slotUnits long) as counted texts; returns the code units written. */
function writeSlot(buffer: Uint16Array, path: string, query: string, headers: SlotHeaders): number {
  let at = put(buffer, 0, path);
  at = put(buffer, at, query);
  for (const name in headers) {
    const value = headers[name];
    at = put(buffer, at, name);
    if (typeof value === 'string') {
      buffer[at++] = KIND_STRING;
      at = put(buffer, at, value);
    } else if (Array.isArray(value)) {
      buffer[at++] = KIND_ARRAY;
      at = putLength(buffer, at, value.length);
      for (const item of value) at = put(buffer, at, item);
    } else buffer[at++] = KIND_UNDEFINED;
  }
  return at;
}

/** A length as two code units, low half first (any length a string can have). */
function putLength(buffer: Uint16Array, at: number, n: number): number {
  buffer[at] = n & 0xffff;
  buffer[at + 1] = n >>> 16;
  return at + 2;
}

/** A text's length, then its code units (lone surrogates included: any string comes back as given). */
function put(buffer: Uint16Array, at: number, text: string): number {
  let i = putLength(buffer, at, text.length);
  for (let k = 0; k < text.length; k++) buffer[i++] = text.charCodeAt(k);
  return i;
}

/** Code units `from`..`to` of a buffer as a string. */
function decode(buffer: Uint16Array, from: number, to: number): string {
  let text = '';
  for (let at = from; at < to; at += DECODE_CHUNK) text += String.fromCharCode(...buffer.subarray(at, Math.min(to, at + DECODE_CHUNK)));
  return text;
}

/** The path, query and headers of a slot's text (writeSlot's layout, decoded), as fresh values. */
function decodeSlot(text: string): SlotText {
  const cursor = { at: 0 };
  const path = take(text, cursor);
  const query = take(text, cursor);
  const headers: SlotHeaders = {};
  while (cursor.at < text.length) {
    const name = take(text, cursor);
    const kind = text.charCodeAt(cursor.at++);
    if (kind === KIND_STRING) headers[name] = take(text, cursor);
    else if (kind === KIND_ARRAY) {
      const items: string[] = [];
      for (let n = count(text, cursor); n > 0; n--) items.push(take(text, cursor));
      headers[name] = items;
    } else headers[name] = undefined;
  }
  return { path, query, headers };
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
