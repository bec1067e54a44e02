import { watch, type FSWatcher } from 'node:fs';
import type { Market } from '../schema/market-types.js';
import { readFixtures, type FixtureProblem } from './load-fixtures.js';

/**
 * Watches a fixture file or directory (node:fs watch; directories non-recursively, like
 * readFixtures) and re-reads the whole set after changes settle (`debounceMs`). A valid set goes
 * to `onValid`, which swaps it in at once; an invalid one goes to `onInvalid` and the old data stays.
 * @returns a function that stops watching.
 */
export function watchFixtures(location: string, handlers: { onValid(markets: Market[]): void; onInvalid(problems: FixtureProblem[]): void }, debounceMs = 100): () => void {
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const reload = () => {
    running = running.then(async () => {
      const load = await readFixtures(location);
      if (load.problems.length === 0) handlers.onValid(load.markets);
      else handlers.onInvalid(load.problems);
    });
  };
  const watcher: FSWatcher = watch(location, { persistent: false }, () => {
    clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
