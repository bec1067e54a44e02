import { optionTable, type TableValues } from '../option-values.js';

/** `market-stub validate`'s one argument: the path, or what `serve` would serve (MARKET_STUB_FIXTURES). */
export const VALIDATE_OPTIONS = optionTable([
  { flag: 'path', positional: true, env: ['MARKET_STUB_FIXTURES'], kind: { type: 'path' }, required: 'a fixture JSON file or a directory of JSON files (market-stub validate fixtures/)', describe: 'Fixture JSON file or directory of JSON files' },
]);

export type ValidateValues = TableValues<typeof VALIDATE_OPTIONS>;
