import type { Market } from '../../schema/generated/market-types.js';
import { collectBodyText } from '../http-client/index.js';
import { SINGLE_ENDPOINT } from '../checks/index.js';
import { buildContractReport, type ContractReport } from '../checks/index.js';
import { crawlList } from './crawl-list.js';
import { resolveCrawlSettings, singleUrl, type CrawlOptions } from './crawl-settings.js';
import { IN_FLIGHT_MARKET_BYTES } from '../../floor/crawl-limits.js';
import { createCrawlState, failureCode, limitReached, type CrawlState } from './crawl-state.js';
import { displayBase, formatBytes, requestTarget, RequestFailure, type DeploymentResponse } from '../http-client/index.js';
import { fixtureText } from '../../catalog/fixture-text.js';
import { checkEncoding, checkSingleBody, checkStatus } from '../checks/index.js';
import { parseJsonBody } from '../checks/index.js';
import { checkUtf8, notRecordedObservation } from '../checks/index.js';
import { probeUnknownId } from './probe-unknown-id.js';
import { delistedSince } from './delisted-recheck.js';
import { describeEventStream, isEventStreamType } from './event-stream.js';
import { DeploymentRefusal, refusalReport } from '../reports/index.js';
import { buildDistributions } from '../checks/index.js';
import { redactQueryValues } from '../../floor/secret-names.js';
import { answerFacts } from './crawl-observer.js';
import { fnv1a } from '../../floor/text-hash.js';
import { ContractRunError } from '../http-client/index.js';
import { noteCookies, runRedactor } from './run-secrets.js';

export { CRAWL_DEFAULTS, CRAWL_LIMITS, marketsUrl, singleUrl, resolveCrawlSettings, type CrawlOptions, type CrawlProgress, type CrawlSettings } from './crawl-settings.js';

/** A single-market answer that `record` does not write as a fixture (written apart with --keep-invalid). */
export interface InvalidResponse {
  market_id: string;
  /** Path and query requested. */
  request: string;
  status?: number;
  content_type?: string;
  /** The body: parsed JSON when it is JSON, else its text (secrets redacted). */
  body?: unknown;
  /** Why there was no answer, when there was none. */
  failure?: string;
}

/** A crawl's report, plus the markets it kept when asked to. */
export interface CrawlResult {
  report: ContractReport;
  /** Valid single-market bodies, as received, in list order (collectMarkets). */
  markets: Market[];
  /** Ids of the valid markets put into the spool, in list order (spool). */
  spooled: string[];
  /** Invalid single-market answers in list order (collectInvalid). */
  invalid: InvalidResponse[];
}

/**
 * Crawls a deployment and checks it against the contract, in stages: the list (pages, streamed
 * and checked item by item) → a sample of single markets (or all) → one probe of an id that cannot
 * exist (information only). HTTP as deployments speak it: keep-alive connections, gzip and br,
 * redirects followed by hand (the headers stay on their origin), 429/503 retried as Retry-After
 * says, a dropped idle connection retried once; bodies bounded by `maxBodyMb`.
 *
 * Exit-code rules (docs/contract-check.md): the report's exitCode is 1 when there is an error
 * finding (or a warning with `strict`), else 0. Secrets (the header values) are redacted from the
 * report in every form (floor/redact-secrets.ts).
 * @throws ContractRunError `DEPLOYMENT_UNREACHABLE` when the first list request gets no HTTP
 *   answer; DeploymentRefusal (`UNAUTHORIZED`, `DEPLOYMENT_UNREACHABLE`, `LIMIT_EXCEEDED`) carrying its could-not-run
 *   `report` when the deployment refuses access or announces an outage, or the run reaches one of the checker's own limits
 *   (a body past maxBodyMb or maxMarketBytes, maxPages, timeoutMs, the rate-limit budget: crawl-state.ts limitReached), `OPTION_INVALID` for a bad
 *   option (or a base URL ending in /markets that answers 404), `INTERRUPTED` on abort.
 */
