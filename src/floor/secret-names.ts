import { DEFAULT_SECRET_HEADERS, DEFAULT_SECRET_QUERY } from './limits.js';
/**
 * The names whose values are secrets wherever market-stub keeps or shows a request: the journal,
 * the request log, the proxy's logs and reports. One default list, documented in
 * docs/networks.md, that a user extends (`--redact-header`, `--redact-query`, the library's
 * `redactHeaders` / `redactQuery`); names compare case-insensitively.
 */



/** What replaces a secret value. */
const REDACTED = '[redacted]';

/** The secret header and query names of one stub or proxy: the defaults plus the user's. */
export interface SecretNames {
  /** True for a header whose value is a secret (`name` in any case). */
  header(name: string): boolean;
  /** True for a query parameter whose value is a secret (`name` in any case, percent-decoded). */
  query(name: string): boolean;
  /** A raw query string (without `?`) with every secret parameter's value replaced by `[redacted]`; the same string when there is none. */
  redactQuery(raw: string): string;
  /** A request target (`/markets?token=abc`) with its query redacted. */
  redactTarget(target: string): string;
  /** Any text with every `?name=value` / `&name=value` of a secret parameter redacted (URLs inside report messages). */
  redactText(text: string): string;
}

/** The defaults plus `extraHeaders` and `extraQuery`. */
export function secretNames(extraHeaders: readonly string[] = [], extraQuery: readonly string[] = []): SecretNames {
  const headers = new Set([...DEFAULT_SECRET_HEADERS, ...extraHeaders.map((n) => n.toLowerCase())]);
  const query = new Set([...DEFAULT_SECRET_QUERY, ...extraQuery.map((n) => n.toLowerCase())]);
  const isQuery = (name: string) => query.has(decodeName(name).toLowerCase());
  const redactQuery = (raw: string): string => {
    if (raw === '') return raw;
    let changed = false;
    const parts = raw.split('&').map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1 || !isQuery(part.slice(0, eq))) return part;
      changed = true;
      return `${part.slice(0, eq)}=${REDACTED}`;
    });
    return changed ? parts.join('&') : raw;
  };
  const inText = /([?&])([^=&#?\s"'<>]+)=([^&#\s"'<>]*)/g;
  return {
    header: (name) => headers.has(name.toLowerCase()),
    redactText: (text) => (text.includes('=') ? text.replace(inText, (whole, lead: string, name: string) => (isQuery(name) ? `${lead}${name}=${REDACTED}` : whole)) : text),
    query: isQuery,
    redactQuery,
    redactTarget(target) {
      const q = target.indexOf('?');
      return q === -1 ? target : `${target.slice(0, q + 1)}${redactQuery(target.slice(q + 1))}`;
    },
  };
}

/** The values of the secret parameters of a raw query string (decoded as application/x-www-form-urlencoded), for redaction by value. */
export function secretQueryValues(raw: string, names: SecretNames): string[] {
  if (raw === '') return [];
  const values: string[] = [];
  for (const [name, value] of new URLSearchParams(raw)) if (value !== '' && names.query(name)) values.push(value);
  return values;
}

/** A deep copy of a JSON value with `names.redactText` applied to every string (a report, a finding). */
export function redactQueryValues<T>(value: T, names: SecretNames): T {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => (typeof item === 'string' ? names.redactText(item) : item)) as T;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}
