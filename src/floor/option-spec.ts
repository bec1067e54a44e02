import type { OptionKind, OptionValue } from './option-kind.js';

/**
 * One option of a command, as data: its flag, environment variables, kind, default and help. The
 * same row drives the command line's reader, its help, the precedence of sources, validation and
 * the error message (src/options/resolve-options.ts, src/cli/render-help.ts).
 */
export interface OptionSpec {
  /** Flag name, kebab-case, without dashes: `journal-size` is `--journal-size`. */
  flag: string;
  /** Key in config files and library options; the camelCase of `flag` when absent. */
  key?: string;
  /** Environment variables, first set one wins (`MARKET_STUB_PORT`, then `PORT`). */
  env?: readonly string[];
  kind: OptionKind;
  describe: string;
  /** Help heading the option is listed under. */
  group?: string;
  /** The value when no source gives one; absent means "not set". */
  default?: OptionValue;
  /** How `--help` shows a default that is computed or absent (`today (UTC)`, `none`). */
  defaultText?: string;
  /** Set for a required option: what to give, e.g. `the deployment's base URL (--base-url https://api.example.com/v1)`. */
  required?: string;
  /** A positional argument (`validate <path>`) instead of a flag. */
  positional?: boolean;
  /** A secret (header values, tokens): messages name the option but never show the value. */
  secret?: boolean;
  /** Given by flag or environment only, never in a config file (`--config` itself, `--print-config`). */
  cliOnly?: boolean;
  /**
   * The library option this row's value is passed as (for `serve`: a key of startMarketStub's
   * MarketStubOptions, such as `journalSize`). The command → library mapping is this field, read by
   * one loop (options/launch-options.ts libraryOptionsOf); a choice of `on`/`off` feeds a boolean.
   */
  feeds?: string;
}

/**
 * The headings of `market-stub serve --help`, in the order help, `--print-config` and the config
 * file's schema list them (src/options/tables/serve-options.ts sorts serve's rows by them).
 */
export const SERVE_GROUPS = {
  server: 'Server:',
  data: 'Data:',
  profile: 'Response profile:',
  behaviour: 'Behaviours (every market request):',
  deviations: 'Deviations (contract drift on demand):',
  control: 'Runtime control:',
} as const;

/** One of serve's help headings (SERVE_GROUPS). */
export type ServeGroup = (typeof SERVE_GROUPS)[keyof typeof SERVE_GROUPS];

/**
 * The `market-stub serve` side of a library option, written beside the library field it feeds
 * (`STUB_SERVE_FLAGS` in src/stub-options.ts, `RUNTIME_SERVE_FLAGS` in
 * src/runtime/runtime-options.ts), so that an option the library and `serve` both take is one
 * entry there. src/options/tables/serve-options.ts makes each into a serve row whose `feeds` is
 * the field's key and whose kind, when `kind` is absent, is the field's own check (one home for
 * its bounds); `kind` is given where the command line reads another form (`on`/`off` for a
 * boolean, a comma-separated list for an array).
 */
export interface ServeFlag extends Pick<OptionSpec, 'flag' | 'key' | 'env' | 'describe' | 'default' | 'defaultText' | 'secret'> {
  group: ServeGroup;
  kind?: OptionKind;
}
