import { ContractRunError } from './contract-run-error.js';
import { requestTarget, type DeploymentResponse } from './deployment-client.js';

/** Header names that carry a credential (RFC 9110 §11.6.2 Authorization, RFC 6265 Cookie, and the usual API-key and token names). */
const CREDENTIAL_NAME = /^(authorization|cookie)$|auth|token|api-?key|secret|session|signature|credential/i;

/**
 * Watches a crawl's answers for the checker's own credential being refused: a 401 or 403
 * (RFC 9110 §15.5.2, §15.5.4) from the deployment's origin after a credential was given with
 * `--header`, or after earlier successful answers in the same run (a token that expired
 * mid-crawl, a session revoked). That is the checker's failure, not the deployment's contract:
 * the run stops as could-not-run (exit 2) naming the header, never its value.
 */
export interface CredentialWatch {
  /** Looks at one answer. @throws ContractRunError UNAUTHORIZED when it is a refusal as described. */
  observe(response: DeploymentResponse): Promise<void>;
}

/** A watch for a crawl of `origin` with these request headers. */
export function watchCredentials(origin: string, headers: ReadonlyArray<readonly [string, string]>): CredentialWatch {
  const names = headers.map(([name]) => name);
  const credentials = names.filter((name) => CREDENTIAL_NAME.test(name));
  const named = credentials.length > 0 ? credentials : names;
  let successes = 0;
  return {
    async observe(response) {
      const { status } = response;
      if (status >= 200 && status < 300) {
        successes++;
        return;
      }
      if ((status !== 401 && status !== 403) || response.url.origin !== origin || (named.length === 0 && successes === 0)) return;
      await response.discard();
      const what = status === 401 ? '401 (Unauthorized)' : '403 (Forbidden)';
      const after = successes > 0 ? ` after ${successes} successful answer${successes === 1 ? '' : 's'}` : '';
      const at = `${what} to GET ${requestTarget(response.url)}${after}`;
      const message = named.length > 0
        ? `the deployment refused the credential given with --header ${named.join(', --header ')}: ${at}. It may have expired or lack access; renew it and run again (its value is not shown). No report was written: the findings would be about the credential, not the contract.`
        : `the deployment started refusing requests: ${at}. It now asks for a credential; give one with --header (or MARKET_STUB_HEADER). No report was written.`;
      throw new ContractRunError('UNAUTHORIZED', message);
    },
  };
}
