// The contract room's reports: a ContractReport written as text, JSON, Markdown, HTML, JUnit or
// SARIF, and the report of a run the deployment refused (DeploymentRefusal). Imports the checks;
// other sub-rooms and rooms import these files only from here (.dependency-cruiser.cjs).
export { checkerLimit, DeploymentRefusal, refusalReport, type RefusalKind } from './could-not-run-report.js';
export { formatContractReport, type FormatOptions, type ReportFormat } from './format-contract-report.js';
export { MARKDOWN_MAX_CHARS } from './format-markdown-report.js';
export { SARIF_CONTRACT_URI, type SarifOptions } from './format-sarif-report.js';
export { htmlText, jsonReportText } from './report-display.js';
