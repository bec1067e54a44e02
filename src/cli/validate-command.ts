import { VALIDATE_OPTIONS, type ValidateValues } from '../options/tables/validate-options.js';
import type { CommandSpec } from './command-spec.js';

/** `market-stub validate`: options as data (VALIDATE_OPTIONS); its run loads on use (run-validate.ts). */
export const validateCommand: CommandSpec<ValidateValues> = {
  name: 'validate',
  describe: 'Check a fixture file or directory offline (exit 0 valid, 1 invalid, 2 unreadable)',
  options: VALIDATE_OPTIONS,
  examples: [
    ['$0 validate fixtures', 'every *.json file in fixtures/, each an array of markets'],
    ['$0 validate fixtures/recorded/markets.json', 'one file'],
  ],
  load: async () => ({ run: (await import('./run-validate.js')).runValidate }),
};
