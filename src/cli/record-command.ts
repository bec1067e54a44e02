import type { OptionSpec } from '../options/resolve-options.js';
import { CRAWL_OPTIONS } from './check-command.js';
import type { CommandSpec } from './command-spec.js';

/** `record`'s options: the crawl options of `check`, plus where to write. */
export const RECORD_OPTIONS: readonly OptionSpec[] = [
  ...CRAWL_OPTIONS,
  { flag: 'out', env: ['MARKET_STUB_OUT'], kind: { type: 'path' }, required: 'the fixture directory to write (--out fixtures/recorded)', describe: 'Fixture directory to write (DIR/markets.json); switched to the new set atomically', group: 'Output:' },
  { flag: 'keep-invalid', env: ['MARKET_STUB_KEEP_INVALID'], kind: { type: 'boolean' }, default: false, describe: 'Also write the invalid answers, apart, to DIR/invalid/responses.json (serve never reads it)', group: 'Output:' },
];

export const recordCommand: CommandSpec = {
  name: 'record',
  describe: 'Crawl a deployment like check and write its valid markets as a fixture set',
  options: RECORD_OPTIONS,
  examples: [
    ['$0 record --base-url http://127.0.0.1:4010 --all --out fixtures/recorded', 'then: market-stub serve --fixtures fixtures/recorded'],
    ['$0 record --base-url https://api.example.com/v1 --max-markets 200 --out fixtures/staging --keep-invalid', 'a sample of 200, invalid answers kept apart for a look'],
  ],
  load: async () => ({ run: (await import('./run-record.js')).runRecord }),
};
