import { MAX_JSON_DEPTH } from './limits.js';
/**
 * The one set of rules every JSON input of market-stub is read with: fixture files, config files,
 * admin request bodies and the answers of a deployment (check, record, proxy). docs/limits.md,
 * "Reading JSON", documents them. Nothing here imports `node:`, so the rules run in a browser too.
 *
 * - UTF-8 only (RFC 8259 §8.1): bytes that are not UTF-8 are refused with their byte offset, never
 *   replaced by U+FFFD; a leading byte-order mark is refused, as the fixture reader always did
 *   (RFC 8259 §8.1: implementations MUST NOT add one).
 * - Nested at most MAX_JSON_DEPTH levels, checked on the text before it is parsed, so no parser,
 *   walker, serialiser or clone ever sees a deeper document; the message names the JSON pointer
 *   where the limit was passed.
 * - No member named `__proto__`, `constructor`, `prototype` or any other `Object.prototype` member
 *   name (FORBIDDEN_MEMBERS), at any depth, with the member's pointer.
 */



/**
 * Member names refused at any depth: `__proto__`, `constructor`, `prototype` and every other name
 * of an `Object.prototype` member (`hasOwnProperty`, `toString`…). Merged into a plain object they
 * would change its prototype or shadow the methods code calls on it (prototype pollution).
 */
export const FORBIDDEN_MEMBERS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Which rule a JSON input broke. */
export type JsonRule = 'utf8' | 'bom' | 'syntax' | 'depth' | 'member';

/**
 * A JSON input that breaks one of the rules. `expected` and `found` are worded for a problem line
 * (`expected JSON nested at most 64 levels, found more than 64 levels at /0/a/a`); each surface
 * puts them in its own error (a fixture problem, a config error, an admin 400, a finding).
 */
export class JsonInputError extends Error {
  /** What was found, with where (`more than 64 levels at /0/a`). */
  readonly found: string;
  constructor(
    readonly rule: JsonRule,
    /** RFC 6901 pointer of the member or value, when the rule is about one. */
    readonly pointer: string | undefined,
    readonly expected: string,
    /** What was found, without where (`more than 64 levels`), for a line that names the pointer itself. */
    readonly what: string,
  ) {
    const found = pointer === undefined ? what : `${what} at ${shown(pointer)}`;
    super(`expected ${expected}, found ${found}`);
    this.found = found;
    this.name = 'JsonInputError';
  }
}

/** Escapes one reference token for a JSON pointer (RFC 6901 §4: `~` → `~0`, `/` → `~1`). */
function token(segment: string | number): string {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** A pointer for a message: at most 160 characters, the middle elided. */
function shown(pointer: string): string {
  return pointer.length <= 160 ? pointer || '/' : `${pointer.slice(0, 80)}…${pointer.slice(-79)}`;
}

/** The error for a container opened past `maxDepth` levels at `pointer`. */
export function depthError(pointer: string | undefined, maxDepth: number, what = 'JSON'): JsonInputError {
  return new JsonInputError('depth', pointer, `${what} nested at most ${maxDepth} levels`, `more than ${maxDepth} levels`);
}

/** The error for a member named in FORBIDDEN_MEMBERS; `pointer` names the member itself. */
export function memberError(pointer: string, name: string): JsonInputError {
  return new JsonInputError('member', pointer, `no member named ${JSON.stringify(name)} (__proto__, constructor, prototype and Object.prototype's member names are refused)`, JSON.stringify(name));
}

/**
 * Decodes JSON bytes as UTF-8 (TextDecoder, fatal). RFC 8259 §8.1.
 * @throws JsonInputError `bom` (a leading EF BB BF) or `utf8` (with the offset of the first byte that
 *   is not UTF-8; an incomplete sequence at the end counts).
 */
export function decodeJsonBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new JsonInputError('bom', undefined, 'JSON text without a byte-order mark (RFC 8259 §8.1)', 'the bytes EF BB BF (a UTF-8 byte-order mark) at byte 0; save the file as UTF-8 without BOM');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw utf8Error(firstInvalidByte(bytes));
  }
}

