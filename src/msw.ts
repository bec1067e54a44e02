// market-stub/msw: the stub as Mock Service Worker request handlers, for tests in jsdom, happy-dom,
// a real browser (setupWorker) and Playwright. Needs msw (an optional peer dependency, 2.x or 3.x);
// importing market-stub itself never loads it. No side effects at import time.
export { createMarketStubHandlers, type MarketStubHandlers } from './msw/msw-handlers.js';
export type { MarketStubHandlersOptions } from './msw/msw-options.js';
export type { MarketStubClient } from './runtime/market-stub-client.js';
export { MarketStubError, type MarketStubErrorCode } from './core/market-stub-error.js';
export type { Behaviour, BehaviourRuleInput, TransportFault } from './behaviour/behaviour.js';
export type { DeviationSetting } from './deviation/deviation-settings.js';
export type { JournalEntry, JournalFilter } from './journal/request-journal.js';
export type { Market } from './schema/generated/market-types.js';
export type { ResponseProfile } from './runtime/response-profile.js';
