import type { Finding } from '../schema/finding.js';

/** The two documented routes, as they appear in findings, reports and the deviation catalogue. */
export const LIST_ENDPOINT = 'GET /markets';
export const SINGLE_ENDPOINT = 'GET /markets/{market_id}';

/** A route a finding is about. `deployment` is for facts about the crawl as a whole (timing, sample). */
export type ContractEndpoint = typeof LIST_ENDPOINT | typeof SINGLE_ENDPOINT | 'deployment';

/** Severity of a contract finding; see docs/contract-check.md for what each one costs. */
export type Severity = Finding['severity'];

/** Report order: errors, warnings, then information. */
export const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'info'];

/** Report formats of check, record and proxy (on the floor: the CLI's option tables read them without loading the formatters). */
export const REPORT_FORMATS = ['text', 'json', 'jsonl', 'junit', 'html', 'markdown', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
