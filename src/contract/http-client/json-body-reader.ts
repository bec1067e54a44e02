import { jsonParser } from 'stream-json/core/parser.js';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import { pointerToken } from '../../schema/finding.js';
import { depthError, type JsonInputError } from '../../floor/bounded-json.js';
import { MAX_JSON_DEPTH } from '../../floor/limits.js';

/**
 * Something in a JSON text that `JSON.parse` hides, kept with its literal text:
 * - `duplicate-member`: an object names the same member twice (RFC 8259 §4: names SHOULD be
 *   unique; JSON.parse keeps the last value, which is what the checks then judge);
 * - `unsafe-number`: a number literal that does not round-trip to a finite IEEE 754 double
 *   (`1e400` overflows to Infinity, `1e-400` underflows to 0, `9007199254740993` loses digits;
 *   RFC 8259 §6 warns about exactly these).
 */
export interface JsonAnomaly {
  kind: 'duplicate-member' | 'unsafe-number';
  /** RFC 6901 pointer of the member or number in the whole body. */
  pointer: string;
  /** The literal text: the member name as JSON (`"yes_price"`) or the number as written (`1e400`). */
  literal: string;
  /** What JSON.parse makes of it, in words (`the last value, 0.4, is used`; `parses to Infinity`). */
  detail: string;
}

/**
 * What a list-mode reader reports as it goes. A candidate array is named by its RFC 6901 pointer:
 * `''` for the top-level array, `/markets`, `/data/markets`, `/_embedded/markets`.
 */
export interface JsonReaderEvents {
  /** A market-array candidate starts (isCandidateArray). */
  onArray?(at: string): void;
  /** An item of the candidate array, complete; it is not kept by the reader. */
  onItem?(at: string, index: number, value: unknown): void;
  onAnomaly?(anomaly: JsonAnomaly): void;
  /** An item of the candidate array that breaks a JSON rule (deeper than MAX_JSON_DEPTH): skipped, never built. */
  onRefusedItem?(at: string, index: number, error: JsonInputError): void;
}

/** Object levels a market array may sit under: `{"data": {"markets": […]}}` at most (GraphQL, HAL's `_embedded`). */
const MAX_ENVELOPE_DEPTH = 2;
/** Array members kept whole in list mode, never streamed: Siren's `links` (read for paging). */
const KEPT_ARRAYS: ReadonlySet<string> = new Set(['links']);

/**
 * Whether an array opening under `stack` is a market-array candidate, streamed item by item: the
 * top-level array, or an array member of an object nested at most MAX_ENVELOPE_DEPTH objects deep
 * from the top (every container above it an object), unless its name is in KEPT_ARRAYS.
 */
function isCandidateArray(stack: readonly Frame[]): boolean {
  if (stack.length === 0) return true;
  if (stack.length > MAX_ENVELOPE_DEPTH || !stack.every((frame) => frame.kind === 'object')) return false;
  return !KEPT_ARRAYS.has((stack[stack.length - 1] as Frame).key as string);
}

/**
 * The end of a read: the value (in list mode, the top level with every streamed array replaced by
 * its item count) or why it is not JSON; `rule` when it broke a JSON rule of floor/bounded-json.ts.
 */
export type JsonReadResult = { ok: true; value: unknown } | { ok: false; reason: string; rule?: JsonInputError };

/** A streaming JSON reader: feed decoded text with `write`, then `end`. */
export interface JsonReader {
  write(text: string): void;
  end(): JsonReadResult;
}

/** Stands for a streamed array in the top-level value of a list-mode read. */
export class StreamedArray {
  constructor(readonly streamedItems: number) {}
}

type Token = { name: string; value?: unknown };

interface Frame {
  kind: 'object' | 'array';
  value: Record<string, unknown> | unknown[];
  /** Member name waiting for its value (objects). */
  key: string | undefined;
  /** Next index (arrays). */
  index: number;
  /** Items go to onItem instead of the value (list mode's candidate arrays). */
  streamed: boolean;
  /** The pointer of a streamed array (`''` for the top-level array). */
  candidate: string;
}

/**
 * Creates a reader over stream-json's tokenizer (it does the lexing: UTF-16 text in, tokens out,
 * with each number's literal text). This module assembles values the way `JSON.parse` does
 * (the last of duplicate members wins; numbers are `Number(literal)`), and reports what
 * JSON.parse hides as anomalies.
 *
 * - `value` mode builds the whole value (single-market bodies).
 * - `list` mode streams the items of the top-level array, or of each array member of the objects
 *   of an envelope (isCandidateArray: the candidates), to `onItem` and never keeps them: memory
 *   stays at one item plus the envelope's other members, whatever the list's size.
 */
