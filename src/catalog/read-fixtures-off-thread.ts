import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Market } from '../schema/generated/market-types.js';
import type { FixtureLoad } from './load-fixtures.js';

/** A fixture set read off the serving thread: readFixtures' result plus the SHA-256 digest of its markets' JSON. */
export interface FixtureLoadWithDigest extends FixtureLoad {
  /** Hex SHA-256 of JSON.stringify(markets); empty when there are problems. */
  digest: string;
}

/**
 * What the worker runs: the built file beside the bundle (dist/), or, when this module runs from
 * its TypeScript source (tests), a script that registers tsx's loader in the worker and imports
 * the source (a worker does not inherit the loader the main thread was started with).
 */
function workerScript(): { script: string | URL; eval: boolean } | undefined {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) {
    const file = new URL('./fixture-reader-worker.cjs', self);
    return existsSync(fileURLToPath(file)) ? { script: file, eval: false } : undefined;
  }
  const source = fileURLToPath(new URL('./fixture-reader-worker.ts', self));
  const tsx = createRequire(self).resolve('tsx/cjs/api');
  return { script: `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(source)});`, eval: true };
}

/**
 * Reads a fixture set as readFixtures does (same files, rules and problems), but in a worker
 * thread (node:worker_threads): the JSON.parse of a 64 MiB file (about 0.2 s) and the validation of
 * a million markets (seconds) never block the thread that answers requests. The markets come back
 * in batches of 1,000, each deserialised in about a millisecond between other events. When no worker can be
 * started (the worker file is missing), it reads in this thread instead.
 * @returns the load and its digest; never throws for bad data (problems, as readFixtures).
 * @throws Error when the worker fails (a bug or an out-of-memory): the caller keeps the old data.
 */
export async function readFixturesOffThread(location: string): Promise<FixtureLoadWithDigest> {
  const worker = workerScript();
  if (!worker) return readInThread(location);
  const { Worker } = await import('node:worker_threads');
  const thread = new Worker(worker.script, { workerData: { location }, eval: worker.eval });
  const markets: Market[] = [];
  try {
    return await new Promise<FixtureLoadWithDigest>((resolve, reject) => {
      thread.on('message', (message: WorkerMessage) => {
        if (message.kind === 'markets') {
          for (const market of message.markets) markets.push(market);
          // The next batch is asked for after other events had their turn.
          setImmediate(() => thread.postMessage('next'));
        }
        else if (message.kind === 'problems') resolve({ markets: [], problems: message.problems, files: [], digest: '' });
        else if (message.kind === 'done') resolve({ markets, problems: [], files: message.files, digest: message.digest });
        else reject(new Error(`reading fixtures at ${location} failed: ${message.message}`));
      });
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the fixture reader stopped (exit ${code}) before finishing ${location}`)));
    });
  } finally {
    await thread.terminate();
  }
}

type WorkerMessage =
  | { kind: 'markets'; markets: Market[] }
  | { kind: 'problems'; problems: FixtureLoad['problems'] }
  | { kind: 'done'; digest: string; files: string[] }
  | { kind: 'failed'; message: string };

async function readInThread(location: string): Promise<FixtureLoadWithDigest> {
  const [{ readFixtures }, { createHash }] = await Promise.all([import('./load-fixtures.js'), import('node:crypto')]);
  const load = await readFixtures(location);
  const digest = load.problems.length > 0 ? '' : createHash('sha256').update(JSON.stringify(load.markets)).digest('hex');
  return { ...load, digest };
}
