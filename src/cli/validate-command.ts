import { formatFixtureProblems, readFixtures } from '../catalog/load-fixtures.js';
import { EXIT, type CliIo } from './cli-io.js';

/**
 * `market-stub validate PATH`: checks a fixture file or directory offline, with the same messages
 * `serve` prints.
 * @returns 0 all valid; 1 any invalid market, duplicate id or bad JSON; 2 unreadable path.
 */
export async function runValidate(location: string, io: CliIo): Promise<number> {
  const load = await readFixtures(location);
  if (load.problems.length === 0) {
    io.stdout(`${location}: ${load.markets.length} markets in ${load.files.length} file(s) are valid against $defs/Market.\n`);
    return EXIT.ok;
  }
  io.stderr(`market-stub validate: ${formatFixtureProblems(load.problems, location, 'validate')}\n`);
  return load.problems.some((p) => p.code === 'unreadable') ? EXIT.couldNotRun : EXIT.failed;
}