export function createJsonReader(mode: 'value' | 'list', events: JsonReaderEvents = {}): JsonReader {
  const tokenize = jsonParser({ packValues: true, streamValues: false });
  const stack: Frame[] = [];
  let root: unknown;
  let hasRoot = false;
  let failure: string | undefined;
  let broken: JsonInputError | undefined;
  const pointer = (last?: string | number): string => stackPointer(stack, last);

  const deliver = (value: unknown): void => {
    const top = stack[stack.length - 1];
    if (!top) {
      root = value;
      hasRoot = true;
      return;
    }
    placeInFrame(top, value, events, pointer);
  };

  const guard = createRuleGuard(stack, pointer, events, (error) => {
    broken = error;
    failure = error.message;
  });

  const open = (kind: 'object' | 'array'): void => {
    if (!guard.open()) return;
    const streamed = mode === 'list' && kind === 'array' && isCandidateArray(stack);
    const candidate = streamed ? pointer() : '';
    if (streamed) events.onArray?.(candidate);
    stack.push({ kind, value: kind === 'object' ? {} : [], key: undefined, index: 0, streamed, candidate });
  };

  const close = (): void => {
    const frame = stack.pop() as Frame;
    deliver(frame.streamed ? new StreamedArray(frame.index) : frame.value);
  };

  const consume = (token: Token): void => {
    if (failure !== undefined || guard.skipped(token.name)) return;
    dispatchToken(token, { open, close, member: (name) => guard.member(name), value: deliver, number: (literal) => readNumber(literal, events, pointer) });
  };

  const feed = (input: string | typeof none): void => {
    if (failure !== undefined) return;
    try {
      const out = tokenize(input as string) as unknown;
      if (isMany(out)) for (const token of getManyValues(out) as Token[]) consume(token);
      else if (out !== none && out !== undefined && out !== null) consume(out as Token);
    } catch (error) {
      failure = error instanceof Error ? error.message.replace(/^Parser cannot parse input: /, '') : String(error);
    }
  };

  return {
    write(text) {
      if (text.length > 0) feed(text);
    },
    end() {
      feed(none);
      if (broken !== undefined) return { ok: false, reason: `refused: ${broken.message}`, rule: broken };
      if (failure !== undefined) return { ok: false, reason: `not JSON: ${failure}` };
      if (!hasRoot || stack.length > 0) return { ok: false, reason: hasRoot || stack.length > 0 ? 'not JSON: the text ends before the value is complete' : 'not JSON: no value (an empty body)' };
      return { ok: true, value: root };
    },
  };
}

/** The RFC 6901 pointer of the place the stack is at (with `last` appended when given). */
function stackPointer(stack: readonly Frame[], last?: string | number): string {
  let text = '';
  for (const frame of stack) {
    const token = frame.kind === 'array' ? frame.index : frame.key;
    if (token !== undefined) text += `/${pointerToken(token)}`;
  }
  return last === undefined ? text : `${text}/${pointerToken(last)}`;
}

/** Puts a complete value into the open container: an array item (streamed to onItem in list mode) or an object member (a duplicate name reported). */
function placeInFrame(top: Frame, value: unknown, events: JsonReaderEvents, pointer: () => string): void {
  if (top.kind === 'array') {
    if (top.streamed) events.onItem?.(top.candidate, top.index, value);
    else (top.value as unknown[]).push(value);
    top.index++;
    return;
  }
  const record = top.value as Record<string, unknown>;
  const key = top.key as string;
  if (Object.hasOwn(record, key)) {
    events.onAnomaly?.({ kind: 'duplicate-member', pointer: pointer(), literal: JSON.stringify(key), detail: `named twice in one object; the last value, ${shortJson(value)}, is used (as JSON.parse does), not ${shortJson(record[key])}` });
  }
  setMember(record, key, value);
  top.key = undefined;
}

/**
 * Sets a member as JSON.parse does (CreateDataProperty, ECMA-262 §25.5.1): an own data property
 * whatever its name, so `__proto__` is a member like any other and never the object's prototype.
 * A deployment's member names are data: none changes what the checks see (`constructor`,
 * `toString`, `hasOwnProperty` are plain own members of the object they are in).
 */
