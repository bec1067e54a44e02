import { defineConfig } from 'vitest/config';

// `npm run test:browser`: suites that drive Debian's chromium through playwright-core (the web
// console, the HTML report, the MSW worker page). Not part of `npm test`, which must pass on a
// machine without the browser; `.ci/run` installs chromium and runs this after `npm test`.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
