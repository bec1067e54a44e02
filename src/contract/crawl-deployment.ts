import { todayUtc, isCalendarDate } from '../core/market-rules.js';
import { mixSeed } from '../core/seed-mix.js';
import type { Market } from '../schema/market-types.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT, type Observation } from './contract-finding.js';
import { buildContractReport, type ContractReport, type ListSummary, type ProbeSummary } from './contract-report.js';
import { ContractRunError } from './contract-run-error.js';
import { displayBase, displayUrl, requestDeployment, requestTarget, RequestFailure, type DeploymentResponse, type RequestOptions } from './deployment-request.js';
import { createFindingAggregator } from './finding-aggregator.js';
import { findNextPage } from './list-envelope.js';
import { checkListResponse, checkSingleResponse, describeBody, parseJsonBody, type CheckContext, type ListedMarkets, type ResponseFacts } from './market-checks.js';

/** Options of a crawl; only `baseUrl` is required. */
export interface CrawlOptions {
  /** The deployment's base URL; `GET {base}/markets` is the list. Query and fragment are ignored. */
  baseUrl: string | URL;
  /** @default globalThis.fetch (Node's undici) */
  fetch?: typeof fetch;
  /** Headers sent on every request, e.g. `[['Authorization', 'Bearer …']]`. Their values never reach a report. */
  headers?: ReadonlyArray<readonly [string, string]>;
  /** Time limit per request, body included, in ms. @default 10000 */
  timeoutMs?: number;
  /** Listed markets requested one by one, spread evenly over the list. @default 50 */
  maxMarkets?: number;
  /** Request every listed market (overrides maxMarkets). @default false */
  all?: boolean;
  /** Single-market requests in flight at once. @default 4 */
  concurrency?: number;
  /** List pages followed at most. @default 1000 */
  maxPages?: number;
  /** Warnings fail the run too. @default false */
  strict?: boolean;
  /** Today's date YYYY-MM-DD (UTC) for the past-resolution-date rule. @default today */
  today?: string;
  /** Which command the report names. @default 'check' */
  command?: 'check' | 'record';
  /** Keep the valid single-market bodies (for record). @default false */
  collectMarkets?: boolean;
  /** Keep the invalid single-market answers (for record --keep-invalid). @default false */
  collectInvalid?: boolean;
  /** Aborting stops the crawl with a ContractRunError (code INTERRUPTED). */
  signal?: AbortSignal;
  /** Called as pages and markets are fetched (for a progress line). */
  onProgress?: (progress: CrawlProgress) => void;
}

/** Where a crawl is. */
export type CrawlProgress = { phase: 'list'; pages: number; listed: number } | { phase: 'markets'; done: number; total: number };

/** A single-market answer that `record` does not write as a fixture (written apart with --keep-invalid). */
export interface InvalidResponse {
  market_id: string;
  /** Path and query requested. */
  request: string;
  status?: number;
  content_type?: string;
  /** The body: parsed JSON when it is JSON, else its text. */
  body?: unknown;
  /** Why there was no answer, when there was none. */
  failure?: string;
}

/** A crawl's report, plus the markets it kept when asked to. */
export interface CrawlResult {
  report: ContractReport;
  /** Valid single-market bodies, as received, in list order (collectMarkets). */
  markets: Market[];
  /** Invalid single-market answers in list order (collectInvalid). */
  invalid: InvalidResponse[];
}

/** Defaults of the crawl options, as documented in docs/contract-check.md. */
export const CRAWL_DEFAULTS = { timeoutMs: 10_000, maxMarkets: 50, concurrency: 4, maxPages: 1000 } as const;

/** Seed of the unknown-id probe: the same probe path on every run, so runs compare. */
const PROBE_SEED = 20_260_101;

/**
 * Crawls a deployment and checks it against the contract: `GET {base}/markets` (following
 * pagination and redirects), then `GET {base}/markets/{id}` for a sample of listed ids (or all),
 * then one probe of an id that cannot exist (information only).
 *
 * Exit-code rules (docs/contract-check.md): the report's exitCode is 1 when there is an error
 * finding (or a warning with `strict`), else 0. A list that answers with a non-2xx status or a
 * non-JSON body is an error finding (the deployment answered; the contract is broken).
 * @throws ContractRunError `DEPLOYMENT_UNREACHABLE` when the first list request gets no HTTP
 *   answer (refused, DNS, TLS, timeout), `OPTION_INVALID` for a bad option, `INTERRUPTED` on abort.
 */