export async function crawlDeployment(options: CrawlOptions): Promise<CrawlResult> {
  const startedAt = new Date();
  const start = performance.now();
  const settings = resolveCrawlSettings(options);
  const state = createCrawlState(options, settings);
  const baseUrl = displayBase(withoutQuery(settings.base));
  noteBaseQuery(state);
  const redact = <T>(value: T): T => redactQueryValues(runRedactor(state).redactValue(value), settings.baseQuery.names);
  try {
    const list = await crawlList(state);
    options.observer?.listed?.(state.listed, list.complete);
    const listMs = performance.now() - start;
    const singlesStart = performance.now();
    const singles = await crawlMarkets(state, options);
    const marketsMs = performance.now() - singlesStart;
    const probe = await probeUnknownId(state);
    noteCookies(state);
    const report = buildContractReport({
      command: options.command ?? 'check',
      baseUrl,
      startedAt,
      durationMs: performance.now() - start,
      timing: { listMs, marketsMs },
      strict: options.strict ?? false,
      list,
      probe,
      findings: state.sink.findings(),
      distributions: buildDistributions(state.listed.pricePairs(), state.times),
      marketsListed: state.listed.size,
      marketsChecked: singles.checked,
      requests: state.requests,
    });
    return { report: redact(report), markets: singles.markets, spooled: singles.spooled, invalid: redact(singles.invalid) };
  } catch (error) {
    // Requests still in flight (other single markets) end now: the run's outcome is decided.
    state.halt.abort(error);
    // The sentence printed on stderr: a cookie value the deployment set is a secret like a --header value.
    if (error instanceof ContractRunError) error.message = redact(error.message);
    if (error instanceof DeploymentRefusal) {
      const list = { shape: 'unavailable' as const, pages: 0, paging: 'none', complete: false };
      error.report = redact(refusalReport(error, { command: options.command ?? 'check', baseUrl, startedAt, durationMs: performance.now() - start, strict: options.strict ?? false, list, marketsListed: state.listed.size, requests: state.requests + 1 }));
    }
    throw error;
  } finally {
    await state.client.close();
  }
}

/** `url` without its query and fragment: the report's `baseUrl` (the query is named apart, noteBaseQuery). */
function withoutQuery(url: URL): URL {
  const copy = new URL(url);
  copy.search = '';
  copy.hash = '';
  return copy;
}

/** An information finding `base-query` naming the --base-url query sent on every request, secret values redacted. */
function noteBaseQuery(state: CrawlState): void {
  const { base, baseQuery } = state.settings;
  if (baseQuery.params.length === 0) return;
  const shown = baseQuery.names.redactQuery(base.search.replace(/^\?/, ''));
  state.info({ code: 'base-query', endpoint: 'deployment', pointerTemplate: '', example: { pointer: '', found: shown }, message: `the --base-url query is sent on every request to ${base.origin}: ${shown}` });
}

/**
 * Checks a deployment against the contract and returns the report (see crawlDeployment for the
 * crawl, docs/contract-check.md for the report shape and finding codes).
 * @throws ContractRunError when the check cannot run (exit code 2).
 */
export async function checkDeployment(options: Omit<CrawlOptions, 'collectMarkets' | 'collectInvalid' | 'command' | 'spool'>): Promise<ContractReport> {
  return (await crawlDeployment(options)).report;
}

/** Stage 2: single markets, a sample spread over the list (or all of them), `concurrency` at a time. */
async function crawlMarkets(state: CrawlState, options: CrawlOptions): Promise<{ checked: number; markets: Market[]; spooled: string[]; invalid: InvalidResponse[] }> {
  const listed = state.listed.size;
  const sample = options.all ? { length: listed, at: (k: number) => state.listed.idAt(k) } : sampleOf(state, state.settings.maxMarkets);
  const valid = options.collectMarkets ? new Map<string, Market>() : undefined;
  const spooled = options.spool ? new Set<string>() : undefined;
  const invalid = options.collectInvalid ? new Map<string, InvalidResponse>() : undefined;
  const durations: number[] = [];
  let done = 0;
  await forEachConcurrent(sample, state.settings.marketConcurrency, state.halt.signal, async (id) => {
    try {
      const outcome = await checkOneMarket(state, id);
      if (outcome.ms !== undefined) durations.push(outcome.ms);
      if (outcome.market) {
        valid?.set(id, outcome.market);
        if (options.spool && spooled) {
          await options.spool.put(id, fixtureText(outcome.market));
          spooled.add(id);
        }
      } else if (outcome.invalid) {
        invalid?.set(id, outcome.invalid);
      }
    } finally {
      state.onProgress?.({ phase: 'markets', done: ++done, total: sample.length });
    }
  });
  if (sample.length > 0) {
    durations.sort((a, b) => a - b);
    const median = durations[Math.floor(durations.length / 2)] ?? 0;
    const slowest = durations[durations.length - 1] ?? 0;
    state.info({ code: 'timing', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: `${durations.length} answers, median ${median.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms` }, message: `${durations.length} single-market answers: median ${median.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms (concurrency ${concurrencyText(state)})` });
  }
  if (listed > 0) {
    const how = options.all ? '--all' : sample.length < listed ? `--max-markets ${state.settings.maxMarkets}, spread over the list; --all checks every one` : 'every listed market';
    state.info({ code: 'sample', endpoint: 'deployment', pointerTemplate: '', example: { pointer: '', found: `${sample.length} of ${listed}` }, message: `requested ${sample.length} of ${listed} listed markets one by one (${how})` });
  }
  // In list order; only the kept ones are looked up again.
  const inOrder = <T>(kept: Map<string, T> | Set<string> | undefined, pick: (id: string) => T | undefined): T[] => {
    if (!kept || kept.size === 0) return [];
    const out: T[] = [];
    for (let k = 0; k < sample.length; k++) {
      const value = pick(sample.at(k));
      if (value !== undefined) out.push(value);
    }
    return out;
  };
  return {
    checked: sample.length,
    markets: inOrder(valid, (id) => valid?.get(id)),
    spooled: inOrder(spooled, (id) => (spooled?.has(id) ? id : undefined)),
    invalid: inOrder(invalid, (id) => invalid?.get(id)),
  };
}

