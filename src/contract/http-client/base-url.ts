import { readHttpUrl } from '../../floor/http-url.js';
import { ContractRunError } from './contract-run-error.js';

/**
 * Parses a base URL for a crawl or proxy (floor/http-url.ts: a query is kept, it may carry an API key).
 * @throws ContractRunError OPTION_INVALID when it is not an absolute http(s) URL or carries a user
 *   name or password (`--base-url: expected an absolute http:// or https:// URL without a user name
 *   or password, found …`; a URL with credentials is not shown).
 */
export function parseBaseUrl(value: string | URL, option = '--base-url'): URL {
  const read = readHttpUrl(value, { query: true });
  if (read.ok) return read.url;
  const found = read.secret ? 'a URL with credentials (not shown); pass credentials with --header "Authorization: …" instead' : JSON.stringify(String(value));
  throw new ContractRunError('OPTION_INVALID', `${option}: expected ${read.expected}, found ${found}.`);
}
