import type { ServeConfig } from '../config.js';
import type { MarketStubOptions } from '../stub.js';

/**
 * The library options `serve` launches its stub with (launchStub in src/stub.ts), from the resolved
 * serve config: one field each, the generated-catalog options beside `fixtures` (watch only with
 * fixtures), and the options left out that have nothing to say (no redaction names added, no admin
 * token). With a `logger`, request lines and warnings go to it alone (`errorLog` is silenced: one
 * stream, never both); without one (`--quiet`) warnings go to stderr, the library's default.
 * @returns a fresh options object; config is not changed.
 */
export function launchOptionsOf(config: ServeConfig, logger?: MarketStubOptions['logger']): MarketStubOptions {
  return {
    port: config.port,
    host: config.host,
    seed: config.seed,
    count: config.count,
    clock: config.clock,
    ...(config.fixtures !== undefined ? { fixtures: config.fixtures, watch: config.watch } : {}),
    profile: config.profile,
    behaviour: config.behaviour,
    rules: config.rules,
    deviations: config.deviations,
    journalSize: config.journalSize,
    journalBytes: config.journalBytes,
    journalHeaders: config.journalHeaders,
    ...(config.redactHeaders.length > 0 ? { redactHeaders: config.redactHeaders } : {}),
    ...(config.redactQuery.length > 0 ? { redactQuery: config.redactQuery } : {}),
    allowedHosts: config.allowedHosts,
    shutdownGraceMs: config.shutdownGraceMs,
    cors: config.cors,
    admin: config.admin,
    ...(config.adminToken !== undefined ? { adminToken: config.adminToken } : {}),
    ...(logger === undefined ? {} : { logger, errorLog: () => undefined }),
  };
}
