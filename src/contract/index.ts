// The contract room's door: what the CLI, the recording proxy and the library's entry use of
// crawl, checks, reports and fixture sets. Other rooms import the contract room only from here
// (.dependency-cruiser.cjs, contract-through-its-door).
export { baseUrlSecrets } from './base-query.js';
export { BodyText } from './body-text.js';
export { contentDecoders, decodeFailureReason, unsupportedCodingReason } from './content-decoding.js';
export { LIST_ENDPOINT, SINGLE_ENDPOINT, type ContractEndpoint, type ContractFinding, type FindingExample, type Observation, type Severity } from './contract-finding.js';
export { buildContractReport, type ContractReport, type ListSummary, type ProbeSummary, type ReportSummary } from './contract-report.js';
export { ContractRunError } from './contract-run-error.js';
export { DeploymentRefusal, type RefusalKind } from './could-not-run-report.js';
export { checkDeployment, crawlDeployment, type CrawlOptions, type CrawlProgress, type CrawlResult, type InvalidResponse } from './crawl-deployment.js';
export { parseBaseUrl } from './crawl-settings.js';
export { displayBase, displayUrl, formatBytes } from './deployment-client.js';
export { createFindingAggregator, type FindingAggregator } from './finding-aggregator.js';
export { stageFixtureSet, writeFixtureSet, type FixtureSetOptions, type FixtureSetStaging, type FixtureSetWritten } from './fixture-set.js';
export { formatContractReport, type FormatOptions, type ReportFormat } from './format-contract-report.js';
export { MARKDOWN_MAX_CHARS } from './format-markdown-report.js';
export { SARIF_CONTRACT_URI, type SarifOptions } from './format-sarif-report.js';
export { checkHeaderFields } from './header-field.js';
export { createJsonReader, type JsonReader } from './json-body-reader.js';
export { checkUtf8 } from './json-rule-finding.js';
export { findNextPage } from './list-envelope.js';
export { ListedMarkets } from './listed-markets.js';
export { checkEncoding, checkSingleBody, checkStatus, createListPageChecker, type CheckContext, type ListPage, type ListPageChecker, type ResponseFacts } from './market-checks.js';
export { type MarketSpool } from './market-spool.js';
export { createOutgoingAgent, networkSecrets, proxyCause, type ChosenProxy, type OutgoingAgent, type OutgoingNetwork } from './outgoing-agent.js';
export { ResponseTimeRecorder, buildDistributions, type Histogram, type ReportDistributions, type ResponseTimes } from './report-distributions.js';
