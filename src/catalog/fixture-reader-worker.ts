// The worker thread of readFixturesOffThread (read-fixtures-off-thread.ts): reads, parses and
// validates a fixture set with readFixtures, digests it, and posts the result back in batches, so
// the thread that serves requests never runs a JSON.parse or a validation of a whole set.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { readFixtures } from './load-fixtures.js';

/** Markets per message: each batch costs the receiving thread about a millisecond to deserialise. */
const BATCH = 1_000;

const port = parentPort;
if (port) {
  const { location } = workerData as { location: string };
  void readFixtures(location).then((load) => {
    if (load.problems.length > 0) {
      port.postMessage({ kind: 'problems', problems: load.problems });
      return;
    }
    // SHA-256 of the markets' JSON: tells a real change from a rewrite of the same data.
    const digest = createHash('sha256').update(JSON.stringify(load.markets)).digest('hex');
    // One batch per request of the reading thread: a port delivers every queued message in one
    // task, so sending them all at once would deserialise the whole set in one go there.
    let from = 0;
    const send = () => {
      if (from >= load.markets.length) {
        port.postMessage({ kind: 'done', digest, files: load.files });
        port.off('message', send);
        return;
      }
      port.postMessage({ kind: 'markets', markets: load.markets.slice(from, from + BATCH) });
      from += BATCH;
    };
    port.on('message', send);
    send();
  }, (error: unknown) => port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }));
}
