import type * as ToughCookie from 'tough-cookie';
import { MAX_COOKIE_BYTES, MAX_COOKIE_VALUES, MAX_RUN_COOKIES } from '../../floor/limits.js';

/**
 * The cookies one check, record or delisted re-check run keeps: what a deployment sets with
 * `Set-Cookie` (a load balancer's stickiness cookie, a session a gateway needs on the next page)
 * goes back to it on the following requests, as a browser or `curl -b FILE -c FILE` would.
 *
 * - Kept and sent only on the origin of the base URL (scheme, host, port): an answer from another
 *   origin (a redirect or paging link elsewhere) sets nothing, and nothing is sent there. That is
 *   narrower than RFC 6265 §5.4, whose host-only cookies ignore the port and whose `Domain`
 *   cookies reach sibling hosts; a cookie goes where the `--header` values go, and nowhere else.
 * - Within the origin the jar follows RFC 6265 (tough-cookie's CookieJar: `Path` §5.1.4, `Expires`
 *   and `Max-Age` §5.2.1-2, `Secure` §5.4 step 1 only over https, a `Domain` that does not cover the
 *   host refused §5.3 step 6, a public suffix refused).
 * - Bounded: MAX_RUN_COOKIES cookies at most, each `Set-Cookie` field at most MAX_COOKIE_BYTES
 *   (RFC 6265 §6.1's minimums a user agent supports); past them a cookie is not kept (`dropped`
 *   names it).
 * - Every value kept of MIN_COOKIE_SECRET characters or more is a secret of the run (`values`, the latest MAX_COOKIE_VALUES): redacted from
 *   every report, log line and recorded fixture like a `--header` value (floor/redact-secrets.ts).
 */
export interface RunCookies {
  /** Loads tough-cookie (on first use, as undici is: `serve` never loads it) and makes the jar; before it, the jar is empty and keeps nothing. */
  load(): Promise<void>;
  /** The `Cookie` field for a request to `url` (RFC 6265 §5.4), or undefined when none applies or `url` is on another origin. */
  header(url: URL): string | undefined;
  /** Keeps the cookies of an answer's `Set-Cookie` fields (§5.2, §5.3) when `url` (the URL that answered) is on the origin. */
  store(url: URL, fields: string | readonly string[] | undefined): void;
  /** The cookie values kept during the run (MIN_COOKIE_SECRET characters or more), the latest MAX_COOKIE_VALUES distinct ones (also those replaced or expired since), for redaction. */
  values(): readonly string[];
  /** Names of the cookies set but not kept (over a limit, or refused by RFC 6265), at most MAX_RUN_COOKIES. */
  dropped(): readonly string[];
  /** Names of the cookies kept (never their values). */
  names(): readonly string[];
}

/**
 * Characters a cookie value needs to count as a secret: a session or stickiness value is a long
 * token (`AWSALB`, a JWT); a shorter one (`theme=dark`, `consent=true`, `lang=en`) would match
 * ordinary words of a report if redacted, and says nothing if echoed.
 */
const MIN_COOKIE_SECRET = 8;

/** Creates the cookie jar of a run on `origin` (`https://host:port`, URL.origin); call `load` before the first request. */
export function createRunCookies(origin: string): RunCookies {
  let tough: typeof ToughCookie | undefined;
  let jar: ToughCookie.CookieJar | undefined;
  const names = new Set<string>();
  const values = new Set<string>();
  const dropped = new Set<string>();
  const drop = (name: string) => {
    if (dropped.size < MAX_RUN_COOKIES) dropped.add(name);
  };
  // The latest MAX_COOKIE_VALUES distinct values (a load balancer may set a new one on every answer).
  const remember = (value: string) => {
    if (value.length < MIN_COOKIE_SECRET || values.has(value)) return;
    values.add(value);
    if (values.size > MAX_COOKIE_VALUES) values.delete(values.values().next().value as string);
  };
  const keep = (field: string, url: URL, loaded: typeof ToughCookie, into: ToughCookie.CookieJar) => {
    const cookie = field.length <= MAX_COOKIE_BYTES ? loaded.Cookie.parse(field) : undefined;
    if (!cookie) return drop(field.slice(0, Math.max(0, field.indexOf('='))).trim().slice(0, 64));
    if (!names.has(cookie.key) && names.size >= MAX_RUN_COOKIES) return drop(cookie.key);
    if (!into.setCookieSync(cookie, url.href, { ignoreError: true })) return drop(cookie.key);
    names.add(cookie.key);
    remember(cookie.value);
  };
  return {
    async load() {
      tough ??= await import('tough-cookie');
      // allowSecureOnLocal false: a Secure cookie is kept and sent over https only (RFC 6265 §5.4 step 1), also on 127.0.0.1.
      jar ??= new tough.CookieJar(undefined, { rejectPublicSuffixes: true, allowSecureOnLocal: false });
    },
    header(url) {
      if (!jar || url.origin !== origin || names.size === 0) return undefined;
      const text = jar.getCookieStringSync(url.href);
      return text === '' ? undefined : text;
    },
    store(url, fields) {
      if (!tough || !jar || url.origin !== origin || fields === undefined) return;
      for (const field of typeof fields === 'string' ? [fields] : fields) keep(field, url, tough, jar);
    },
    values: () => [...values],
    dropped: () => [...dropped],
    names: () => [...names],
  };
}

/** `headers` with the run's cookies (RunCookies.header) after any `Cookie` the caller gave (`--header "Cookie: …"`), as one field (RFC 6265 §5.4). */
export function withCookies(headers: Record<string, string>, cookies: string | undefined): Record<string, string> {
  if (cookies === undefined) return headers;
  const given = headers['cookie'];
  return { ...headers, cookie: given === undefined || given === '' ? cookies : `${given}; ${cookies}` };
}

/**
 * The values of cookies in `Set-Cookie` fields (RFC 6265 §5.2 steps 1-4: the first name-value
 * pair of each field, its value after the first `=`, trimmed) or in a `Cookie` field (§5.4: pairs
 * split on `;`), those shorter than MIN_COOKIE_SECRET left out; a value in double quotes counts with and without them. The
 * attributes are not read: these are secrets to redact for `proxy`, which passes cookies between a
 * client and the upstream without keeping them (the jar above parses with tough-cookie).
 */
export function cookieValues(fields: string | readonly string[] | undefined, field: 'set-cookie' | 'cookie'): string[] {
  if (fields === undefined) return [];
  const list = typeof fields === 'string' ? [fields] : fields;
  const pairs = field === 'cookie' ? list.flatMap((text) => text.split(';')) : list.map((text) => text.split(';', 1)[0] ?? '');
  return pairs.flatMap((pair) => {
    const equals = pair.indexOf('=');
    const value = equals === -1 || pair.length > MAX_COOKIE_BYTES ? '' : pair.slice(equals + 1).trim();
    const unquoted = /^"(.*)"$/s.exec(value)?.[1];
    return [value, ...(unquoted === undefined ? [] : [unquoted])].filter((v) => v.length >= MIN_COOKIE_SECRET);
  });
}
