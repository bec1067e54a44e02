import { loadMarketSchema } from '../../schema/market-schema.js';
import { describeFound } from '../../schema/finding.js';
import { parseJsonText } from '../../floor/bounded-json.js';
import { MAX_JSON_DEPTH } from '../../floor/limits.js';
import { StreamedArray } from '../http-client/index.js';

// How the checks describe what they found: media types, charsets and bodies in words.

let documentedFields: ReadonlySet<string> | undefined;

/** Field names `$defs/Market` documents; anything else is an undocumented (extra) field. */
export function documentedMarketFields(): ReadonlySet<string> {
  documentedFields ??= new Set(Object.keys((loadMarketSchema().$defs['Market'] as { properties: Record<string, unknown> }).properties));
  return documentedFields;
}

/** True for `application/json` and structured `+json` media types (RFC 8259 §11, RFC 6839 §3.1). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

/** The `charset` parameter of a Content-Type (RFC 9110 §8.3.2), or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*("?)([^";]*)\1/i.exec(contentType ?? '');
  return m ? (m[2] ?? '').trim() : undefined;
}

/**
 * Parses a body as JSON under the JSON rules that bind a deployment (floor/bounded-json.ts: depth;
 * member names are data); `ok: false` when it is not JSON (empty bodies included) or is too deep: such a body is kept and
 * described as text, never as a value no serialiser could write back.
 */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: parseJsonText(text, MAX_JSON_DEPTH, false) };
  } catch {
    return { ok: false };
  }
}

/** A short description of a body for findings and the probe: `a JSON object with keys error, message` or `text/html, 132 bytes: "<!doctype…"`. */
export function describeBody(text: string, contentType: string | undefined, bytes = Buffer.byteLength(text)): string {
  const parsed = parseJsonBody(text);
  if (!parsed.ok) {
    if (bytes === 0) return 'an empty body';
    return `${contentType ?? 'no Content-Type'}, ${bytes} bytes: ${describeFound(text.slice(0, 40), 44)}`;
  }
  return describeValue(parsed.value);
}

/** A short description of a JSON value: `a JSON array of 3 items`, `a JSON object with keys a, b`. */
export function describeValue(value: unknown): string {
  if (value instanceof StreamedArray) return `a JSON array of ${value.streamedItems} item${value.streamedItems === 1 ? '' : 's'}`;
  if (Array.isArray(value)) return `a JSON array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    return keys.length === 0 ? 'an empty JSON object' : `a JSON object with keys ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`;
  }
  return `JSON ${value === null ? 'null' : typeof value} ${describeFound(value)}`;
}
