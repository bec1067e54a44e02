import { GENERATE_OPTIONS, type GenerateValues } from '../options/tables/generate-options.js';
import type { CommandSpec } from './command-spec.js';

/** `market-stub generate`: options as data (GENERATE_OPTIONS); its run loads on use (run-generate.ts). */
export const generateCommand: CommandSpec<GenerateValues> = {
  name: 'generate',
  describe: 'Write a generated catalog as a fixtures file (stdout unless --out)',
  options: GENERATE_OPTIONS,
  examples: [
    ['$0 generate --seed 7 --count 250 --clock 2026-01-01 --out fixtures/generated.json', 'then: market-stub serve --fixtures fixtures/generated.json serves the same markets'],
    ['$0 generate --count 3', 'three markets on stdout'],
    ['$0 generate --count 1000000 --out fixtures/large/', 'a million markets in files of at most 64 MiB each, for serve --fixtures fixtures/large'],
  ],
  load: async () => ({ run: (await import('./run-generate.js')).runGenerate }),
};
