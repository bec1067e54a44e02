import { readRegularFileBytes, UnreadableFileError } from '../file-system/read-regular-file.js';
import { MAX_TLS_FILE_BYTES } from '../floor/limits.js';
import { ContractRunError } from '../contract/index.js';
import type { OutgoingNetwork } from '../contract/index.js';
import type { OptionValues } from '../options/option-values.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { NETWORK_OPTIONS } from '../options/tables/network-options.js';


/**
 * The network options as the crawl and the proxy take them: the proxy from --proxy or the
 * environment, certificate files read (bounded, regular files only) into PEM text.
 * @throws ContractRunError OPTION_INVALID naming the option and its file, never the file's contents.
 */
export async function readNetworkFlags(options: ResolvedOptions<OptionValues<typeof NETWORK_OPTIONS>>, env: Readonly<Record<string, string | undefined>>): Promise<OutgoingNetwork> {
  const v = options.values;
  const network: OutgoingNetwork = { proxyEnv: env };
  if (v.proxy !== undefined) network.proxy = v.proxy;
  if (v.pass !== undefined) network.passphrase = v.pass;
  for (const [flag, field] of [['cert', 'cert'], ['key', 'key'], ['cacert', 'ca']] as const) {
    const file = v[flag];
    if (file !== undefined) network[field] = await readTlsFile(file, options.origins[flag] ?? `--${flag}`);
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
