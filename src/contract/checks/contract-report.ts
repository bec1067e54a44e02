import { packageVersion } from '../../floor/package-info.js';
import type { ContractFinding } from './contract-finding.js';
import type { ReportDistributions } from './report-distributions.js';

/** Version of the JSON report shape (docs/contract-check.md). Bumped on any incompatible change. */
export const REPORT_VERSION = 1;

/** How the market list was found and crawled. */
export interface ListSummary {
  /** `array` (bare JSON array), `envelope` (an object holding the array), or `unavailable` (no market array found). */
  shape: 'array' | 'envelope' | 'unavailable';
  /** The member path that held the array (`markets`, `data`, `results`, `items`; `data.markets` in GraphQL, `_embedded.markets` in HAL, `value` in OData, `entities` in Siren). */
  envelopeKey?: string;
  /** The wrapper the list was recognised in (docs/contract-check.md, "List envelopes"): `keyed`, `only-array`, `graphql`, `hal`, `json-api`, `siren`, `odata` (added in 0.5; with `envelopeKey`). */
  envelope?: string;
  /** List pages fetched. */
  pages: number;
  /** What signalled the next page the crawl followed: `none`, `link` (Link rel="next"), an envelope field (`next_cursor`, `meta.next_cursor`, `has_more`, `offset`, `page`…) or a header (`X-Next-Page`, `X-Page`). */
  paging: string;
  /** The paging dialect (docs/paging.md) that was followed, or that read the only page: `link-header`, `body-next-url`, `siren-links`, `body-cursor`, `has-more`, `offset-limit`, `page-number`, `page-headers`, `content-range` (added in 0.3; absent when none did). */
  dialect?: string;
  /** What the dialect was recognised by, e.g. `"offset": 0, "limit": 3, "total": 9` (with `dialect`). */
  pagingEvidence?: string;
  /** False when the list was not seen whole: --max-pages reached, a cursor loop, a page that failed, paging no dialect follows, or a total larger than what was seen. */
  complete: boolean;
  /** Final URL of the first page when the deployment redirected `GET /markets`. */
  redirectedTo?: string;
}

/** What the deployment answered for an id that cannot exist (information only; never a finding above info). */
export interface ProbeSummary {
  /** Path requested, e.g. `/markets/market-stub-probe-1k3f9x`. */
  request: string;
  status?: number;
  contentType?: string;
  /** Shape of the body, e.g. `a JSON object with keys status, error, message`. */
  body?: string;
  /** Why there was no answer (timeout, reset), when there was none. */
  failure?: string;
}

/** Counts for the verdict. Error, warning and info counts are of aggregated findings, not occurrences. */
export interface ReportSummary {
  errors: number;
  warnings: number;
  infos: number;
  /** Distinct market_ids listed across all pages. */
  marketsListed: number;
  /** Single-market requests made for listed ids. */
  marketsChecked: number;
  /** HTTP requests made (list pages, single markets, probe); for the proxy, responses seen. */
  requests: number;
}

/** Wall time of the crawl's phases (check, record) or time spent in answers (proxy), in ms; JUnit testcases carry them. */
export interface ReportTiming {
  /** The list: every page, read and checked. */
  listMs: number;
  /** The single markets (and, for check/record, the probe is not included). */
  marketsMs: number;
}

/** The result of `check`, `record` or `proxy`: the documented, versioned JSON report (reportVersion 1). */
export interface ContractReport {
  reportVersion: typeof REPORT_VERSION;
  tool: { name: 'market-stub'; version: string };
  command: 'check' | 'record' | 'proxy';
  /** The deployment, without any user name or password. */
  baseUrl: string;
  /** ISO 8601 time the run started. */
  startedAt: string;
  durationMs: number;
  /** Time of the list and single-market phases (added in 0.2; optional in reportVersion 1). */
  timing?: ReportTiming;
  /** --strict: warnings fail the run too. */
  strict: boolean;
  verdict: 'pass' | 'fail';
  /** 0 pass, 1 fail, 2 could not run: only the report of a deployment refusing to be judged (access refused, an announced outage: could-not-run-report.ts) has it; other could-not-run causes produce no report. */
  exitCode: 0 | 1 | 2;
  summary: ReportSummary;
  list: ListSummary;
  probe?: ProbeSummary;
  findings: ContractFinding[];
  /** Prices and answer times in fixed bins, for the html report's charts (added in 0.3; optional in reportVersion 1). */
  distributions?: ReportDistributions;
}

/** Everything a report is built from. */
export interface ReportInput {
  command: ContractReport['command'];
  baseUrl: string;
  startedAt: Date;
  durationMs: number;
  timing?: ReportTiming;
  strict: boolean;
  list: ListSummary;
  probe?: ProbeSummary;
  findings: ContractFinding[];
  distributions?: ReportDistributions;
  marketsListed: number;
  marketsChecked: number;
  requests: number;
}

/**
 * Builds the report and its verdict: fail when there is an error finding, or (with `strict`) a
 * warning; exit code 1 for fail, 0 for pass.
 */
export function buildContractReport(input: ReportInput): ContractReport {
  const count = (severity: ContractFinding['severity']) => input.findings.filter((f) => f.severity === severity).length;
  const errors = count('error');
  const warnings = count('warning');
  const fail = errors > 0 || (input.strict && warnings > 0);
  return {
    reportVersion: REPORT_VERSION,
    tool: { name: 'market-stub', version: packageVersion() },
    command: input.command,
    baseUrl: input.baseUrl,
    startedAt: input.startedAt.toISOString(),
    durationMs: Math.round(input.durationMs),
    ...(input.timing ? { timing: { listMs: Math.round(input.timing.listMs), marketsMs: Math.round(input.timing.marketsMs) } } : {}),
    strict: input.strict,
    verdict: fail ? 'fail' : 'pass',
    exitCode: fail ? 1 : 0,
    summary: {
      errors,
      warnings,
      infos: count('info'),
      marketsListed: input.marketsListed,
      marketsChecked: input.marketsChecked,
      requests: input.requests,
    },
    list: input.list,
    ...(input.probe ? { probe: input.probe } : {}),
    findings: input.findings,
    ...(input.distributions ? { distributions: input.distributions } : {}),
  };
}
