/**
 * The one reader of "an http(s) base URL" (WHATWG URL, as `new URL` parses it): the `url` option
 * kind (floor/option-kind.ts), a crawl's and the proxy's base URL (contract/crawl/crawl-settings.ts), the
 * MSW and Fetch handlers' `baseUrl` (msw/msw-options.ts) and connectMarketStub's `url`
 * (client/connect-market-stub.ts) all read through it, so each refuses the same things with the same words.
 */

/** What a URL may carry besides scheme, host, port and path; both refused unless allowed. */
export interface HttpUrlRules {
  /** A user name or password (`http://user:pw@host`); credentials belong in a header. */
  credentials?: boolean;
  /** A query or fragment (a crawl's base URL may carry an API key as a query parameter). */
  query?: boolean;
}

/** The outcome of reading a URL: the URL, or what was expected and whether the value may hold a secret (then it is not shown). */
export type HttpUrlRead = { ok: true; url: URL } | { ok: false; expected: string; secret: boolean };

/** `an absolute http:// or https:// URL without a user name or password, query or fragment`: the wording every surface uses. */
export function httpUrlExpected(rules: HttpUrlRules = {}): string {
  const without = [rules.credentials ? '' : 'a user name or password', rules.query ? '' : 'query or fragment'].filter(Boolean);
  return `an absolute http:// or https:// URL${without.length > 0 ? ` without ${without.join(', ')}` : ''}`;
}

/**
 * Reads an absolute http:// or https:// URL from a string (or a URL object), refusing what
 * `rules` does not allow. Never throws.
 */
export function readHttpUrl(value: unknown, rules: HttpUrlRules = {}): HttpUrlRead {
  const refused = (secret = false): HttpUrlRead => ({ ok: false, expected: httpUrlExpected(rules), secret });
  if (typeof value !== 'string' && !(value instanceof URL)) return refused();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refused();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refused();
  if (!rules.credentials && (url.username !== '' || url.password !== '')) return refused(true);
  if (!rules.query && (url.search !== '' || url.hash !== '')) return refused(url.username !== '' || url.password !== '');
  return { ok: true, url };
}
