import { describeFixtureProblems, readFixtures } from '../file-system/load-fixtures.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { ValidateValues } from '../options/tables/validate-options.js';
import { EXIT, type CliIo } from './cli-io.js';

// `validate`'s one lazy load (validateCommand.load): the fixture reader loads with it.

/**
 * `market-stub validate PATH`: checks a fixture file or directory offline and reports every
 * problem at once, with the lines `serve` prints.
 * @returns 0 all valid; 1 any invalid market, duplicate id or bad JSON; 2 unreadable path.
 */
export async function runValidate(options: ResolvedOptions<ValidateValues>, io: CliIo): Promise<number> {
  const location = options.values.path;
  const load = await readFixtures(location);
  if (load.problems.length === 0) {
    io.stdout(`${location}: ${load.markets.length} markets in ${load.files.length} file(s) are valid against $defs/Market.\n`);
    return EXIT.ok;
  }
  const unreadable = load.problems.some((p) => p.code === 'unreadable');
  const advice = unreadable
    ? 'Check the path: validate takes a JSON file or a directory of *.json files.'
    : 'Fix the markets listed: each line names the file, the market\'s index and a JSON pointer; the rules are $defs/Market in schemas/market.schema.json.';
  io.stderr(`market-stub validate: ${describeFixtureProblems(load.problems, location)}\n${advice}\n`);
  return unreadable ? EXIT.couldNotRun : EXIT.failed;
}
