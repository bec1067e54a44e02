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
