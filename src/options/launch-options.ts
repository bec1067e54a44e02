import type { ServeConfig } from '../config.js';
import type { MarketStubOptions } from '../stub.js';
import type { OptionSpec } from '../floor/option-spec.js';
import { optionKey } from './resolve-options.js';
import { SERVE_OPTIONS, type ServeFeeds } from './tables/serve-options.js';

/** Every `feeds` of serve's rows is a key of MarketStubOptions: a row naming anything else does not compile. */
const FEEDS_LIBRARY_KEYS: [ServeFeeds] extends [keyof MarketStubOptions] ? true : never = true;

/**
 * The library options a command's resolved values feed, by one loop over its rows: each row with
 * `feeds` passes its value (when it has one) as that option; a choice of `on`/`off` becomes a
 * boolean. Rows without `feeds` are the command's own (`--quiet`) or composed by hand into a
 * structured value (the profile, behaviour, rules, deviations).
 */
export function libraryOptionsOf(rows: readonly OptionSpec[], values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const row of rows) {
    const value = values[optionKey(row)];
    if (row.feeds === undefined || value === undefined) continue;
    const onOff = row.kind.type === 'choice' && row.kind.choices.length === 2 && row.kind.choices.includes('on') && row.kind.choices.includes('off');
    options[row.feeds] = onOff ? value === 'on' : value;
  }
  return options;
}

/**
 * The library options `serve` launches its stub with (launchStub in src/stub.ts), from the resolved
 * serve config: every row that feeds a library option (libraryOptionsOf; FEEDS_LIBRARY_KEYS holds
 * each to a key of MarketStubOptions), plus the structured values composeServeConfig built (profile,
 * behaviour, rules, deviations). With a `logger`, request lines and warnings go to it alone
 * (`errorLog` is silenced: one stream, never both); without one (`--quiet`) warnings go to stderr,
 * the library's default.
 * @returns a fresh options object; config is not changed.
 */
export function launchOptionsOf(config: ServeConfig, logger?: MarketStubOptions['logger']): MarketStubOptions {
  const fed = FEEDS_LIBRARY_KEYS && (libraryOptionsOf(SERVE_OPTIONS, config.values) as MarketStubOptions);
  return {
    ...fed,
    profile: config.profile,
    behaviour: config.behaviour,
    rules: config.rules,
    deviations: config.deviations,
    ...(logger === undefined ? {} : { logger, errorLog: () => undefined }),
  };
}
