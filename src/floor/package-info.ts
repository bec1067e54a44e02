// package.json is read at build time: scripts/build.mjs serves this import as `{ name, version, license }`,
// so both bundles (ESM and CommonJS) carry them inline and resolve no path at run time.
// Under tsx and vitest the import reads the repository's package.json.
import manifest from '../../package.json' with { type: 'json' };

/**
 * market-stub's own version (its package.json `version`, semver), never the consumer's, wherever
 * the CLI runs from: `--version`, the OpenAPI document's `info.version`, contract reports' `tool`.
 */
export function packageVersion(): string {
  return manifest.version;
}

/** market-stub's licence, its package.json `license` (an SPDX identifier: `MIT`). */
export function packageLicense(): string {
  return manifest.license;
}
