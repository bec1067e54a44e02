import { createRequire } from 'node:module';

let version: string | undefined;

/** market-stub's own version, from its package.json (never the consumer's, wherever the CLI is run from). */
export function packageVersion(): string {
  version ??= (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  return version;
}
