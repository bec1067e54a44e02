import { SERVE_OPTIONS } from './options/tables/serve-options.js';
import { knownName } from './floor/option-fields.js';
import { optionError } from './floor/market-stub-error.js';
import { readTyped } from './floor/option-kind.js';
import { optionKey } from './options/resolve-options.js';

/** A value of a `serve` option as code gives it: a number, boolean, string, or strings for a list option. */
export type ServeOptionValue = string | number | boolean | readonly string[];

/**
 * The environment that configures `market-stub serve` (and so the Docker image) with these
 * options: `{ seed: 7, paging: 'cursor' }` → `{ MARKET_STUB_SEED: '7', MARKET_STUB_PAGING:
 * 'cursor' }`. Keys are the options' config-file keys (the camelCase of the flag); each value is
 * checked with the option's own rule first, so a mistake fails here, not in a container's logs.
 * Used by `market-stub/testcontainers`; handy for any tool that starts the image (compose files
 * written by code, other container libraries). Undefined values are left out; list options
 * (`allowedHosts`, `deviation`) are joined with their separator.
 * @param where the surface named in errors (`MarketStubContainer.withSeed`)
 * @param optionPrefix prefixed to the option in errors (`profile.` for `profile.paging`)
 * @throws MarketStubError OPTION_INVALID naming the option (a secret's value is never shown);
 *   also for a key that is no serve option, or one that has no variable (`config`, `printConfig`).
 */
export function serveEnvironment(options: Readonly<Record<string, ServeOptionValue | undefined>>, where = 'serveEnvironment', optionPrefix = ''): Record<string, string> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw optionError(where, 'options', 'an object of serve options', options);
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(options)) {
    const spec = SERVE_OPTIONS.find((s) => optionKey(s) === key && !s.cliOnly);
    const variable = spec?.env?.[0];
    if (!spec || !variable) throw optionError(where, `${optionPrefix}${key}`, knownName(key, SERVE_OPTIONS.filter((s) => !s.cliOnly).map(optionKey), 'a serve option'), key);
    if (value === undefined) continue;
    const read = readTyped(spec.kind, value);
    if (!read.ok) throw optionError(where, `${optionPrefix}${key}`, read.expected, spec.secret ? '(not shown)' : value);
    const separator = spec.kind.type === 'list' ? spec.kind.separator : ',';
    environment[variable] = Array.isArray(read.value) ? read.value.join(separator) : String(read.value);
  }
  return environment;
}