/** The error for bytes that are not UTF-8, the first bad sequence at byte `offset` (RFC 8259 §8.1). */
export function utf8Error(offset: number): JsonInputError {
  return new JsonInputError('utf8', undefined, 'UTF-8 text (RFC 8259 §8.1)', `bytes that are not UTF-8 at byte offset ${offset}`);
}

/**
 * Follows a byte stream's UTF-8 validity chunk by chunk (for bodies read as they stream): `push`
 * each chunk, then `end`; `offset` is then the byte offset of the first sequence that is not UTF-8
 * (counted from `start`), or undefined when every byte was UTF-8.
 */
export class Utf8Watch {
  offset: number | undefined;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private seen = 0;
  private tail = new Uint8Array(0);
  constructor(private readonly start = 0) {}

  push(chunk: Uint8Array): void {
    if (this.offset !== undefined) return;
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      // The stream so far was valid: its last (at most 3) bytes from a character boundary resume decoding.
      let from = 0;
      while (from < this.tail.length && ((this.tail[from] ?? 0) & 0xc0) === 0x80) from++;
      const joined = new Uint8Array(this.tail.length - from + chunk.length);
      joined.set(this.tail.subarray(from));
      joined.set(chunk, this.tail.length - from);
      this.offset = this.start + this.seen - (this.tail.length - from) + firstInvalidByte(joined);
    }
    this.seen += chunk.length;
    const keep = Math.min(3, this.tail.length + chunk.length);
    const joined = new Uint8Array(this.tail.length + chunk.length);
    joined.set(this.tail);
    joined.set(chunk, this.tail.length);
    this.tail = joined.slice(joined.length - keep);
  }

  end(): void {
    if (this.offset !== undefined) return;
    try {
      this.decoder.decode();
    } catch {
      let from = this.tail.length - 1;
      while (from > 0 && ((this.tail[from] ?? 0) & 0xc0) === 0x80) from--;
      this.offset = this.start + this.seen - (this.tail.length - from);
    }
  }
}

/**
 * Offset of the first byte of the first sequence that is not valid UTF-8: the shortest prefix a
 * streaming TextDecoder refuses, found by bisection (the decoder does not say where it failed),
 * then back to the character boundary before it. Only runs for text already known to be invalid.
 */
function firstInvalidByte(bytes: Uint8Array): number {
  const refuses = (length: number, stream: boolean) => {
    try {
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, length), { stream });
      return false;
    } catch {
      return true;
    }
  };
  // Only an incomplete sequence at the very end is refused by the final flush and not while streaming.
  if (!refuses(bytes.length, true)) {
    let start = bytes.length - 1;
    while (start > 0 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
    return start;
  }
  let low = 0;
  let high = bytes.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (refuses(middle, true)) high = middle;
    else low = middle;
  }
  // The byte at high - 1 is where decoding failed; the bad sequence starts at the last character
  // boundary before it (a lead byte whose sequence that byte broke, or the byte itself).
  let start = high - 1;
  while (start > 0 && refuses(start, false)) start--;
  return start;
}

/** Index of the string's closing quote for the opening quote at `start` (escapes counted), or -1. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let backslash = quote - 1;
    while (text.charCodeAt(backslash) === 0x5c) backslash--;
    if ((quote - 1 - backslash) % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * Where the text nests deeper than `max`: the index of the bracket that passes it, and the
 * brackets open before it; brackets inside strings do not count. One linear pass without
 * allocation (strings are skipped with indexOf); the brackets are collected only for a text that
 * passes the limit.
 */
function depthPassed(text: string, max: number): { at: number; open: string } | undefined {
  let depth = 0;
  let at = -1;
  for (let i = 0; i < text.length && at === -1; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i === -1) return undefined;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) at = i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  if (at === -1) return undefined;
  const open: number[] = [];
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x5b || c === 0x7b) open.push(c);
    else if (c === 0x5d || c === 0x7d) open.pop();
  }
  return { at, open: String.fromCharCode(...open) };
}

/**
 * The pointer of the container that passes the depth limit at `at`: the text before it, with
 * `null` for the deep value and its open brackets closed, is parsed (it is at most `max` deep),
 * and the path followed through the last member of each level (the deep value's place). Undefined
 * when the text before it is not JSON.
 */
