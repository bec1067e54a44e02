import type { ContractEndpoint } from '../checks/index.js';
import { buildContractReport, type ContractReport, type ListSummary } from '../checks/index.js';
import { ContractRunError, type ContractRunErrorCode } from '../http-client/index.js';

/**
 * Why the deployment could not be judged: access refused (401/403), an announced outage (503 with
 * a Retry-After past the cap), content withheld for legal reasons (451, RFC 7725), a CDN's bot
 * challenge, or one of the checker's own limits reached (a body, a market, the page count, the
 * time of one answer, the rate-limit budget: never the deployment's contract).
 */
export type RefusalKind = 'access-refused' | 'announced-outage' | 'legal-block' | 'bot-challenge' | 'checker-limit';

/** What each kind of stop expected, for the could-not-run finding's `expected`. */
const EXPECTED: Readonly<Record<RefusalKind, string>> = {
  'access-refused': 'access to the deployment, to judge its contract',
  'announced-outage': 'a deployment in service, to judge its contract',
  'legal-block': 'content the deployment may serve to this client, to judge its contract',
  'bot-challenge': 'answers from the deployment itself, not a CDN\'s bot challenge, to judge its contract',
  'checker-limit': 'a run within the checker\'s own limits (options, not the contract)',
};

/**
 * The run stopped at one of the checker's own limits (one rule for all of them: exit 2, never a
 * contract finding): `flag` is the option that set it and `remedy` the value (or direction) that
 * would let the run finish (`--max-market-bytes 8388609 or more`).
 * @returns the DeploymentRefusal (code LIMIT_EXCEEDED, kind `checker-limit`) to throw.
 */
export function checkerLimit(what: string, flag: string, remedy: string, request: string, endpoint: ContractEndpoint): DeploymentRefusal {
  const message = `${what}: a limit of the checker (${flag}), not of the deployment's contract. To let the run finish, ${remedy}. The report has this one finding: the others would be about a run cut short.`;
  return new DeploymentRefusal('LIMIT_EXCEEDED', message, 'checker-limit', request, endpoint);
}

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
  const expected = EXPECTED[refusal.refusal];
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
