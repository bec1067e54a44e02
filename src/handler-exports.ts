// What both in-process handler entries (market-stub/msw, market-stub/fetch) export besides their
// factory: the controls' interface, the error class and the types their options and calls use.
export type { MarketStubClient } from './runtime/control-table.js';
export { MarketStubError, type MarketStubErrorCode } from './floor/market-stub-error.js';
export type { Behaviour, BehaviourRuleInput, TransportFault } from './behaviour/behaviour.js';
export type { DeviationSetting } from './deviation/deviation-settings.js';
export type { JournalEntry, JournalFilter } from './journal/request-journal.js';
export type { ClockChange, ClockReading } from './catalog/stub-clock.js';
export type { Market } from './schema/generated/market-types.js';
export type { ResponseProfile } from './runtime/response-profile.js';
