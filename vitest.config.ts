import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/support/long-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // test/consumers: projects of their own, run by `npm run test:consumers` against the tarball;
    // test/reliability: `npm run test:reliability`; test/browser: `npm run test:browser` (needs Debian's chromium).
    exclude: ['test/container/**', 'test/consumers/**', 'test/reliability/**', 'test/browser/**', 'node_modules/**', 'dist/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // The suite mostly waits on spawned CLI processes, sockets and timers, so it runs more files at
    // once than there are cores (vitest's default is cores - 1: one file at a time on 2 cores), each
    // in a worker thread (cheaper to start than a child process; no test changes directory or
    // signals its own process). The measurement behind the pool and the number, and the slowest
    // files run first: docs/development.md, "How long the suite takes".
    pool: 'threads',
    maxWorkers: 3,
    sequence: { sequencer: LongFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
