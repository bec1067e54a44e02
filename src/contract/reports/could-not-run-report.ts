import type { ContractEndpoint } from '../checks/index.js';
import { buildContractReport, type ContractReport, type ListSummary } from '../checks/index.js';
import { ContractRunError, type ContractRunErrorCode } from '../http-client/index.js';

/** Why the deployment would not be judged: access refused (401/403), or an announced outage (503 with a Retry-After past the cap). */
export type RefusalKind = 'access-refused' | 'announced-outage';

/**
 * The deployment answered, but with a refusal to be looked at now (credential-refusal.ts,
 * announced-outage.ts): the check could not run (exit 2), and, unlike a deployment that could
 * not be reached, there is something to report: the request and the deployment's answer, named
 * as one error finding `could-not-run` in a report of every format (`report`, set by the crawl).
 */
export class DeploymentRefusal extends ContractRunError {
  /** The could-not-run report, once the crawl has built it (redacted like every report). */
  report?: ContractReport;

  constructor(code: ContractRunErrorCode, message: string, readonly refusal: RefusalKind, readonly request: string, readonly endpoint: ContractEndpoint) {
    // Named ContractRunError still: callers tell could-not-run errors apart by name and code.
    super(code, message);
  }
}

/** What the could-not-run report says about the run besides the refusal. */
export interface RefusalRun {
  command: ContractReport['command'];
  /** The base URL as reports show it (secret query values redacted). */
  baseUrl: string;
  startedAt: Date;
  durationMs: number;
  strict: boolean;
  list: ListSummary;
  marketsListed: number;
  requests: number;
}

/**
 * The report of a run stopped by a refusal: verdict `fail`, exit code 2, and one error finding
 * `could-not-run` on the endpoint that answered, whose `found` is the one sentence (cause, request,
 * what to do) the CLI also prints on stderr.
 */
export function refusalReport(refusal: DeploymentRefusal, run: RefusalRun): ContractReport {
  const expected = refusal.refusal === 'access-refused' ? 'access to the deployment, to judge its contract' : 'a deployment in service, to judge its contract';
  const report = buildContractReport({
    ...run,
    marketsChecked: 0,
    findings: [{
      severity: 'error', code: 'could-not-run', endpoint: refusal.endpoint, pointer: '', expected, found: refusal.message, message: `the check could not run: ${refusal.message}`, count: 1,
      examples: [{ pointer: '', found: refusal.message, request: refusal.request }],
    }],
  });
  return { ...report, exitCode: 2 };
}
