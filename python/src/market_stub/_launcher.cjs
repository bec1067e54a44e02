// The process the Python package starts (src/market_stub/_process.py): `node _launcher.cjs
// [serve flags…]` runs the bundled CLI's `serve` (./_bundled/cli.cjs, every dependency inline) in
// this same process, and stops it gracefully (as on SIGTERM) as soon as the Python side is gone:
//   - its stdin reaches end of file: the parent closed the pipe (MarketStub.close()) or died (even
//     by SIGKILL: the kernel closes a dead process's descriptors), or
//   - its parent process changes (the parent died and this process was re-parented), checked
//     every WATCH_MS in case something else holds the pipe open.
// A stop that has not ended the process after HARD_EXIT_MS exits at once.
'use strict';

/** How often the parent pid is compared with the one at start, ms. */
const WATCH_MS = 250;
/** Longest graceful stop before a hard exit, ms (the CLI's own shutdown grace is shorter by default). */
const HARD_EXIT_MS = 5000;

const parent = process.ppid;
let stopping = false;

/** Stops `serve` as a SIGTERM would (src/cli.ts: the first SIGTERM stops gracefully). */
function stop() {
  if (stopping) return;
  stopping = true;
  process.stdin.destroy();
  process.emit('SIGTERM', 'SIGTERM');
  setTimeout(() => process.exit(0), HARD_EXIT_MS).unref();
}

process.stdin.on('data', () => {});
process.stdin.on('end', stop);
process.stdin.on('error', stop);
// The pipe alone never keeps the process up: once `serve` has stopped (SIGTERM, SIGINT), it exits.
process.stdin.unref?.();
setInterval(() => {
  if (process.ppid !== parent) stop();
}, WATCH_MS).unref();

const cli = require.resolve('./_bundled/cli.cjs');
process.argv = [process.argv[0], cli, 'serve', ...process.argv.slice(2)];
require(cli);
