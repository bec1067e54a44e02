import { REPORT_FORMATS } from '../../floor/vocabulary.js';
import { optionTable, type TableValues } from '../option-values.js';
import { FORMAT_OPTION, REPORT_FILES_OPTION, STRICT_OPTION } from './crawl-options.js';
import { NETWORK_OPTIONS, REDACT_HEADER_OPTION, REDACT_QUERY_OPTION } from './network-options.js';
import { choice, int } from '../../floor/option-kind.js';
import { PROXY_OPTION_BOUNDS } from '../../floor/limits.js';
import { READY_FILE_OPTION } from './serve-options.js';

/** The rows of PROXY_OPTIONS, kept literal so that each `feeds` is checked against the library's options (ProxyFeeds). */
const PROXY_ROWS = [
  { flag: 'upstream', feeds: 'upstream', env: ['MARKET_STUB_UPSTREAM'], kind: { type: 'url' }, required: 'the base URL of the real deployment to forward to (--upstream https://api.example.com/v1)', describe: 'Base URL of the real deployment to forward to', group: 'Proxy:' },
  { flag: 'port', feeds: 'port', env: ['MARKET_STUB_PROXY_PORT'], kind: int(0, 65_535), default: 4011, describe: 'TCP port to listen on; 0 picks a free port', group: 'Proxy:' },
  { flag: 'host', feeds: 'host', env: ['MARKET_STUB_PROXY_HOST'], kind: { type: 'string' }, default: '127.0.0.1', describe: 'Interface address to bind', group: 'Proxy:' },
  { flag: 'timeout-ms', feeds: 'timeoutMs', env: ['MARKET_STUB_TIMEOUT_MS'], kind: int(PROXY_OPTION_BOUNDS.timeoutMs.min, PROXY_OPTION_BOUNDS.timeoutMs.max), default: PROXY_OPTION_BOUNDS.timeoutMs.default, describe: 'Time limit for the upstream answer, ms; the client gets 504 past it', group: 'Proxy:' },
  { flag: 'grace-ms', feeds: 'graceMs', env: ['MARKET_STUB_PROXY_GRACE_MS'], kind: int(PROXY_OPTION_BOUNDS.graceMs.min, PROXY_OPTION_BOUNDS.graceMs.max), default: PROXY_OPTION_BOUNDS.graceMs.default, describe: 'On SIGINT/SIGTERM, how long exchanges in flight may finish before connections are closed, ms', group: 'Proxy:' },
  { flag: 'max-body-mb', feeds: 'maxBodyMb', env: ['MARKET_STUB_MAX_BODY_MB'], kind: int(PROXY_OPTION_BOUNDS.maxBodyMb.min, PROXY_OPTION_BOUNDS.maxBodyMb.max), default: PROXY_OPTION_BOUNDS.maxBodyMb.default, describe: 'Largest answer body checked, decompressed, MiB; a larger one passes unchecked with an error finding', group: 'Proxy:' },
  { ...READY_FILE_OPTION, group: 'Proxy:' },
  { flag: 'log-format', env: ['MARKET_STUB_LOG_FORMAT'], kind: choice('auto', 'text', 'json'), default: 'auto', describe: 'Log lines: text, json, or auto: text on a terminal, json when piped', group: 'Proxy:' },
  { flag: 'record', env: ['MARKET_STUB_RECORD'], kind: { type: 'path' }, defaultText: 'none', describe: 'On exit, write the valid markets seen as a fixture set in this directory (atomically)', group: 'Output:' },
  { ...REPORT_FILES_OPTION, defaultText: 'stdout', describe: `On exit, write the summary report to PATH (in --format) or FORMAT:PATH (FORMAT one of ${REPORT_FORMATS.join(', ')}), atomically, instead of stdout (repeatable; the variable takes a comma-separated list)`, group: 'Output:' },
  { ...FORMAT_OPTION, describe: 'Summary report format', group: 'Output:' },
  { ...STRICT_OPTION, describe: 'Warnings fail the summary too (exit 1)', group: 'Output:' },
  REDACT_HEADER_OPTION,
  { ...REDACT_QUERY_OPTION, group: 'Output:' },
  ...NETWORK_OPTIONS,
] as const;

/** `market-stub proxy`'s options as data: where to listen and forward, what to write on exit, the network (shared with check and record). */
export const PROXY_OPTIONS = optionTable(PROXY_ROWS);

/** The startRecordingProxy options the proxy's rows feed (each held to a key of RecordingProxyOptions where they are read: run-proxy.ts). */
export type ProxyFeeds = Extract<(typeof PROXY_ROWS)[number], { feeds: string }>['feeds'];

export type ProxyValues = TableValues<typeof PROXY_OPTIONS>;
