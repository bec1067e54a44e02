// The public library API of market-stub. No side effects at import time.
export { startMarketStub, type MarketStub, type MarketStubOptions } from './stub.js';
export { createApp, type AppOptions } from './http/create-app.js';
export { buildCatalog, validateMarkets, type CatalogOptions } from './catalog/build-catalog.js';
export { createMemoryCatalog, toSummary, type CatalogEntry, type MarketCatalog, type CatalogSource } from './catalog/market-catalog.js';
export { generateMarket, generateMarkets, type GenerateOptions } from './catalog/generate-markets.js';
export { readFixtures, loadFixtures, FixtureError, formatFixtureProblems, type FixtureProblem, type FixtureLoad } from './catalog/load-fixtures.js';
export { getMarketValidator, type MarketValidator, type MarketValidatorOptions } from './schema/market-validator.js';
export { loadMarketSchema, marketSchemaUrl, type JsonSchemaDocument } from './schema/market-schema.js';
export type { Finding } from './schema/finding.js';
export type { Market, MarketSummary } from './schema/market-types.js';
export { createStubRuntime, ADMIN_PREFIX, type StubRuntime, type RuntimeOptions } from './http/stub-runtime.js';
export { DEFAULT_PROFILE, resolveProfile, type ResponseProfile } from './http/response-profile.js';
export { buildOpenApiDocument } from './http/openapi-document.js';
export { createMarketStore, DOMAIN_FAULTS, type DomainFault, type GlobalDomainFault, type MarketStore } from './catalog/market-store.js';
export { BehaviourError, TRANSPORT_FAULTS, parsePrefer, type Behaviour, type BehaviourRule, type BehaviourRuleInput, type RuleMatch, type TransportFault } from './behaviour/behaviour.js';
export { createRequestJournal, type JournalEntry, type JournalFilter, type RequestJournal } from './journal/request-journal.js';
