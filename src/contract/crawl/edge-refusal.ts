import type { ContractEndpoint } from '../checks/index.js';
import { DeploymentRefusal } from '../reports/index.js';
import { parseLinkHeader } from '../paging/index.js';
import { requestTarget, resolveHttpUrl, type DeploymentResponse } from '../http-client/index.js';
// What came from the deployment (its URL, a Link target) is shortened in the sentence, which is then shown whole (floor/display-value.ts displaySentence).
import { shortenValue } from '../../floor/display-value.js';

/** Bytes of an HTML answer looked at for a challenge page's markers. */
const CHALLENGE_PEEK_BYTES = 16_384;

/**
 * Markers of a CDN's or WAF's bot challenge (a page for a browser to solve, not the deployment's
 * answer), as the vendors document them: Cloudflare's `cf-mitigated: challenge` response header
 * and its challenge pages (`/cdn-cgi/challenge-platform/`, `window._cf_chl_opt`, "Just a
 * moment..."), AWS WAF's `x-amzn-waf-action: challenge|captcha`, Akamai Bot Manager's
 * `akamai-bm-telemetry`/`_abck` challenge scripts and its "Access Denied … Reference #" edge page,
 * DataDome's `x-datadome` header with its captcha page.
 */
const CHALLENGE_HEADERS: ReadonlyArray<{ name: string; value: RegExp; vendor: string }> = [
  { name: 'cf-mitigated', value: /challenge/i, vendor: 'Cloudflare' },
  { name: 'x-amzn-waf-action', value: /challenge|captcha/i, vendor: 'AWS WAF' },
  { name: 'x-datadome', value: /./, vendor: 'DataDome' },
];
const CHALLENGE_PAGES: ReadonlyArray<{ marker: RegExp; vendor: string }> = [
  { marker: /\/cdn-cgi\/challenge-platform\/|_cf_chl_opt|<title>Just a moment\.\.\.<\/title>|Attention Required! \| Cloudflare/i, vendor: 'Cloudflare' },
  { marker: /akamai-bm-telemetry|_abck|errors\.edgesuite\.net|<title>Access Denied<\/title>[\s\S]*Reference #\d/i, vendor: 'Akamai' },
  { marker: /captcha-delivery\.com|geo\.captcha-delivery/i, vendor: 'DataDome' },
];

/** Statuses a CDN challenge comes with (403 Forbidden, 429 Too Many Requests, 503 Service Unavailable). */
const CHALLENGE_STATUSES: ReadonlySet<number> = new Set([403, 429, 503]);

/**
 * Watches a crawl's answers for refusals that are not about a credential, anywhere in the run:
 * - 451 (Unavailable For Legal Reasons, RFC 7725 §3): the content is withheld from this client for
 *   legal reasons; `Link: <…>; rel="blocked-by"` (RFC 7725 §4) names who asked for the block;
 * - a CDN's bot challenge (CHALLENGE_HEADERS, CHALLENGE_PAGES) answering in the deployment's place.
 * Neither says anything about the contract: the run stops as could-not-run (exit 2), naming the
 * answer and what to do. An answer that is neither is returned to be judged, its body whole
 * (the bytes looked at are put back in front of the rest).
 * @throws DeploymentRefusal DEPLOYMENT_UNREACHABLE (kind `legal-block` or `bot-challenge`).
 */
export async function stopOnEdgeRefusal(response: DeploymentResponse, endpoint: ContractEndpoint): Promise<void> {
  if (response.status === 451) {
    await response.discard();
    throw legalBlock(response, endpoint);
  }
  if (!CHALLENGE_STATUSES.has(response.status)) return;
  const byHeader = CHALLENGE_HEADERS.find((h) => { const v = response.headers[h.name]; return v !== undefined && h.value.test(v); });
  if (byHeader) {
    await response.discard();
    throw botChallenge(response, endpoint, `${byHeader.vendor} (${byHeader.name}: ${shortenValue(response.headers[byHeader.name] ?? '')})`);
  }
  if (!/^text\/html\b/i.test(response.contentType ?? '')) return;
  const head = await peekBody(response, CHALLENGE_PEEK_BYTES);
  const byPage = CHALLENGE_PAGES.find((p) => p.marker.test(head));
  if (byPage) {
    await response.discard();
    throw botChallenge(response, endpoint, `${byPage.vendor} (its challenge page, ${response.contentType ?? 'text/html'})`);
  }
}

function legalBlock(response: DeploymentResponse, endpoint: ContractEndpoint): DeploymentRefusal {
  const blockedBy = parseLinkHeader(response.headers['link'] ?? '').find((link) => /(^|\s)blocked-by(\s|$)/i.test(link.params['rel'] ?? ''));
  const by = blockedBy ? resolveHttpUrl(blockedBy.target, response.url)?.href ?? blockedBy.target : undefined;
  const who = by === undefined ? ' (no Link rel="blocked-by" names who asked for the block)' : `; blocked by ${shortenValue(by)} (Link rel="blocked-by", RFC 7725 §4)`;
  return new DeploymentRefusal(
    'DEPLOYMENT_UNREACHABLE',
    `the deployment withholds its content for legal reasons: 451 (Unavailable For Legal Reasons, RFC 7725) to GET ${shortenValue(requestTarget(response.url))}${who}. Nothing it withholds can be judged from here: run the check from where the content is served (another network or region, --proxy), or ask the deployment's operator. The report has this one finding: the others would be about the block, not the contract.`,
    'legal-block',
    requestTarget(response.requested),
    endpoint,
  );
}

function botChallenge(response: DeploymentResponse, endpoint: ContractEndpoint, vendor: string): DeploymentRefusal {
  return new DeploymentRefusal(
    'DEPLOYMENT_UNREACHABLE',
    `a CDN bot challenge answered instead of the deployment: ${response.status} to GET ${shortenValue(requestTarget(response.url))} is a challenge by ${vendor}, a page for a browser to solve. The checker does not solve challenges: allow it through (a WAF rule that skips the challenge for its User-Agent "market-stub/…" or its address, or a token the CDN honours, given with --header), lower --concurrency if the challenge came mid-crawl, or check the origin behind the CDN. The report has this one finding: the others would be about the challenge, not the contract.`,
    'bot-challenge',
    requestTarget(response.requested),
    endpoint,
  );
}

/**
 * The first `max` bytes of a body as text, put back: the response's body then yields them again
 * before the rest, so whoever reads it next sees the whole body.
 */
async function peekBody(response: DeploymentResponse, max: number): Promise<string> {
  const iterator = response.body[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let bytes = 0;
  let ended = false;
  while (bytes < max) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    bytes += next.value.length;
  }
  async function* replay(): AsyncGenerator<Buffer> {
    yield* head;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  Object.defineProperty(response, 'body', { value: replay(), configurable: true, enumerable: true });
  return Buffer.concat(head).toString('latin1');
}
