import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // test/consumers: projects of their own, run by `npm run test:consumers` against the tarball;
    // test/reliability: `npm run test:reliability`; test/browser: `npm run test:browser` (needs Debian's chromium).
    exclude: ['test/container/**', 'test/consumers/**', 'test/reliability/**', 'test/browser/**', 'node_modules/**', 'dist/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
