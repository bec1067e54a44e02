import { readRegularFileBytes, UnreadableFileError } from '../core/read-regular-file.js';
import { ContractRunError } from '../contract/index.js';
import type { OutgoingNetwork } from '../contract/index.js';
import type { OptionSpec } from '../options/resolve-options.js';
import type { ResolvedOptions } from '../options/resolve-options.js';

/** Largest certificate, key or CA bundle file read, in bytes (a CA bundle of a few hundred certificates is about 250 KiB). */
export const MAX_TLS_FILE_BYTES = 1_048_576;

/** The network options of check, record and proxy, as data (curl's names: --proxy, --cert, --key, --pass, --cacert). */
export const NETWORK_OPTIONS: readonly OptionSpec[] = [
  { flag: 'proxy', env: ['MARKET_STUB_PROXY'], kind: { type: 'string' }, secret: true, defaultText: 'HTTPS_PROXY / HTTP_PROXY (NO_PROXY honoured)', describe: 'Forward proxy for every request, http://[user:password@]host:port; wins over HTTP_PROXY/HTTPS_PROXY (NO_PROXY still applies). Its credentials go only to the proxy', group: 'Network:' },
  { flag: 'cert', env: ['MARKET_STUB_CERT'], kind: { type: 'path' }, defaultText: 'none', describe: 'Client certificate (PEM file) for deployments behind mutual TLS', group: 'Network:' },
  { flag: 'key', env: ['MARKET_STUB_KEY'], kind: { type: 'path' }, defaultText: 'none', describe: 'Private key of --cert (PEM file); never shown', group: 'Network:' },
  { flag: 'pass', env: ['MARKET_STUB_KEY_PASSPHRASE'], kind: { type: 'string' }, secret: true, defaultText: 'none', describe: 'Passphrase of an encrypted --key; never shown (prefer the variable)', group: 'Network:' },
  { flag: 'cacert', env: ['MARKET_STUB_CACERT'], kind: { type: 'path' }, defaultText: 'Node\'s bundled CAs', describe: 'Certificate authorities to trust instead of the bundled ones (PEM file)', group: 'Network:' },
];

/** Extends the secret query parameter names (core/secret-names.ts) of a report or log. */
export const REDACT_QUERY_OPTION: OptionSpec = { flag: 'redact-query', env: ['MARKET_STUB_REDACT_QUERY'], kind: { type: 'list', separator: ',' }, defaultText: 'the default list', describe: 'Also redact this query parameter\'s values (repeat or comma-separate); adds to token, access_token, api_key, signature… (docs/networks.md)', group: 'Report:' };

/** Extends the secret request header names (core/secret-names.ts) of the proxy's logs and report. */
export const REDACT_HEADER_OPTION: OptionSpec = { flag: 'redact-header', key: 'redactHeaders', env: ['MARKET_STUB_REDACT_HEADER'], kind: { type: 'list', separator: ',' }, defaultText: 'the default list', describe: 'Also redact the values clients send in this request header (repeat or comma-separate); adds to Authorization, Cookie, X-Api-Key, X-Auth-Token… (docs/networks.md)', group: 'Output:' };

/**
 * The network options as the crawl and the proxy take them: the proxy from --proxy or the
 * environment, certificate files read (bounded, regular files only) into PEM text.
 * @throws ContractRunError OPTION_INVALID naming the option and its file, never the file's contents.
 */
export async function readNetworkFlags(options: ResolvedOptions, env: Readonly<Record<string, string | undefined>>): Promise<OutgoingNetwork> {
  const v = options.values;
  const network: OutgoingNetwork = { proxyEnv: env };
  if (typeof v['proxy'] === 'string') network.proxy = v['proxy'];
  if (typeof v['pass'] === 'string') network.passphrase = v['pass'];
  for (const [flag, field] of [['cert', 'cert'], ['key', 'key'], ['cacert', 'ca']] as const) {
    const file = v[flag];
    if (typeof file === 'string') network[field] = await readTlsFile(file, options.origins[flag] ?? `--${flag}`);
  }
  // One PEM file may hold both, as curl accepts.
  if (network.key === undefined && network.cert?.includes('PRIVATE KEY')) network.key = network.cert;
  if ((network.cert === undefined) !== (network.key === undefined)) {
    throw new ContractRunError('OPTION_INVALID', network.cert === undefined ? '--key was given without --cert: give the client certificate too.' : '--cert was given without --key, and the file holds no private key: give the key with --key.');
  }
  return network;
}

async function readTlsFile(file: string, option: string): Promise<string> {
  try {
    const text = (await readRegularFileBytes(file, MAX_TLS_FILE_BYTES)).toString('utf8');
    if (!text.includes('-----BEGIN ')) throw new ContractRunError('OPTION_INVALID', `${option}: ${file} is not a PEM file (no "-----BEGIN" line); convert it with openssl (e.g. openssl x509 -inform der -in FILE -out FILE.pem).`);
    return text;
  } catch (error) {
    if (error instanceof ContractRunError) throw error;
    if (error instanceof UnreadableFileError) throw new ContractRunError('OPTION_INVALID', `${option}: ${error.message}${error.reason === 'too-large' ? ` (certificate files are read up to ${MAX_TLS_FILE_BYTES} bytes)` : ''}.`);
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read (permission denied)' : 'cannot be read';
    throw new ContractRunError('OPTION_INVALID', `${option}: ${file} ${why} (${code}).`);
  }
}
