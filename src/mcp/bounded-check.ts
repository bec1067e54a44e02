import { baseUrlSecrets, checkDeployment, formatContractReport, MARKDOWN_MAX_CHARS } from '../contract/index.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import { MAX_MCP_CHECK } from '../floor/limits.js';

/** What the MCP `check` tool answers: the report as markdown (secrets of the URL redacted) and its verdict and counts. */
export interface BoundedCheck {
  markdown: string;
  summary: { verdict: 'pass' | 'fail'; errors: number; warnings: number; marketsChecked: number; baseUrl: string };
}

/**
 * A short contract check of `baseUrl` for the MCP `check` tool: the library's checkDeployment
 * (src/contract/crawl/crawl-deployment.ts) with small bounds (MAX_MCP_CHECK: a few list pages, at
 * most 20 markets, 5 s a request, no retries, 30 s in all), its report as markdown
 * (docs/reports.md) with the URL's secret query values redacted.
 * At the bound the crawl is stopped too (its requests aborted through checkDeployment's `signal`),
 * not left to run on until its own request timeouts. `totalMs`: the bound (tests shorten it).
 * @throws MarketStubError OPTION_INVALID for a bad URL or count, ContractRunError when the check
 * cannot run, LIMIT_EXCEEDED after `totalMs`.
 */
export async function boundedCheck(baseUrl: string, maxMarkets: number, totalMs: number = MAX_MCP_CHECK.totalMs): Promise<BoundedCheck> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = new AbortController();
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const late = new MarketStubError({ code: 'LIMIT_EXCEEDED', where: 'tool check', message: `tool check: the check took longer than ${totalMs} ms (the MCP check's bound, docs/limits.md); run \`market-stub check --base-url …\` for a full one` });
      stop.abort(late);
      reject(late);
    }, totalMs);
  });
  try {
    const report = await Promise.race([
      checkDeployment({ baseUrl, maxMarkets, maxPages: MAX_MCP_CHECK.pages, timeoutMs: MAX_MCP_CHECK.requestTimeoutMs, retries: 0, retryAfterMaxMs: 1_000, concurrency: 4, signal: stop.signal }),
      deadline,
    ]);
    const markdown = formatContractReport(report, 'markdown', { secrets: baseUrlSecrets(baseUrl) });
    const { errors, warnings, marketsChecked } = report.summary;
    return { markdown: markdown.slice(0, MARKDOWN_MAX_CHARS), summary: { verdict: report.verdict, errors, warnings, marketsChecked, baseUrl: report.baseUrl } };
  } finally {
    clearTimeout(timer);
  }
}
