import { PROXY_OPTIONS, type ProxyValues } from '../options/tables/proxy-options.js';
import type { CommandSpec } from './command-spec.js';

/** `market-stub proxy`: options as data (PROXY_OPTIONS), run loaded on use. */
export const proxyCommand: CommandSpec<ProxyValues> = {
  name: 'proxy',
  describe: 'Pass-through proxy to a deployment for a client test run: checks (and with --record, records) the market answers',
  options: PROXY_OPTIONS,
  examples: [
    ['$0 proxy --upstream https://api.example.com/v1 --port 4011 --record fixtures/seen --report proxy-report.json --format json', 'point the client under test at http://127.0.0.1:4011'],
  ],
  load: async () => ({ run: (await import('./crawl-commands.js')).runProxy }),
};
