// The public library API of market-stub: what the README and docs/contract-check.md document, and
// the types of those functions' options and results. No side effects at import time.

// A stub in process, or one in another process or a container, behind one client interface.
export { startMarketStub, type MarketStub, type MarketStubOptions } from './stub.js';
export type { MarketStubClient, HarDocument } from './runtime/control-table.js';
export type { HarEntry, HarPair } from './journal/har.js';
export type { TraceParent } from './journal/trace-context.js';
export { connectMarketStub, type ConnectMarketStubOptions } from './client/connect-market-stub.js';
export { serveEnvironment, type ServeOptionValue } from './serve-environment.js';
export { MarketStubError, type MarketStubErrorCode, type ErrorFinding } from './floor/market-stub-error.js';
export type { LocatedProblem } from './floor/located-problem.js';
export type { StubLogger } from './floor/stub-logger.js';

// The stub's app for supertest, and the catalog it serves.
export { createApp, type AppOptions, type StubRequestListener } from './http/create-app.js';
export type { RuntimeOptions } from './runtime/stub-runtime.js';
export type { ResponseProfile } from './runtime/response-profile.js';
export { buildCatalog, type CatalogOptions } from './file-system/build-catalog.js';
export type { CatalogEntry, MarketCatalog, CatalogSource } from './catalog/market-catalog.js';
export { generateMarket, generateMarkets, type GenerateOptions } from './catalog/generate-markets.js';
export type { Behaviour, BehaviourRule, BehaviourRuleInput, RuleMatch, TransportFault } from './behaviour/behaviour.js';
export type { JournalEntry, JournalFilter } from './journal/request-journal.js';
export type { ClockChange, ClockReading } from './catalog/stub-clock.js';
export type { Explanation } from './journal/explanation.js';

// Contract drift on demand.
export { DEVIATIONS } from './deviation/deviation-catalogue.js';
export type { Deviation, DeviationClass, DeviationEndpoint, DeclaredFinding } from './deviation/deviation-definition.js';
export type { DeviationSetting } from './deviation/deviation-settings.js';

// The schema and its validators.
export type { Market, MarketSummary } from './schema/generated/market-types.js';
export { getMarketValidator, type MarketValidator, type MarketValidatorOptions } from './schema/market-validator.js';
export { loadMarketSchema, type JsonSchemaDocument } from './schema/market-schema.js';
export type { Finding } from './schema/finding.js';

// Contract checks against a real deployment (docs/contract-check.md, "Library").
export { checkDeployment, crawlDeployment, type CrawlOptions, type CrawlProgress, type CrawlResult, type InvalidResponse } from './contract/index.js';
export { formatContractReport, type ReportFormat, type FormatOptions } from './contract/index.js';
export type { ContractReport, ListSummary, ProbeSummary, ReportSummary } from './contract/index.js';
export type { Histogram, ReportDistributions, ResponseTimes } from './contract/index.js';
export { MARKDOWN_MAX_CHARS } from './contract/index.js';
export { watchDeployment, type WatchEvidence, type WatchExample, type WatchFinding, type WatchOptions, type WatchRound } from './contract/index.js';
export { SARIF_CONTRACT_URI, type SarifOptions } from './contract/index.js';
export type { ContractEndpoint, ContractFinding, FindingExample, Severity } from './contract/index.js';
export { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from './proxy/recording-proxy.js';
export { writeFixtureSet, stageFixtureSet, type FixtureSetWritten, type FixtureSetStaging, type FixtureSetOptions } from './contract/index.js';
