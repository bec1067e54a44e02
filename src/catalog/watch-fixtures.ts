import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FSWatcher, watch as chokidarWatch } from 'chokidar';
import type { Market } from '../schema/generated/market-types.js';
import type { FixtureProblem } from './load-fixtures.js';
import { readFixturesOffThread } from './read-fixtures-off-thread.js';

/** What the watcher reports: a valid set swapped in, or an invalid one refused (the old data stays). */
export interface FixtureWatchHandlers {
  /** A new valid set; awaited before the next reload (building its catalog may yield to requests). */
  onValid(markets: Market[]): void | Promise<void>;
  onInvalid(problems: FixtureProblem[]): void;
}

/** A running watch; `close()` stops it (idempotent). `ready` resolves once the first watchers are armed. */
export interface FixtureWatch {
  close(): Promise<void>;
}

/**
 * Watches a fixture file or directory with chokidar and re-reads the whole set after changes settle
 * (`debounceMs`), in a worker thread (readFixturesOffThread), so a reload of a large set never
 * stalls the server. A valid set goes to `onValid` (only when it differs from the last one loaded), an
 * invalid or missing one to `onInvalid` (only when its problems differ from the last ones reported:
 * one save that fires several events, or re-arms the watch, is reported once), and the old data stays.
 *
 * It never goes deaf: chokidar watches the location's entry in its parent directory (so deleting
 * and recreating the location, renaming a file or directory over it, or swapping a symlink is
 * seen) and the location's content (a directory non-recursively, like readFixtures), and after each reload, when the location's
 * entry was replaced or its identity (device, inode) changed, the watch is armed again on what is there now and the
 * set read once more to catch changes made meanwhile. Editors' save patterns (write in place,
 * write a temporary file and rename it over, delete and write) all end in an event on the
 * location or its parent.
 */
export async function watchFixtures(location: string, handlers: FixtureWatchHandlers, debounceMs = 100): Promise<FixtureWatch> {
  const { watch } = await import('chokidar');
  const target = path.resolve(location);
  const parent = path.dirname(target);
  let watchers: FSWatcher[] = [];
  let identity = await identityOf(target);
  let lastLoaded: string | undefined;
  let lastRefused: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let replaced = false;
  let running = Promise.resolve();

  const arm = async () => {
    const previous = watchers;
    // The location itself was replaced: the content watch may be on what is gone (a new directory
    // can even reuse the old inode), so it is armed again after the reload.
    watchers = await watchLocation(watch, parent, target, { replaced: () => { replaced = true; schedule(); }, changed: () => schedule() });
    await Promise.all(previous.map((w) => w.close()));
  };
  const reload = async () => {
    if (closed) return;
    // Read, parsed, validated and digested in a worker thread: the server keeps answering meanwhile.
    const load = await readFixturesOffThread(target);
    if (load.problems.length > 0) {
      const refusal = JSON.stringify(load.problems);
      if (refusal !== lastRefused) handlers.onInvalid(load.problems);
      lastRefused = refusal;
    } else {
      lastRefused = undefined;
      if (load.digest !== lastLoaded) {
        lastLoaded = load.digest;
        await handlers.onValid(load.markets);
      }
    }
    const now = await identityOf(target);
    if ((replaced || now !== identity) && !closed) {
      replaced = false;
      identity = now;
      await arm();
      schedule();
    }
  };
  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(reload).catch(() => schedule());
    }, debounceMs);
  };

  // The set served at start is the one loaded now; only a change differs from it.
  const first = await readFixturesOffThread(target);
  if (first.problems.length === 0) lastLoaded = first.digest;
  await arm();
  return {
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      await running;
      await Promise.all(watchers.map((w) => w.close()));
    },
  };
}

/**
 * Arms the two watches of a location: the location as an entry of its parent (not followed: a
 * swapped symlink or a directory renamed over it is a change of this entry), and what it holds
 * (followed; depth 0, since readFixtures is not recursive). Resolves once both are ready.
 */
async function watchLocation(
  watch: typeof chokidarWatch, parent: string, target: string, on: { replaced(): void; changed(): void },
): Promise<FSWatcher[]> {
  const ready = (w: FSWatcher) => new Promise<void>((resolve) => w.once('ready', () => resolve()));
  const entry = watch(parent, { ignoreInitial: true, depth: 0, followSymlinks: false, ignored: (p) => p !== parent && p !== target });
  entry.on('all', (_event, changed) => {
    if (changed === target) on.replaced();
  });
  const content = watch(target, { ignoreInitial: true, depth: 0, followSymlinks: true });
  content.on('all', () => on.changed());
  for (const w of [entry, content]) w.on('error', () => on.changed());
  await Promise.all([ready(entry), ready(content)]);
  return [entry, content];
}

/** The real path and inode of a location, or `missing`: what changes when it is replaced rather than edited. */
async function identityOf(location: string): Promise<string> {
  try {
    const info = await stat(location);
    return `${info.dev}:${info.ino}`;
  } catch {
    return 'missing';
  }
}
