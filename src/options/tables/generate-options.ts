import { optionTable, type TableValues } from '../option-values.js';
import { CATALOG_OPTIONS } from './serve-options.js';

/** `market-stub generate`'s options: the catalog options of `serve` (same flags and variables), plus where to write. */
export const GENERATE_OPTIONS = optionTable([
  ...CATALOG_OPTIONS,
  { flag: 'out', env: ['MARKET_STUB_OUT'], kind: { type: 'path' }, defaultText: 'stdout', describe: 'File to write (atomically: a temporary file, fsync, rename), at most 64 MiB; a directory (DIR/) gets the markets split into files within that limit', group: 'Output:' },
]);

export type GenerateValues = TableValues<typeof GENERATE_OPTIONS>;