/** The limit of one single-market body: --max-market-bytes, or --max-body-mb when that is not larger (the client stops there first). */
function marketBodyLimit(settings: CrawlState['settings']): { bytes: number; flag: string } {
  return settings.maxMarketBytes < settings.maxBodyBytes ? { bytes: settings.maxMarketBytes, flag: '--max-market-bytes' } : { bytes: settings.maxBodyBytes, flag: '--max-body-mb' };
}

/**
 * `8`; `4 (of --concurrency 32: 64 MiB of market bodies in flight at most, …)` when the byte budget
 * lowered it; `…, lowered to 1 on 429s` when the deployment's rate limit brought the pace down
 * (deployment-client.ts).
 */
function concurrencyText(state: CrawlState): string {
  const { settings } = state;
  const base = settings.marketConcurrency === settings.concurrency ? String(settings.concurrency) : `${settings.marketConcurrency} (of --concurrency ${settings.concurrency}: ${formatBytes(IN_FLIGHT_MARKET_BYTES)} of market bodies in flight at most, ${formatBytes(settings.maxMarketBytes)} each)`;
  const lowest = state.client.lowestConcurrency;
  return lowest < settings.concurrency ? `${base}, lowered to ${lowest} on 429s` : base;
}

/** The Content-Length of an answer sent without a content coding (then the decoded size too), else undefined. */
function declaredLength(response: DeploymentResponse): number | undefined {
  const coding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const length = response.headers['content-length'];
  return (coding === '' || coding === 'identity') && length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
}

/** A body's chunks, stopped with a RequestFailure (`limit`) past `limit.bytes`: nothing past the limit is read or kept. */
async function* bounded(chunks: AsyncIterable<Uint8Array>, limit: { bytes: number; flag: string }, url: URL): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (bytes > limit.bytes) throw new RequestFailure(url, `the single-market body is larger than the limit of ${formatBytes(limit.bytes)} (${limit.flag}; decompressed bytes count); read no further`, 'limit');
    yield chunk;
  }
}

