import { readHttpUrl } from '../../floor/http-url.js';
import { ContractRunError } from './contract-run-error.js';

/**
 * What to do instead of credentials in the URL, worded for the surface that read it: `check` and
 * `record` send headers of their own (`--header`); `proxy` has no such flag, it forwards the headers
 * its clients send.
 */
const CREDENTIALS_REMEDY = {
  crawl: 'pass credentials with --header "Authorization: …" instead',
  proxy: 'the proxy forwards the headers its clients send: send the credentials from the client (an Authorization header), or put an API key in the URL\'s query (?api_key=…: it is redacted everywhere)',
} as const;

/**
 * Parses a base URL for a crawl or proxy (floor/http-url.ts: a query is kept, it may carry an API key).
 * @throws ContractRunError OPTION_INVALID when it is not an absolute http(s) URL or carries a user
 *   name or password (`--base-url: expected an absolute http:// or https:// URL without a user name
 *   or password, found …`; a URL with credentials is not shown, and what to do instead is worded for `surface`).
 */
export function parseBaseUrl(value: string | URL, option = '--base-url', surface: keyof typeof CREDENTIALS_REMEDY = 'crawl'): URL {
  const read = readHttpUrl(value, { query: true });
  if (read.ok) return read.url;
  const found = read.secret ? `a URL with credentials (not shown); ${CREDENTIALS_REMEDY[surface]}` : JSON.stringify(String(value));
  throw new ContractRunError('OPTION_INVALID', `${option}: expected ${read.expected}, found ${found}.`);
}