function setMember(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

/** A number token as JSON.parse reads it (`Number(literal)`), reporting a literal that does not round-trip. */
function readNumber(literal: string, events: JsonReaderEvents, pointer: () => string): number {
  const value = Number(literal);
  // Fast path: at most 15 characters and no exponent means at most 15 significant digits, which
  // every double holds exactly (DBL_DIG); only longer literals or exponents need the full test.
  if (literal.length <= 15 && !literal.includes('e') && !literal.includes('E')) return value;
  if (String(value) !== literal) {
    const unsafe = unsafeNumber(literal, value);
    if (unsafe) events.onAnomaly?.({ kind: 'unsafe-number', pointer: pointer(), literal, detail: unsafe });
  }
  return value;
}

/** What each stream-json token does to the value being assembled. */
function dispatchToken(token: Token, on: { open(kind: 'object' | 'array'): void; close(): void; member(name: string): void; value(value: unknown): void; number(literal: string): number }): void {
  switch (token.name) {
    case 'startObject': on.open('object'); break;
    case 'startArray': on.open('array'); break;
    case 'endObject':
    case 'endArray': on.close(); break;
    case 'keyValue': on.member(token.value as string); break;
    case 'stringValue': on.value(token.value); break;
    case 'numberValue': on.value(on.number(token.value as string)); break;
    case 'nullValue': on.value(null); break;
    case 'trueValue': on.value(true); break;
    case 'falseValue': on.value(false); break;
    default: break;
  }
}

/**
 * Applies the JSON rule of floor/bounded-json.ts that binds a deployment's answers while tokens
 * stream: a container past MAX_JSON_DEPTH (member names are data: any name is read, setMember). Inside an item of a streamed array the item is
 * dropped, the rest of it skipped and `onRefusedItem` told once it ends (one refused item, the list
 * read on); anywhere else `fail` ends the read. Nothing deeper than the limit is ever built.
 */
function createRuleGuard(stack: Frame[], pointer: () => string, events: JsonReaderEvents, fail: (error: JsonInputError) => void) {
  // Containers of the refused item still open in the text, and why it is refused.
  let skipping = 0;
  let refusal: JsonInputError | undefined;
  const violate = (error: JsonInputError, opening: boolean): void => {
    const list = stack.findIndex((frame) => frame.streamed);
    if (list === -1 || (stack.length === list + 1 && !opening)) return fail(error);
    skipping = stack.length - (list + 1) + (opening ? 1 : 0);
    stack.length = list + 1;
    refusal = error;
  };
  return {
    /** Before a container opens; false when it passes the depth limit (it is never pushed). */
    open(): boolean {
      if (stack.length < MAX_JSON_DEPTH) return true;
      violate(depthError(pointer(), MAX_JSON_DEPTH), true);
      return false;
    },
    member(name: string): void {
      (stack[stack.length - 1] as Frame).key = name;
    },
    /** True while a refused item is skipped (the token is then consumed here). */
    skipped(name: string): boolean {
      if (skipping === 0) return false;
      if (name === 'startObject' || name === 'startArray') skipping++;
      else if (name === 'endObject' || name === 'endArray') skipping--;
      if (skipping > 0) return true;
      const frame = stack[stack.length - 1] as Frame;
      events.onRefusedItem?.(frame.candidate, frame.index, refusal as JsonInputError);
      frame.index++;
      refusal = undefined;
      return true;
    },
  };
}

/** Reads a whole JSON text in value mode. */
export function readJsonText(text: string, onAnomaly?: (anomaly: JsonAnomaly) => void): JsonReadResult {
  const reader = createJsonReader('value', onAnomaly ? { onAnomaly } : {});
  reader.write(text);
  return reader.end();
}

/**
 * Why a number literal does not round-trip to a finite double, or undefined when it does (its
 * decimal value equals the double's: `0.50`, `1e2`, `-0` round-trip; `0.1` does, as a double's
 * shortest decimal form is `0.1`).
 */
export function unsafeNumber(literal: string, value = Number(literal)): string | undefined {
  if (!Number.isFinite(value)) return `does not fit a double: JSON.parse gives ${value}, which JSON.stringify writes as null`;
  if (decimalDigits(literal) === decimalDigits(String(value))) return undefined;
  if (value === 0) return 'underflows: JSON.parse gives 0';
  return `loses digits in a double: JSON.parse gives ${value}`;
}

/** The decimal value of a number text as `[-]digits e exponent` with no leading or trailing zeros (`0` for zero). */
function decimalDigits(text: string): string {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (!m) return text;
  const whole = m[2] ?? '';
  const fraction = m[3] ?? '';
  let digits = `${whole}${fraction}`;
  let exponent = Number(m[4] ?? '0') - fraction.length;
  digits = digits.replace(/^0+/, '');
  if (digits === '') return '0';
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return `${m[1]}${digits}e${exponent}`;
}

function shortJson(value: unknown): string {
  if (value instanceof StreamedArray) return `an array of ${value.streamedItems} items`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
