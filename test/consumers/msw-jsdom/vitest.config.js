import { defineConfig } from 'vitest/config';

// A front-end team's component tests: jsdom for the DOM, MSW (msw/node) answering fetch.
export default defineConfig({ test: { environment: 'jsdom', include: ['*.test.js'] } });
