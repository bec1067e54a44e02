import type { ContractEndpoint } from '../checks/index.js';
import { DeploymentRefusal } from '../reports/index.js';
import { requestTarget, type DeploymentResponse } from '../http-client/index.js';
import type { BaseQuery } from '../http-client/index.js';
import { describeBody } from '../checks/index.js';
import { collectBodyText } from '../http-client/index.js';
import { shortenValue } from '../../floor/display-value.js';

/** Header names that carry a credential (RFC 9110 §11.6.2 Authorization, RFC 6265 Cookie, and the usual API-key and token names). */
const CREDENTIAL_NAME = /^(authorization|cookie)$|auth|token|api-?key|secret|session|signature|credential/i;

/**
 * Watches a crawl's answers for access refused to the checker: a 401 or 403 (RFC 9110 §15.5.2,
 * §15.5.4) to the first request of the run (the list), whatever its body and whether or not a
 * credential was given (an API gateway's `403 {"message":"Forbidden"}` for a missing key), or
 * one from the deployment's origin after earlier successful answers in the same run (a token that
 * expired mid-crawl, a session revoked). That is the checker's failure, not the deployment's
 * contract: the run stops as could-not-run (exit 2) naming the credential it sent (the `--header`
 * names, the secret parameters of the `--base-url` query), never its value, and what to do.
 */
export interface CredentialWatch {
  /** Looks at one answer to a request on `endpoint`. @throws DeploymentRefusal (a ContractRunError UNAUTHORIZED) when it is a refusal as described. */
  observe(response: DeploymentResponse, endpoint: ContractEndpoint): Promise<void>;
}

/** A watch for a crawl of `origin` with these request headers and this base query. */
export function watchCredentials(origin: string, headers: ReadonlyArray<readonly [string, string]>, query?: BaseQuery): CredentialWatch {
  const given = credentialsGiven(headers, query);
  let successes = 0;
  let answers = 0;
  return {
    async observe(response, endpoint) {
      const { status } = response;
      const first = answers++ === 0;
      if (status >= 200 && status < 300) successes++;
      if (status !== 401 && status !== 403) return;
      // The first answer refused: nothing can be judged. Later: only a refusal of what was sent to the origin.
      if (!first && !(response.url.origin === origin && (given.length > 0 || successes > 0))) return;
      const body = await bodyShape(response);
      const what = status === 401 ? '401 (Unauthorized)' : '403 (Forbidden)';
      const after = successes > 0 ? ` after ${successes} successful answer${successes === 1 ? '' : 's'}` : '';
      // What came from the deployment (the URL it answered at, its body's keys) is shortened here, so the sentence around it is shown whole (floor/display-value.ts displaySentence).
      const at = `${what} to GET ${shortenValue(requestTarget(response.url))}${after} (${shortenValue(body)})`;
      const tail = 'The report has this one finding: the others would be about access, not the contract.';
      let message: string;
      if (given.length > 0) message = `the deployment refused the credential given with ${given.join(', ')}: ${at}. It may be wrong, expired or lack access to this API; renew it and run again (its value is not shown). ${tail}`;
      else if (successes > 0) message = `the deployment started refusing requests: ${at}. It now asks for a credential; give one with --header (or MARKET_STUB_HEADER) or in the --base-url query. ${tail}`;
      else message = `the deployment refused access: ${at}, and the check sent no credential. Give the one it expects with --header "Name: value" (Authorization, X-Api-Key…; or MARKET_STUB_HEADER) or in the --base-url query (an api_key or key parameter; name other secret parameters with --redact-query). ${tail}`;
      throw new DeploymentRefusal('UNAUTHORIZED', message, 'access-refused', requestTarget(response.requested), endpoint);
    },
  };
}

/** How the credentials sent are named in messages: `--header X-Api-Key`, `the --base-url query parameter api_key` (the credential-like ones, else all). */
function credentialsGiven(headers: ReadonlyArray<readonly [string, string]>, query: BaseQuery | undefined): string[] {
  const names = headers.map(([name]) => name);
  const credentials = names.filter((name) => CREDENTIAL_NAME.test(name));
  const named = (credentials.length > 0 ? credentials : names).map((name) => `--header ${name}`);
  const params = query?.secretParams ?? [];
  if (params.length > 0) named.push(`the --base-url query parameter${params.length === 1 ? '' : 's'} ${params.join(', ')}`);
  return named;
}

/** The refusal's body in words (`a JSON object with keys message`: its keys, never its values). */
async function bodyShape(response: DeploymentResponse): Promise<string> {
  try {
    const preview = await collectBodyText(response.body, 4096);
    return describeBody(preview.text, response.contentType, preview.bytes);
  } catch {
    return 'its body could not be read';
  }
}
