import { secretNames, secretQueryValues, type SecretNames } from '../../floor/secret-names.js';

/**
 * The query of a `--base-url` (`https://host/v1?api_key=K&region=eu`), kept on every request of a
 * crawl: the list's pages, the single markets, the unknown-id probe, redirects and paging links
 * on the base URL's origin. Many data APIs take their key this way; dropping it turns a
 * conforming deployment into a wall of 403s. Like the `--header` values, the parameters go to the
 * base URL's origin only, never to another origin a redirect or paging link points to.
 */
export interface BaseQuery {
  /** The base URL's origin (`https://host:port`): the only origin the parameters are sent to. */
  readonly origin: string;
  /** The parameters, in the order given (empty when the base URL has no query): the decoded name, and the `name=value` text as written in the base URL. */
  readonly params: ReadonlyArray<readonly [string, string]>;
  /** The names of the parameters whose values are secrets (floor/secret-names.ts defaults plus `--redact-query`), as given. */
  readonly secretParams: readonly string[];
  /** The values of those secret parameters, to redact by value in every form (floor/redact-secrets.ts). */
  readonly secretValues: readonly string[];
  /** Names that say which query parameters are secrets, for redacting URLs in text. */
  readonly names: SecretNames;
}

/** The base query of `base`, with `redactQuery` naming secret parameters besides the defaults. */
export function readBaseQuery(base: URL, redactQuery: readonly string[] = []): BaseQuery {
  const names = secretNames([], redactQuery);
  const raw = base.search.replace(/^\?/, '');
  const params = raw.split('&').filter((part) => part !== '').map((part) => [decodedName(part), part] as const);
  const secretParams = [...new Set(params.filter(([name]) => names.query(name)).map(([name]) => name))];
  return { origin: base.origin, params, secretParams, secretValues: secretQueryValues(raw, names), names };
}

/**
 * `url` as sent: on the base origin, each base parameter the request does not carry itself is
 * appended (the request's own value wins: a paging link that repeats the key keeps its own);
 * on any other origin, `url` unchanged. Never mutates `url`.
 */
export function withBaseQuery(url: URL, query: BaseQuery | undefined): URL {
  if (!query || query.params.length === 0 || url.origin !== query.origin) return url;
  // Appended as written: re-serialising the request's own query could change a cursor's encoding.
  const missing = query.params.filter(([name]) => !url.searchParams.has(name)).map(([, text]) => text);
  if (missing.length === 0) return url;
  const sent = new URL(url);
  const own = sent.search.replace(/^\?/, '');
  sent.search = own === '' ? missing.join('&') : `${own}&${missing.join('&')}`;
  return sent;
}

/** The name of one `name=value` part, decoded as application/x-www-form-urlencoded (the text itself when it does not decode). */
function decodedName(part: string): string {
  const name = part.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** `url`'s text with the values of secret query parameters replaced by `[redacted]` (for messages about the base URL). */
export function shownUrl(url: URL, query: BaseQuery): string {
  return query.names.redactText(url.href);
}

/**
 * The values of the secret query parameters of a `--base-url` given as text, for the CLI's
 * redacting io (stderr, stdout, report files); none when the text is not a URL (the crawl then
 * refuses it with OPTION_INVALID).
 */
export function baseUrlSecrets(baseUrl: string, redactQuery: readonly string[] = []): string[] {
  if (!URL.canParse(baseUrl)) return [];
  return [...readBaseQuery(new URL(baseUrl), redactQuery).secretValues];
}
