import type { OptionSpec } from '../../floor/option-spec.js';
import { optionTable, type TableValues } from '../option-values.js';
import { SERVE_ROWS } from './serve-options.js';

/** serve's rows `mcp` leaves out: no config file section, no ready line or request log (stdout is the protocol's), no second MCP transport. */
const NOT_FOR_MCP = ['config', 'print-config', 'ready-file', 'quiet', 'log-format', 'mcp-http'] as const;
type McpServeRow = Exclude<(typeof SERVE_ROWS)[number], { flag: (typeof NOT_FOR_MCP)[number] }>;

/** `--url`: drive a stub that runs already instead of starting one. */
const URL_OPTION = {
  flag: 'url', env: ['MARKET_STUB_URL'], kind: { type: 'url' }, defaultText: 'none: start a stub with the options below',
  describe: 'Drive the stub already running at this base URL (its admin API under /__stub, with --admin-token when it needs one) instead of starting one; the other stub options are then not read',
  group: 'Target:',
} as const satisfies OptionSpec;

/**
 * `market-stub mcp`'s options: `--url`, then serve's rows (the same flags, variables, kinds and
 * checks: the stub it starts is configured exactly as `serve` configures one), less those about a
 * config file, the ready line and the request log.
 */
export const MCP_OPTIONS = optionTable([URL_OPTION, ...SERVE_ROWS.filter((row): row is McpServeRow => !(NOT_FOR_MCP as readonly string[]).includes(row.flag))]);

/** Resolved `mcp` options. */
export type McpValues = TableValues<typeof MCP_OPTIONS>;
