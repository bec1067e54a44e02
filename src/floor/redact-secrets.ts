/**
 * Redaction of secrets (header values given to market-stub) by value, whatever format they were
 * written in. One redactor is applied at every sink of check, record and proxy: text, JSON and
 * JUnit reports, log lines, stderr messages, recorded fixtures and `invalid/` files.
 *
 * For each secret the redactor derives every form a sink may show it in, and replaces each
 * occurrence, and each truncated prefix of at least PREFIX_MIN characters, with `[redacted]`:
 * - the raw value, and the value without an auth scheme (`Bearer abc` → `abc`); for `Basic`, the
 *   decoded `user:password` and the password;
 * - JSON-escaped once and twice (a JSON report of a finding whose `found` is JSON text);
 * - XML/HTML-escaped, as element text and as an attribute value, also over the JSON-escaped form
 *   (a JUnit `message` attribute holding a JSON-quoted value);
 * - percent-encoded (upper- and lower-case hex, `+` for space as in form encoding).
 * Secrets shorter than MIN_SECRET characters are left alone: they would match ordinary text.
 */
import { utf8, utf8Text } from './bytes.js';

import { mapStrings } from './display-value.js';

/** What replaces a secret. */
export const REDACTED = '[redacted]';
/** Secrets shorter than this are not redacted (they would match ordinary words). */
export const MIN_SECRET = 4;
/** A truncated form is redacted when at least this many leading characters of it show. */
export const PREFIX_MIN = 12;

/** Replaces secrets in text and values. Immutable once built; `extend` returns a new one. */
export interface Redactor {
  /** True when there is at least one secret to redact. */
  readonly active: boolean;
  /** `text` with every form of every secret (and each truncated prefix of one) replaced by `[redacted]`. */
  redact(text: string): string;
  /** True when `text` holds a form of a secret (a whole one, not a prefix). */
  contains(text: string): boolean;
  /** A deep copy of a JSON-like value with `redact` applied to every string and key. */
  redactValue<T>(value: T): T;
  /** A redactor for these secrets plus more. */
  extend(secrets: readonly string[]): Redactor;
}

/**
 * Builds a redactor for `secrets` (header values, tokens). Forms are computed once here, so
 * `redact` costs one `indexOf` scan per form and text.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const given = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET))];
  const forms = [...new Set(given.flatMap(formsOf))].filter((f) => f.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
  const redact = (text: string): string => {
    if (forms.length === 0 || text.length < MIN_SECRET) return text;
    return replaceIntervals(text, matches(text, forms));
  };
  const redactValue = <T>(value: T): T => (forms.length === 0 ? value : mapStrings(value, redact));
  return {
    active: forms.length > 0,
    redact,
    contains: (text) => forms.some((form) => text.includes(form)),
    redactValue,
    extend: (more) => createRedactor([...given, ...more]),
  };
}

/** Every form a sink may write `secret` in (see the module comment). */
function formsOf(secret: string): string[] {
  const bases = new Set([secret]);
  const scheme = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)[ \t]+(\S.*)$/s.exec(secret);
  if (scheme?.[2]) {
    bases.add(scheme[2]);
    if (scheme[1]?.toLowerCase() === 'basic') {
      const decoded = base64Text(scheme[2]);
      if (/^[^:]*:.+$/s.test(decoded)) {
        bases.add(decoded);
        bases.add(decoded.slice(decoded.indexOf(':') + 1));
      }
    }
  }
  const forms: string[] = [];
  for (const base of bases) {
    const json = jsonEscape(base);
    forms.push(base, json, jsonEscape(json), xmlText(base), xmlAttr(base), htmlAttr(base), xmlAttr(json), xmlText(json), htmlAttr(json));
    const percent = encodeURIComponent(base);
    forms.push(percent, percent.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), new URLSearchParams({ s: base }).toString().slice(2));
  }
  return forms;
}

