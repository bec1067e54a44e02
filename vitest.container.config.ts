import { defineConfig } from 'vitest/config';

// The container test (`npm run test:container`): builds docker/Dockerfile and runs the image with
// podman or docker. Kept out of `npm test` (vitest.config.ts excludes test/container/**).
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    // One engine, shared containers and ports: one file, its tests in order.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
