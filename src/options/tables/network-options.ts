import type { OptionSpec } from '../../floor/option-spec.js';
import { LIST } from '../../floor/option-kind.js';

/** The network options of check, record and proxy, as data (curl's names: --proxy, --cert, --key, --pass, --cacert). */
export const NETWORK_OPTIONS = [
  { flag: 'proxy', env: ['MARKET_STUB_PROXY'], kind: { type: 'string' }, secret: true, defaultText: 'HTTPS_PROXY / HTTP_PROXY (NO_PROXY honoured)', describe: 'Forward proxy for every request, http://[user:password@]host:port; wins over HTTP_PROXY/HTTPS_PROXY (NO_PROXY still applies). Its credentials go only to the proxy', group: 'Network:' },
  { flag: 'cert', env: ['MARKET_STUB_CERT'], kind: { type: 'path' }, defaultText: 'none', describe: 'Client certificate (PEM file) for deployments behind mutual TLS', group: 'Network:' },
  { flag: 'key', env: ['MARKET_STUB_KEY'], kind: { type: 'path' }, defaultText: 'none', describe: 'Private key of --cert (PEM file); never shown', group: 'Network:' },
  { flag: 'pass', env: ['MARKET_STUB_KEY_PASSPHRASE'], kind: { type: 'string' }, secret: true, defaultText: 'none', describe: 'Passphrase of an encrypted --key; never shown (prefer the variable)', group: 'Network:' },
  { flag: 'cacert', env: ['MARKET_STUB_CACERT'], kind: { type: 'path' }, defaultText: 'Node\'s bundled CAs', describe: 'Certificate authorities to trust instead of the bundled ones (PEM file)', group: 'Network:' },
] as const satisfies readonly OptionSpec[];

/** Extends the secret query parameter names (floor/secret-names.ts) of a report or log. */
export const REDACT_QUERY_OPTION = { flag: 'redact-query', feeds: 'redactQuery', env: ['MARKET_STUB_REDACT_QUERY'], kind: LIST, defaultText: 'the default list', describe: 'Also redact this query parameter\'s values (repeat or comma-separate), in the --base-url query too; adds to token, access_token, api_key, key, signature… (docs/networks.md)', group: 'Report:' } as const satisfies OptionSpec;

/** Extends the secret request header names (floor/secret-names.ts) of the proxy's logs and report. */
export const REDACT_HEADER_OPTION = { flag: 'redact-header', feeds: 'redactHeaders', key: 'redactHeaders', env: ['MARKET_STUB_REDACT_HEADER'], kind: LIST, defaultText: 'the default list', describe: 'Also redact the values clients send in this request header (repeat or comma-separate); adds to Authorization, Cookie, X-Api-Key, X-Auth-Token… (docs/networks.md)', group: 'Output:' } as const satisfies OptionSpec;
