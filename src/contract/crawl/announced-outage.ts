import type { ContractEndpoint } from '../checks/index.js';
import { DeploymentRefusal } from '../reports/index.js';
import { requestTarget, retryWait, type DeploymentResponse } from '../http-client/index.js';
// What came from the deployment (the URL it answered at, its Retry-After) is shortened in the sentence, which is then shown whole (floor/display-value.ts displaySentence).
import { shortenValue } from '../../floor/display-value.js';

/**
 * A 503 (Service Unavailable) whose `Retry-After` (RFC 9110 §10.2.3, §15.6.4) asks for a wait
 * longer than the run's cap (`--retry-after-max-ms`) is an announced outage (planned maintenance):
 * the deployment says it will not serve before then, so nothing it answers now can be judged.
 * The run stops as could-not-run (exit 2, code DEPLOYMENT_UNREACHABLE) naming the request, the announced
 * time and what to do, instead of reporting `retry-exhausted` contract errors for it. A 503
 * without Retry-After, or one within the cap, is retried as before.
 * @throws DeploymentRefusal (a ContractRunError DEPLOYMENT_UNREACHABLE) for such an answer (its body discarded first).
 */
export async function stopOnAnnouncedOutage(response: DeploymentResponse, endpoint: ContractEndpoint, capMs: number, now = Date.now()): Promise<void> {
  if (response.status !== 503) return;
  const header = response.headers['retry-after'];
  if (header === undefined || retryWait(header, 0, capMs).ms !== undefined) return;
  const waitMs = /^\s*\d+\s*$/.test(header) ? Number(header) * 1000 : Date.parse(header) - now;
  await response.discard();
  const until = new Date(now + waitMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  throw new DeploymentRefusal(
    'DEPLOYMENT_UNREACHABLE',
    `the deployment announced it is unavailable: 503 (Service Unavailable) to GET ${shortenValue(requestTarget(response.url))} with Retry-After: ${shortenValue(header.trim())}, ${formatWait(waitMs)} from now (until about ${until}), more than the ${formatWait(capMs)} the check waits (--retry-after-max-ms ${capMs}). Run the check again after that time, or raise --retry-after-max-ms to wait for it. The report has this one finding: the others would be about the outage, not the contract.`,
    'announced-outage',
    requestTarget(response.requested),
    endpoint,
  );
}

/** `45 s`, `60 min`, `3 h 20 min`. */
function formatWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 === 0 ? '' : ` ${minutes % 60} min`}`;
}
