// The contract room's checks: judging answers against the contract (status, encoding, JSON body,
// schema, list consistency) into findings, aggregating them, and the ContractReport they sum up
// to (with its response-time distributions). Which check a finding code belongs to lives beside
// the codes (src/floor/finding-codes.ts). Imports the HTTP client and paging; other sub-rooms and
// rooms import these files only from here (.dependency-cruiser.cjs).
export { describeBody, parseJsonBody } from './body-description.js';
export { type ContractEndpoint, type ContractFinding, type FindingExample, LIST_ENDPOINT, type Observation, type Severity, SEVERITY_ORDER, SINGLE_ENDPOINT } from './contract-finding.js';
export { buildContractReport, type ContractReport, type ListSummary, type ProbeSummary, type ReportSummary } from './contract-report.js';
export { createFindingAggregator, type FindingAggregator } from './finding-aggregator.js';
export { checkUtf8, notRecordedObservation } from './json-rule-finding.js';
export { ListedMarkets } from './listed-markets.js';
export { listShapeLabel, noteListShape, shapeWords } from './list-shape-words.js';
export { type CheckContext, checkEncoding, checkSingleBody, checkStatus, createListPageChecker, type ListPage, type ListPageChecker, type ResponseFacts } from './market-checks.js';
export { buildDistributions, type Histogram, type ReportDistributions, ResponseTimeRecorder, type ResponseTimes } from './report-distributions.js';
