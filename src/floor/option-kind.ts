import { httpUrlExpected, readHttpUrl } from './http-url.js';
import { isCalendarDate } from './market-rules.js';
import { INSTANT_EXPECTED, parseInstant, parseStep, STEP_EXPECTED } from './instant.js';
import { MAX_TOKEN_LENGTH } from './limits.js';

/**
 * What values an option takes. One definition per rule, read two ways: from text (command-line
 * flags, environment variables) and from typed values (library options, config files, admin
 * bodies), with the same `expected` wording on every surface.
 */
export type OptionKind =
  | { type: 'integer'; min: number; max: number }
  | { type: 'number'; min: number; max: number }
  | { type: 'boolean' }
  | { type: 'choice'; choices: readonly string[] }
  /** Non-empty text. */
  | { type: 'string' }
  /** A file or directory path (non-empty text). */
  | { type: 'path' }
  /** A credential sent in an HTTP header (`--admin-token`): printable ASCII (U+0020–U+007E), no space at either end, taken as given (never trimmed). */
  | { type: 'token' }
  /** A YYYY-MM-DD calendar date (RFC 3339 full-date). */
  | { type: 'date' }
  /** A YYYY-MM-DD date or an RFC 3339 date-time, 1970–9999 (floor/instant.ts). */
  | { type: 'instant' }
  /** A price step: an ISO 8601 duration without years or months, PT1S to P366D (floor/instant.ts parseStep). */
  | { type: 'step' }
  /** An absolute http:// or https:// URL. */
  | { type: 'url' }
  /** Repeatable text values (a flag given several times; comma- or newline-separated in the environment). */
  | { type: 'list'; separator: ',' | '\n' };

export type OptionValue = string | number | boolean | readonly string[];

/** The outcome of reading one value: the value, or what was expected instead. */
export type ReadResult = { ok: true; value: OptionValue } | { ok: false; expected: string };

/** `an integer from 0 to 65535`, `one of text, json, junit`…: the wording every surface uses. */
export function expectedText(kind: OptionKind): string {
  switch (kind.type) {
    case 'integer': return `an integer from ${kind.min} to ${kind.max}`;
    case 'number': return `a number from ${kind.min} to ${kind.max}`;
    case 'boolean': return 'true or false';
    case 'choice': return `one of ${kind.choices.join(', ')}`;
    case 'string': return 'a non-empty value';
    case 'path': return 'a file or directory path';
    case 'token': return `a token of at most ${MAX_TOKEN_LENGTH} printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged`;
    case 'date': return 'a YYYY-MM-DD calendar date';
    case 'instant': return INSTANT_EXPECTED;
    case 'step': return STEP_EXPECTED;
    case 'url': return httpUrlExpected(URL_KIND);
    case 'list': return 'one or more non-empty values';
  }
}

/** The type label `--help` shows: `[integer]`, `[number]`, `[boolean]`, `[date]`… */
export function typeLabel(kind: OptionKind): string {
  switch (kind.type) {
    case 'choice': return `[${kind.choices.join('|')}]`;
    case 'list': return '[string, repeatable]';
    default: return `[${kind.type}]`;
  }
}

const INTEGER_TEXT = /^[+-]?\d+$/;
// JSON's number grammar (RFC 8259 §6) plus a leading `+` and a bare leading `.`, as people type them.
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE_TEXT = ['1', 'true', 'yes', 'on'];
const FALSE_TEXT = ['0', 'false', 'no', 'off'];

/**
 * Reads an option from text, as flags and environment variables give it. Numbers must be plain
 * decimal text (`4010`, `0.25`; not `0x10`, `1e3` for integers, or `12abc`); booleans accept
 * 1/0, true/false, yes/no, on/off; a list takes a repeated flag or one string, each split on the
 * kind's separator, except that a flag's value is never split on a newline (`fromFlag`): a flag
 * is repeated instead, and a newline inside one `--header` value must stay visible to be refused.
 */
export function readText(kind: OptionKind, raw: unknown, fromFlag = false): ReadResult {
  if (kind.type === 'boolean' && typeof raw === 'boolean') return { ok: true, value: raw };
  if (kind.type === 'list') {
    const whole = fromFlag && kind.separator === '\n';
    return readList(kind, (Array.isArray(raw) ? raw : [raw]).flatMap((item) => (typeof item === 'string' && !whole ? item.split(kind.separator) : [item])));
  }
  if (Array.isArray(raw)) return { ok: false, expected: `${expectedText(kind)}, given once` };
  // A token is taken as given: trimmed, a token with spaces at its ends would authenticate differently from what was typed.
  if (kind.type === 'token') return readString(kind, String(raw));
  const text = String(raw).trim();
  switch (kind.type) {
    case 'integer':
      return INTEGER_TEXT.test(text) ? readNumber(kind, Number(text)) : fail(kind);
    case 'number':
      return NUMBER_TEXT.test(text) ? readNumber(kind, Number(text)) : fail(kind);
    case 'boolean': {
      const lower = text.toLowerCase();
      if (TRUE_TEXT.includes(lower)) return { ok: true, value: true };
      if (FALSE_TEXT.includes(lower)) return { ok: true, value: false };
      return fail(kind);
    }
    default:
      return readString(kind, text);
  }
}

