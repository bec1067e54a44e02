import { createRedactor, type Redactor } from '../floor/redact-secrets.js';
import { secretQueryValues, type SecretNames } from '../floor/secret-names.js';
import { cookieValues } from '../contract/http-client/index.js';

/** Request header names whose values are credentials: the usual ones, and any name that says so. */
const CREDENTIAL_NAME = /^(authorization|proxy-authorization|cookie)$|auth|token|api-?key|secret|session|password|signature|credential/i;

/**
 * The credential values a client sent, each to be redacted everywhere: headers (raw pairs as
 * node:http gives them) whose name says so or is in `names` (the defaults and --redact-header;
 * a `Cookie` field's value whole and each cookie's value, RFC 6265 §5.4),
 * and query parameters in `names` (token, api_key, signature… and --redact-query) of `target`.
 */
export function credentialValues(rawHeaders: readonly string[], target = '', names?: SecretNames): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    if (!CREDENTIAL_NAME.test(name) && !names?.header(name)) continue;
    values.push(rawHeaders[i + 1] ?? '');
    // Each cookie's value on its own too: an upstream may echo one cookie rather than the whole field.
    if (name.toLowerCase() === 'cookie') values.push(...cookieValues(rawHeaders[i + 1], 'cookie'));
  }
  const q = target.indexOf('?');
  if (names && q !== -1) values.push(...secretQueryValues(target.slice(q + 1), names));
  return values;
}

/**
 * The credentials the proxy has seen, for redaction at its sinks (report, log lines, recorded
 * fixtures). Bounded: the latest MAX_SECRETS distinct values are kept, besides the `pinned` ones
 * (the secret values of the upstream URL's own query), which are never let go. Each exchange is
 * also redacted with its own request's credentials before anything of it is kept, so a value that
 * fell out of the book is still never written for the exchange that carried it.
 */
export class SecretBook {
  static readonly MAX_SECRETS = 256;
  private readonly values = new Set<string>();
  private current: Redactor;

  constructor(private readonly pinned: readonly string[] = []) {
    this.current = createRedactor([...pinned]);
  }

  /** Adds values (moving known ones to the newest place); returns true when the book changed. */
  add(values: readonly string[]): boolean {
    let changed = false;
    for (const value of values) {
      if (this.values.has(value)) continue;
      this.values.add(value);
      if (this.values.size > SecretBook.MAX_SECRETS) this.values.delete(this.values.values().next().value as string);
      changed = true;
    }
    if (changed) this.current = createRedactor([...this.pinned, ...this.values]);
    return changed;
  }

  /** A redactor for every value in the book now. */
  redactor(): Redactor {
    return this.current;
  }
}