function pointerOfDeepValue(text: string, passed: { at: number; open: string }): string | undefined {
  const closers = [...passed.open].reverse().map((c) => (c === '[' ? ']' : '}')).join('');
  let node: unknown;
  try {
    node = JSON.parse(`${text.slice(0, passed.at)}null${closers}`);
  } catch {
    return undefined;
  }
  let pointer = '';
  for (let level = 0; level < passed.open.length && node !== null && typeof node === 'object'; level++) {
    if (Array.isArray(node)) {
      pointer += `/${node.length - 1}`;
      node = node[node.length - 1];
    } else {
      const keys = Object.keys(node);
      const key = keys[keys.length - 1] ?? '';
      pointer += `/${token(key)}`;
      node = (node as Record<string, unknown>)[key];
    }
  }
  return pointer;
}

/** Turns V8's "… in JSON at position N" into "invalid JSON at line L, column C (…)": the `found` of a JSON syntax problem. */
export function jsonSyntaxReason(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const m = /at position (\d+)/.exec(message);
  if (!m) return `invalid JSON (${message})`;
  const position = Number(m[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column} (${message.replace(/ in JSON at position \d+.*$/, '')})`;
}

/**
 * Parses JSON text under the rules: depth (scanned on the text first, so nothing deeper is ever
 * parsed), syntax (JSON.parse), members (one walk of the value, bounded by the depth). A reader
 * whose values all go through a walk of their own (the admin API's markets and patches, refused in
 * the words of the in-process handle) passes `members: false`.
 * @throws JsonInputError `depth`, `syntax` or `member`.
 */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH, members = true): unknown {
  const passed = depthPassed(text, maxDepth);
  if (passed) throw depthError(pointerOfDeepValue(text, passed), maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new JsonInputError('syntax', undefined, 'valid JSON', jsonSyntaxReason(error, text));
  }
  const broken = members ? jsonRuleBroken(value, maxDepth) : undefined;
  if (broken) throw broken;
  return value;
}

/** decodeJsonBytes then parseJsonText: a whole JSON input read under every rule. @throws JsonInputError */
export function readJsonBytes(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): unknown {
  return parseJsonText(decodeJsonBytes(bytes), maxDepth);
}

/**
 * The first rule a value already in memory breaks (markets given in code, a parsed item): nested
 * deeper than `maxDepth` (the value itself is level 1) or a FORBIDDEN_MEMBERS name, in document
 * order, with its pointer below `base`. Bounded by the depth: it never overflows the stack.
 * `members: false` leaves names alone (a deployment's answers: names are data, and the checker
 * reads them as own members, contract/http-client/json-body-reader.ts).
 */
export function jsonRuleBroken(value: unknown, maxDepth = MAX_JSON_DEPTH, base = '', what = 'JSON', members = true): JsonInputError | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const path: (string | number)[] = [];
  const broken = firstBroken(value, 1, maxDepth, path, members);
  if (broken === undefined) return undefined;
  const pointer = `${base}${path.map((s) => `/${token(s)}`).join('')}`;
  return broken === DEEP ? depthError(pointer, maxDepth, what) : memberError(pointer, broken);
}

const DEEP = Symbol('deep');

/**
 * The first rule broken below `node` (at `level`): DEEP or the forbidden member's name, with
 * `path` left holding where. No closure per call: it runs once per market of a fixture set.
 */
function firstBroken(node: object, level: number, maxDepth: number, path: (string | number)[], members: boolean): typeof DEEP | string | undefined {
  if (level > maxDepth) return DEEP;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (child === null || typeof child !== 'object') continue;
      path.push(i);
      const broken = firstBroken(child, level + 1, maxDepth, path, members);
      if (broken !== undefined) return broken;
      path.pop();
    }
    return undefined;
  }
  for (const key of Object.keys(node)) {
    path.push(key);
    if (members && FORBIDDEN_MEMBERS.has(key)) return key;
    const child = (node as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object') {
      const broken = firstBroken(child, level + 1, maxDepth, path, members);
      if (broken !== undefined) return broken;
    }
    path.pop();
  }
  return undefined;
}