/**
 * Reads an option from a typed value, as library options and config files give it: numbers must
 * be JSON numbers, booleans booleans, lists arrays of strings (no text conversion, so
 * `count: "5"` is refused rather than guessed).
 */
export function readTyped(kind: OptionKind, value: unknown): ReadResult {
  switch (kind.type) {
    case 'integer':
    case 'number':
      return typeof value === 'number' ? readNumber(kind, value) : fail(kind);
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : fail(kind);
    case 'list':
      return Array.isArray(value) ? readList(kind, value) : fail(kind);
    default:
      return typeof value === 'string' ? readString(kind, value) : fail(kind);
  }
}

function readNumber(kind: Extract<OptionKind, { type: 'integer' | 'number' }>, n: number): ReadResult {
  const whole = kind.type === 'number' || Number.isSafeInteger(n);
  return Number.isFinite(n) && whole && n >= kind.min && n <= kind.max ? { ok: true, value: n } : fail(kind);
}

function readString(kind: OptionKind, text: string): ReadResult {
  if (text.trim() === '') return fail(kind);
  // A NUL ends a C string: a path, a header, a process argument would each be cut or refused later, elsewhere.
  if (text.includes('\0')) return { ok: false, expected: `${expectedText(kind)}, without a NUL character (U+0000)` };
  switch (kind.type) {
    case 'choice':
      return kind.choices.includes(text) ? { ok: true, value: text } : fail(kind);
    case 'date':
      return isCalendarDate(text) ? { ok: true, value: text } : fail(kind);
    case 'instant':
      return parseInstant(text) === undefined ? fail(kind) : { ok: true, value: text };
    case 'step':
      return parseStep(text) === undefined ? fail(kind) : { ok: true, value: text };
    case 'url':
      return readHttpUrl(text, URL_KIND).ok ? { ok: true, value: text } : fail(kind);
    case 'token':
      return text.length <= MAX_TOKEN_LENGTH && SENDABLE_TOKEN.test(text) ? { ok: true, value: text } : fail(kind);
    default:
      return { ok: true, value: text };
  }
}

/**
 * A token every HTTP client sends unchanged in `Authorization: Bearer …`: printable ASCII, no
 * space at either end (RFC 9110 §5.5: a field value's surrounding whitespace is not part of it;
 * characters beyond Latin-1 cannot be sent, and Latin-1 letters arrive as UTF-8 from some clients
 * and as one byte from others, so they are refused too).
 */
const SENDABLE_TOKEN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function readList(kind: Extract<OptionKind, { type: 'list' }>, items: readonly unknown[]): ReadResult {
  const values = items.map((item) => (typeof item === 'string' ? item.trim() : item));
  if (values.length === 0 || !values.every((v): v is string => typeof v === 'string' && v !== '')) return fail(kind);
  // A NUL in a list item is left to the option's own check, which names the item (a --header's CR, LF or NUL).
  return { ok: true, value: values };
}

/** The `url` kind takes credentials and a query: the surface that reads the value refuses what it must (contract/http-client/base-url.ts parseBaseUrl refuses credentials without showing them). */
const URL_KIND = { credentials: true, query: true } as const;

function fail(kind: OptionKind): ReadResult {
  return { ok: false, expected: expectedText(kind) };
}

// The kinds as literal types, so option tables type their values (options/option-values.ts) and library
// field tables (option-fields.ts) check them: one definition of each for every surface.

/** An integer kind within [min, max]. */
export const int = (min: number, max: number) => ({ type: 'integer', min, max }) as const;
/** One of `choices`, typed as their union. */
export const choice = <C extends string>(...choices: C[]) => ({ type: 'choice', choices }) as const;
/** True or false. */
export const BOOLEAN = { type: 'boolean' } as const;
/** Non-empty text. */
export const TEXT = { type: 'string' } as const;
/** An instant: a YYYY-MM-DD date or an RFC 3339 date-time. */
export const INSTANT = { type: 'instant' } as const;
/** A price step (an ISO 8601 duration of fixed length). */
export const STEP = { type: 'step' } as const;
/** Repeatable text values, comma-separated in the environment. */
export const LIST = { type: 'list', separator: ',' } as const;