export async function crawlDeployment(options: CrawlOptions): Promise<CrawlResult> {
  const startedAt = new Date();
  const start = performance.now();
  const base = parseBaseUrl(options.baseUrl);
  const timeoutMs = positiveInteger(options.timeoutMs, CRAWL_DEFAULTS.timeoutMs, 'timeoutMs (--timeout-ms)');
  const maxMarkets = positiveInteger(options.maxMarkets, CRAWL_DEFAULTS.maxMarkets, 'maxMarkets (--max-markets)', 0);
  const concurrency = positiveInteger(options.concurrency, CRAWL_DEFAULTS.concurrency, 'concurrency (--concurrency)');
  const maxPages = positiveInteger(options.maxPages, CRAWL_DEFAULTS.maxPages, 'maxPages (--max-pages)');
  const today = options.today ?? todayUtc();
  if (!isCalendarDate(today)) throw new ContractRunError('OPTION_INVALID', `today must be a YYYY-MM-DD calendar date, found ${JSON.stringify(today)}.`);
  const sink = createFindingAggregator();
  const ctx: CheckContext = { sink, today };
  const signal = options.signal;
  const request: RequestOptions = {
    fetch: options.fetch ?? globalThis.fetch,
    headers: options.headers ?? [],
    timeoutMs,
    ...(signal ? { signal } : {}),
  };
  const get = async (url: URL): Promise<DeploymentResponse> => {
    if (signal?.aborted) throw interrupted();
    try {
      return await requestDeployment(url, request);
    } catch (error) {
      if (signal?.aborted) throw interrupted();
      throw error;
    }
  };
  const info = (observation: Omit<Observation, 'severity' | 'expected'> & { message: string }) => sink.add({ severity: 'info', expected: 'nothing in particular (information)', ...observation });
  let requests = 0;
  const secrets = request.headers.map(([, value]) => value).filter((value) => value.length >= 4);

  // 1. The list, page by page.
  const listUrl = marketsUrl(base);
  const listed: ListedMarkets = new Map();
  const seen = new Set<string>();
  const list: ListSummary = { shape: 'unavailable', pages: 0, paging: 'none', complete: true };
  const visited = new Set<string>([listUrl.href]);
  let listMs = 0;
  let url = listUrl;
  for (;;) {
    let response: DeploymentResponse;
    try {
      response = await get(url);
    } catch (error) {
      if (!(error instanceof RequestFailure)) throw error;
      if (list.pages === 0) throw new ContractRunError('DEPLOYMENT_UNREACHABLE', `cannot reach ${displayUrl(url)}: ${error.reason}. ${unreachableHint(error)}`);
      sink.add({ severity: 'error', code: 'request-failed', endpoint: LIST_ENDPOINT, pointerTemplate: '', expected: 'an answer to every list page', example: { pointer: '', found: error.reason, request: requestTarget(url) } });
      list.complete = false;
      break;
    }
    requests++;
    list.pages++;
    listMs += response.ms;
    if (list.pages === 1 && response.url.href !== url.href) {
      list.redirectedTo = displayUrl(response.url);
      info({ code: 'redirect', endpoint: LIST_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: list.redirectedTo, request: requestTarget(url) }, message: `${requestTarget(url)} was redirected to ${list.redirectedTo} (followed)` });
    }
    const page = checkListResponse(facts(response), ctx, listed, seen);
    options.onProgress?.({ phase: 'list', pages: list.pages, listed: listed.size });
    if (!page) {
      if (list.pages > 1) list.complete = false;
      break;
    }
    if (list.pages === 1) {
      list.shape = page.shape.kind;
      if (page.shape.kind === 'envelope') list.envelopeKey = page.shape.key;
      const found = page.shape.kind === 'array'
        ? 'a bare JSON array'
        : `an envelope: the array under ${JSON.stringify(page.shape.key)}${page.shape.otherKeys.length > 0 ? ` (other keys: ${page.shape.otherKeys.join(', ')})` : ''}`;
      info({ code: 'list-shape', endpoint: LIST_ENDPOINT, pointerTemplate: '', example: { pointer: '', found, request: requestTarget(url) }, message: `list shape: ${found}` });
    }
    const next = findNextPage(page.body, page.shape, response.headers.get('link'), response.url);
    if (!next) break;
    if (list.paging === 'none') list.paging = next.via;
    if (visited.has(next.url.href)) {
      sink.add({ severity: 'warning', code: 'cursor-loop', endpoint: LIST_ENDPOINT, pointerTemplate: '', expected: 'a next page that was not fetched before', example: { pointer: '', found: `next page ${requestTarget(next.url)} was already fetched`, request: requestTarget(response.url) } });
      list.complete = false;
      break;
    }
    if (list.pages >= maxPages) {
      info({ code: 'page-limit', endpoint: LIST_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: `${list.pages} pages`, request: requestTarget(next.url) }, message: `stopped after ${list.pages} pages (--max-pages ${maxPages}); later pages were not checked` });
      list.complete = false;
      break;
    }
    visited.add(next.url.href);
    url = next.url;
  }
  if (list.pages > 0 && list.shape !== 'unavailable') {
    const via = list.paging === 'none' ? 'no paging signalled' : list.paging === 'link' ? 'followed Link rel="next"' : `followed the ${JSON.stringify(list.paging)} field`;
    info({ code: 'paging', endpoint: LIST_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: `${list.pages} page${list.pages === 1 ? '' : 's'}, ${via}` }, message: `paging: ${list.pages} page${list.pages === 1 ? '' : 's'}, ${via}; ${listed.size} markets listed in ${Math.round(listMs)} ms` });
  }

  // 2. Single markets, a sample spread over the list (or all of them).
  const ids = [...listed.keys()];
  const sample = options.all ? ids : spreadSample(ids, maxMarkets);
  const valid = options.collectMarkets ? new Map<string, Market>() : undefined;
  const invalid = options.collectInvalid ? new Map<string, InvalidResponse>() : undefined;
  const durations: number[] = [];
  let done = 0;
  await forEachConcurrent(sample, concurrency, async (id) => {
    const target = singleUrl(base, id);
    let response: DeploymentResponse;
    try {
      response = await get(target);
    } catch (error) {
      if (!(error instanceof RequestFailure)) throw error;
      sink.add({ severity: 'error', code: 'request-failed', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', expected: 'an answer for the listed market', example: { marketId: id, pointer: '', found: error.reason, request: requestTarget(target) } });
      invalid?.set(id, { market_id: id, request: requestTarget(target), failure: error.reason });
      return;
    } finally {
      options.onProgress?.({ phase: 'markets', done: ++done, total: sample.length });
    }
    requests++;
    durations.push(response.ms);
    const market = checkSingleResponse(facts(response), id, listed.get(id), ctx);
    if (market && valid && echoesSecret(market, secrets)) {
      // A body that echoes a --header value (a token) must never become a fixture.
      sink.add({ severity: 'warning', code: 'header-echo', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', expected: 'a body that does not contain a --header value (not recorded)', example: { marketId: id, pointer: '', found: 'a --header value ([redacted])', request: requestTarget(target) } });
      invalid?.set(id, { market_id: id, request: requestTarget(target), status: response.status, failure: 'not kept: the body contains a --header value' });
    } else if (market) {
      valid?.set(id, market);
    } else {
      invalid?.set(id, invalidResponse(id, response));
    }
  });
  if (sample.length > 0) {
    durations.sort((a, b) => a - b);
    const median = durations[Math.floor(durations.length / 2)] ?? 0;
    const slowest = durations[durations.length - 1] ?? 0;
    info({ code: 'timing', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: `${durations.length} answers, median ${median.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms` }, message: `${durations.length} single-market answers: median ${median.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms (concurrency ${concurrency})` });
  }
  if (ids.length > 0) {
    const how = options.all ? '--all' : sample.length < ids.length ? `--max-markets ${maxMarkets}, spread over the list; --all checks every one` : 'every listed market';
    info({ code: 'sample', endpoint: 'deployment', pointerTemplate: '', example: { pointer: '', found: `${sample.length} of ${ids.length}` }, message: `requested ${sample.length} of ${ids.length} listed markets one by one (${how})` });
  }

  // 3. An id that cannot exist: what the deployment answers is undocumented, so it is information only.
  const probe = await probeUnknownId(base, listed, get);
  if (probe.status !== undefined) requests++;
  const answer = probe.failure ?? `${probe.status} ${probe.contentType ?? 'no Content-Type'}, ${probe.body}`;
  info({ code: 'unknown-id-probe', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: answer, request: probe.request }, message: `an unknown id (${probe.request}) answers: ${answer}` });

  const report = buildContractReport({
    command: options.command ?? 'check',
    baseUrl: displayBase(base),
    startedAt,
    durationMs: performance.now() - start,
    strict: options.strict ?? false,
    list,
    probe,
    findings: sink.findings(),
    marketsListed: listed.size,
    marketsChecked: sample.length,
    requests,
  });
  return {
    report,
    markets: valid ? sample.flatMap((id) => valid.get(id) ?? []) : [],
    invalid: invalid ? sample.flatMap((id) => invalid.get(id) ?? []) : [],
  };
}

/**
 * Checks a deployment against the contract and returns the report (see crawlDeployment for the
 * crawl, docs/contract-check.md for the report shape and finding codes).
 * @throws ContractRunError when the check cannot run (exit code 2).
 */
export async function checkDeployment(options: Omit<CrawlOptions, 'collectMarkets' | 'collectInvalid' | 'command'>): Promise<ContractReport> {
  return (await crawlDeployment(options)).report;
}

/** `{base}/markets`: the base URL's path with any trailing slash removed, plus `/markets`. */
export function marketsUrl(base: URL): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/markets`;
  url.search = '';
  url.hash = '';
  return url;
}

/** `{base}/markets/{id}` with the id percent-encoded as one path segment (RFC 3986 §3.3). */
export function singleUrl(base: URL, id: string): URL {
  const url = marketsUrl(base);
  url.pathname = `${url.pathname}/${encodeURIComponent(id)}`;
  return url;
}

/**
 * Parses a base URL for a crawl or proxy.
 * @throws ContractRunError OPTION_INVALID when it is not an absolute http(s) URL or carries a user name or password.
 */
export function parseBaseUrl(value: string | URL): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ContractRunError('OPTION_INVALID', `${JSON.stringify(String(value))} is not an absolute URL; give one like http://127.0.0.1:4010.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ContractRunError('OPTION_INVALID', `${url.protocol} URLs are not supported; give an http:// or https:// URL.`);
  if (url.username || url.password) throw new ContractRunError('OPTION_INVALID', `the URL carries a user name or password, which fetch refuses to send; pass credentials with --header "Authorization: …" instead.`);
  return url;
}