/**
 * Every stretch of `text` that shows a form: a whole occurrence, or a truncated prefix (at least
 * PREFIX_MIN characters) extended as far as it agrees with the form. Stretches are collected for
 * all forms before anything is replaced, so one form's match never breaks another's.
 */
function matches(text: string, forms: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const form of forms) {
    const head = form.length <= PREFIX_MIN ? form : form.slice(0, PREFIX_MIN);
    for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
      let end = at + head.length;
      while (end < text.length && end - at < form.length && text[end] === form[end - at]) end++;
      if (end - at === form.length || end - at >= PREFIX_MIN) found.push([at, end]);
    }
  }
  return found;
}

/** `text` with each stretch (overlapping ones merged) replaced by `[redacted]`. */
function replaceIntervals(text: string, stretches: Array<[number, number]>): string {
  if (stretches.length === 0) return text;
  stretches.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let cursor = 0;
  let [start, end] = stretches[0] as [number, number];
  for (const [from, to] of stretches.slice(1)) {
    if (from <= end) {
      end = Math.max(end, to);
      continue;
    }
    out += `${text.slice(cursor, start)}${REDACTED}`;
    cursor = end;
    [start, end] = [from, to];
  }
  return `${out}${text.slice(cursor, start)}${REDACTED}${text.slice(end)}`;
}

function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function xmlText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function xmlAttr(text: string): string {
  return xmlText(text).replaceAll('"', '&quot;').replaceAll("'", '&apos;').replaceAll('\t', '&#x9;').replaceAll('\n', '&#xA;').replaceAll('\r', '&#xD;');
}

function htmlAttr(text: string): string {
  return xmlText(text).replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** The UTF-8 text a base64 value (RFC 4648 §4; stray characters and missing padding tolerated, as Node's decoder does) encodes; '' when it is not base64. */
function base64Text(value: string): string {
  const clean = value.replace(/-/g, '+').replace(/_/g, '/').replace(/[^A-Za-z0-9+/]/g, '');
  try {
    return utf8Text(Uint8Array.from(atob(clean + '='.repeat((4 - (clean.length % 4)) % 4)), (c) => c.charCodeAt(0)));
  } catch {
    return '';
  }
}

/** What redactAnswer reads and rewrites of an answer: a Reply (runtime/reply.ts) has this shape. */
export interface RedactableAnswer {
  headers: Record<string, string>;
  body: Uint8Array;
  chunks?: Iterable<Uint8Array>;
  shared?: true;
}

/**
 * The one rule for secrets in answers: every body and header market-stub itself writes to a client
 * (the proxy's 502/504, the admin API's errors, the stub's own error replies; HAR and MCP answers
 * when they exist) passes here, through the same Redactor as the logs and reports, before it is
 * sent. Header values and a UTF-8 body have every form of every secret replaced by `[redacted]`
 * (Content-Length follows the new body). A body of chunks or a shared one (a catalog's bytes, not
 * made from a request) is market data, not a message, and is left as it is. Returns `answer`
 * itself when nothing changes, else a copy; `answer` is never modified.
 */
export function redactAnswer<A extends RedactableAnswer>(answer: A, redactor: Redactor): A {
  if (!redactor.active) return answer;
  let headers: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(answer.headers)) {
    const shown = redactor.redact(value);
    if (shown !== value) (headers ??= { ...answer.headers })[name] = shown;
  }
  let body: Uint8Array | undefined;
  if (answer.chunks === undefined && answer.shared === undefined && answer.body.byteLength > 0) {
    const text = utf8Text(answer.body);
    const shown = redactor.redact(text);
    if (shown !== text) {
      body = utf8(shown);
      headers ??= { ...answer.headers };
      if (headers['content-length'] !== undefined) headers['content-length'] = String(body.byteLength);
    }
  }
  if (headers === undefined && body === undefined) return answer;
  return { ...answer, headers: headers ?? answer.headers, body: body ?? answer.body };
}