/** One `GET /markets/{id}`: answer, body (bounded), checks; a market echoing a header value is never kept. */
async function checkOneMarket(state: CrawlState, id: string): Promise<{ market?: Market; invalid?: InvalidResponse; ms?: number }> {
  // No URL carries the segments "." and ".." (RFC 3986 §5.2.4): asking would reach another route.
  // The list's `dot-segment-id` error already reports such an id.
  if (id === '.' || id === '..') return {};
  const target = singleUrl(state.settings.base, id);
  const request = requestTarget(target);
  const limit = marketBodyLimit(state.settings);
  const failed = (error: RequestFailure, declared?: number) => {
    const stop = limitReached(state, error, SINGLE_ENDPOINT, limit, declared);
    if (stop) throw stop;
    state.sink.add({ severity: 'error', code: failureCode(error), endpoint: SINGLE_ENDPOINT, pointerTemplate: '', expected: 'an answer for the listed market', example: { marketId: id, pointer: '', found: error.reason, request } });
    return { invalid: { market_id: id, request, failure: error.reason } };
  };
  let response: DeploymentResponse;
  try {
    response = await state.get(target, SINGLE_ENDPOINT, id);
  } catch (error) {
    if (error instanceof RequestFailure) return failed(error);
    throw error;
  }
  state.requests++;
  if (response.status >= 200 && response.status <= 299 && isEventStreamType(response.contentType)) {
    // An event stream is named on its media type, never read (it may not end).
    response.cancel();
    const found = describeEventStream(response.contentType, '');
    state.sink.add({ severity: 'error', code: 'not-json', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', expected: 'a JSON body holding the listed market', example: { marketId: id, pointer: '', found, request } });
    return { invalid: { market_id: id, request, status: response.status, failure: found } };
  }
  let body;
  try {
    body = await collectBodyText(bounded(response.body, limit, response.url));
  } catch (error) {
    if (error instanceof RequestFailure) return failed(error, declaredLength(response));
    throw error;
  }
  const ms = performance.now() - response.startedAt;
  state.times.record(SINGLE_ENDPOINT, ms);
  if (ms > state.settings.slowMs) {
    state.sink.add({ severity: 'warning', code: 'slow-answer', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', expected: `an answer within --slow-ms (${state.settings.slowMs} ms)`, example: { marketId: id, pointer: '', found: `${Math.round(ms)} ms`, request } });
  }
  const outcome = await judgeMarketAnswer(state, { id, request, response, body, ms });
  if (state.observer?.market) state.observer.market(id, answerFacts(response, fnv1a(body.text)), outcome.market);
  return outcome;
}

/** A single market's answer, read whole, judged: delisted, status, encoding, UTF-8, the body's checks, a header echo. */
async function judgeMarketAnswer(state: CrawlState, answer: { id: string; request: string; response: DeploymentResponse; body: Awaited<ReturnType<typeof collectBodyText>>; ms: number }): Promise<{ market?: Market; invalid?: InvalidResponse; ms?: number }> {
  const { id, request, response, body, ms } = answer;
  const facts = { request, status: response.status, contentType: response.contentType };
  const listed = state.listed.get(id);
  const invalid = (): InvalidResponse => {
    const parsed = parseJsonBody(body.text);
    return { market_id: id, request, status: response.status, ...(response.contentType ? { content_type: response.contentType } : {}), body: parsed.ok ? parsed.value : body.text };
  };
  if (response.status === 404 && (await delistedSince(state, id, request))) return { ms };
  if (!checkStatus(facts, body, state.ctx, SINGLE_ENDPOINT, 'the listed market', id, response.retriesExhausted)) return { invalid: invalid(), ms };
  checkEncoding(facts, body.bom, state.ctx, SINGLE_ENDPOINT, id);
  if (!checkUtf8(body.notUtf8At, state.sink, SINGLE_ENDPOINT, request, id)) return { invalid: invalid(), ms };
  const market = checkSingleBody(facts, body.text, id, listed, state.ctx);
  const secrets = runRedactor(state);
  if (market && secrets.active && secrets.contains(JSON.stringify(market))) {
    // A body that echoes a --header value (a token) or a cookie value the deployment set must never become a fixture.
    const what = state.settings.redactor.contains(JSON.stringify(market)) ? 'a --header value' : 'a cookie value the deployment set';
    state.sink.add({ severity: 'warning', code: 'header-echo', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', expected: 'a body that does not contain a --header value or a cookie value (not recorded)', example: { marketId: id, pointer: '', found: `${what} ([redacted])`, request } });
    return { invalid: { market_id: id, request, status: response.status, failure: `not kept: the body contains ${what}` }, ms };
  }
  const refused = market ? unrecordable(state, market, request, id, response.status) : undefined;
  if (refused) return { invalid: refused, ms };
  return market ? { market, ms } : { invalid: invalid(), ms };
}

/** When recording: a market valid for the contract (names are data) whose member name the fixture reader refuses (a recorded file would not load), as an invalid answer, its `not-recorded` information added. */
function unrecordable(state: CrawlState, market: Market, request: string, id: string, status: number): InvalidResponse | undefined {
  if (!(state.recording ?? false)) return undefined;
  const notRecorded = notRecordedObservation(market, request, id);
  if (!notRecorded) return undefined;
  state.sink.add(notRecorded);
  return { market_id: id, request, status, failure: `not kept: ${notRecorded.example.found}` };
}

/** The positions of `count` items spread evenly over a list of `total` (⌊k·total/count⌋: first, …, near the last), in list order. */
export function spreadPositions(total: number, count: number): number[] {
  if (count >= total) return Array.from({ length: total }, (_, k) => k);
  return Array.from({ length: count }, (_, k) => Math.floor((k * total) / count));
}

/** `count` items spread evenly over the list, in list order. */
export function spreadSample<T>(items: readonly T[], count: number): T[] {
  return spreadPositions(items.length, count).map((k) => items[k] as T);
}

/** The sampled ids, looked up by position only (nothing copied for a list of millions). */
function sampleOf(state: CrawlState, count: number): { length: number; at(k: number): string } {
  const ids = spreadPositions(state.listed.size, count).map((k) => state.listed.idAt(k));
  return { length: ids.length, at: (k) => ids[k] as string };
}

/** Runs `work` on items 0…length−1, `limit` at a time; none starts once `halt` is aborted. */
async function forEachConcurrent(items: { length: number; at(k: number): string }, limit: number, halt: AbortSignal, work: (item: string) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !halt.aborted) await work(items.at(next++));
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

