import { CHECK_OPTIONS, type CheckValues } from '../options/tables/crawl-options.js';
import type { CommandSpec } from './command-spec.js';

/** `market-stub check`: options as data (CHECK_OPTIONS), run loaded on use. */
export const checkCommand: CommandSpec<CheckValues> = {
  name: 'check',
  describe: 'Check a real deployment against the contract (exit 0 pass, 1 errors found, 2 could not run)',
  options: CHECK_OPTIONS,
  examples: [
    ['$0 check --base-url http://127.0.0.1:4010', 'the list and 50 markets, text report'],
    ['MARKET_STUB_HEADER="Authorization: Bearer $TOKEN" $0 check --base-url https://api.example.com/v1 --all --format junit --output check.xml', 'every market, JUnit XML for CI; the token stays out of the process list'],
    ['$0 check --base-url http://127.0.0.1:4010 --report junit:check.xml --report html:check.html --report markdown:check.md', 'the text report on stdout, and JUnit, HTML and markdown files from the same run'],
  ],
  // The crawl, the checks and the report formats load only when `check` runs.
  load: async () => ({ run: (await import('./crawl-commands.js')).runCheck }),
};

