import { defineConfig } from 'vitest/config';

// The reliability suite (`npm run test:reliability [-- --quick]`, see test/reliability/run-reliability.ts):
// hostile requests, soak, admin abuse latency, security cases and hot reload loops against the built CLI.
// Kept out of `npm test` (vitest.config.ts excludes test/reliability/**).
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts', 'test/runtime/hot-reload.test.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
