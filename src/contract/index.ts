// The contract room's door: what the CLI and the library's entry (src/index.ts) use of the crawl,
// checks, reports and fixture sets. The room is six sub-rooms, each behind its own index.ts:
// http-client → paging → checks → reports → crawl, and fixture-sets (docs/architecture.md draws
// them). Other rooms import the contract room only from here; the recording proxy (src/proxy),
// an observer over the same HTTP and checks, imports the sub-rooms' entries it needs
// (.dependency-cruiser.cjs, contract-through-its-door).
export { baseUrlSecrets, checkHeaderFields, ContractRunError, displayBase, networkSecrets, parseBaseUrl, type OutgoingNetwork } from './http-client/index.js';
export { type ContractEndpoint, type ContractFinding, type ContractReport, type FindingExample, type Histogram, type ListSummary, type ProbeSummary, type ReportDistributions, type ReportSummary, type ResponseTimes, type Severity } from './checks/index.js';
export { DeploymentRefusal, formatContractReport, type FormatOptions, MARKDOWN_MAX_CHARS, type ReportFormat, SARIF_CONTRACT_URI, type SarifOptions } from './reports/index.js';
export { type FixtureSetOptions, type FixtureSetStaging, type FixtureSetWritten, stageFixtureSet, writeFixtureSet } from './fixture-sets/index.js';
export { checkDeployment, crawlDeployment, type CrawlOptions, type CrawlProgress, type CrawlResult, type InvalidResponse } from './crawl/index.js';
export { deploymentIdentity, formatRoundJsonl, formatWatchHtml, formatRoundText, formatSummaryJsonl, formatSummaryText, type TimelineRound, watchDeployment, type WatchEvidence, type WatchExample, type WatchFinding, WatchMetrics, type WatchOptions, type WatchRound, type WatchSummary, WatchSummaryBuilder } from './watch/index.js';