/** `count` ids spread evenly over the list (first, …, near the last), in list order. */
export function spreadSample<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  const picked: T[] = [];
  for (let k = 0; k < count; k++) picked.push(items[Math.floor((k * items.length) / count)] as T);
  return picked;
}

async function forEachConcurrent<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function probeUnknownId(base: URL, listed: ListedMarkets, get: (url: URL) => Promise<DeploymentResponse>): Promise<ProbeSummary> {
  let id = '';
  for (let attempt = 0; id === '' || listed.has(id); attempt++) id = `market-stub-probe-${mixSeed(PROBE_SEED, attempt).toString(36)}`;
  const url = singleUrl(base, id);
  try {
    const response = await get(url);
    return { request: requestTarget(url), status: response.status, ...(response.contentType ? { contentType: response.contentType } : {}), body: describeBody(response.text, response.contentType) };
  } catch (error) {
    if (!(error instanceof RequestFailure)) throw error;
    return { request: requestTarget(url), failure: `no answer: ${error.reason}` };
  }
}

/** True when the market's JSON text holds one of the secrets (raw or JSON-escaped). */
function echoesSecret(market: Market, secrets: readonly string[]): boolean {
  if (secrets.length === 0) return false;
  const text = JSON.stringify(market);
  return secrets.some((secret) => text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)));
}

function facts(response: DeploymentResponse): ResponseFacts {
  return { request: requestTarget(response.requested), status: response.status, contentType: response.contentType, text: response.text };
}

function invalidResponse(id: string, response: DeploymentResponse): InvalidResponse {
  const parsed = parseJsonBody(response.text);
  return {
    market_id: id,
    request: requestTarget(response.requested),
    status: response.status,
    ...(response.contentType ? { content_type: response.contentType } : {}),
    body: parsed.ok ? parsed.value : response.text,
  };
}

function positiveInteger(value: number | undefined, fallback: number, name: string, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) throw new ContractRunError('OPTION_INVALID', `${name} must be an integer ≥ ${min}, found ${JSON.stringify(value)}.`);
  return value;
}

function unreachableHint(failure: RequestFailure): string {
  switch (failure.kind) {
    case 'timeout': return 'Raise --timeout-ms or check that the service answers.';
    case 'dns': return 'Check the host name in --base-url.';
    case 'tls': return 'Check the certificate the service presents, or use the right scheme (http:// or https://) in --base-url.';
    default: return 'Check --base-url and that the service is running.';
  }
}

function interrupted(): ContractRunError {
  return new ContractRunError('INTERRUPTED', 'interrupted before the crawl finished; no report was written.');
}
