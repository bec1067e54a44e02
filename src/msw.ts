// market-stub/msw: the stub as Mock Service Worker request handlers, for tests in jsdom, happy-dom,
// a real browser (setupWorker) and Playwright. Needs msw (an optional peer dependency, 2.x or 3.x);
// importing market-stub itself never loads it. No side effects at import time.
export { createMarketStubHandlers, type MarketStubHandlers } from './msw/msw-handlers.js';
export type { MarketStubHandlersOptions } from './msw/msw-options.js';
export * from './handler-exports.js';
