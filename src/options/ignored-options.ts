import type { ResolvedOptions } from './resolve-options.js';
import type { ServeValues } from './tables/serve-options.js';

/** A serve option that was given but has no effect beside the others given. */
export interface IgnoredOption {
  /** The option's key (`count`). */
  key: string;
  /** Where it was given: `--count`, `MARKET_STUB_COUNT`, `market-stub.config.json /serve/count`. */
  origin: string;
  /** Why it has no effect, naming the option that wins (`fixtures are served (--fixtures)`). */
  because: string;
  /** What to do about it. */
  remedy: string;
}

/**
 * The `serve` options given (by flag, variable or config file; defaults never count) that have
 * no effect beside the others: `count` when fixtures are served (the catalog is the fixtures'
 * markets; `seed` still picks deviating markets and tick steps, so it is not ignored), and
 * `mcpHttp` on when the admin API is off (its path is the admin API's).
 */
export function ignoredServeOptions(resolved: ResolvedOptions<ServeValues>): IgnoredOption[] {
  const { values, origins } = resolved;
  const given = (key: keyof ServeValues) => values[key] !== undefined && origins[key] !== undefined && origins[key] !== 'default';
  const ignored: IgnoredOption[] = [];
  if (given('count') && values.fixtures !== undefined) {
    ignored.push({ key: 'count', origin: origins.count ?? '--count', because: `fixtures are served (${origins.fixtures ?? '--fixtures'})`, remedy: 'remove count, or fixtures to serve generated markets' });
  }
  if (given('mcpHttp') && values.mcpHttp === 'on' && values.admin === 'off') {
    ignored.push({ key: 'mcpHttp', origin: origins.mcpHttp ?? '--mcp-http', because: `the admin API is off (${origins.admin ?? '--admin'}) and MCP over HTTP is one of its paths`, remedy: 'turn the admin API on, or leave mcp-http off' });
  }
  return ignored;
}

/** `market-stub serve: warning: count (--count) is ignored: fixtures are served (--fixtures); remove count, …` */
export function ignoredOptionWarning(option: IgnoredOption): string {
  return `market-stub serve: warning: ${option.key} (${option.origin}) is ignored: ${option.because}; ${option.remedy}.`;
}
