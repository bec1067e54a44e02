import { RECORD_OPTIONS, type RecordValues } from '../options/tables/crawl-options.js';
import type { CommandSpec } from './command-spec.js';

/** `market-stub record`: options as data (RECORD_OPTIONS), run loaded on use. */
export const recordCommand: CommandSpec<RecordValues> = {
  name: 'record',
  describe: 'Crawl a deployment like check and write its valid markets as a fixture set',
  options: RECORD_OPTIONS,
  examples: [
    ['$0 record --base-url http://127.0.0.1:4010 --all --out fixtures/recorded', 'then: market-stub serve --fixtures fixtures/recorded'],
    ['$0 record --base-url https://api.example.com/v1 --max-markets 200 --out fixtures/staging --keep-invalid', 'a sample of 200, invalid answers kept apart for a look'],
  ],
  load: async () => ({ run: (await import('./crawl-commands.js')).runRecord }),
};
