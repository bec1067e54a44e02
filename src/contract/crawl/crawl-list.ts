import { BodyText } from '../http-client/index.js';
import { LIST_ENDPOINT } from '../checks/index.js';
import type { ListSummary } from '../checks/index.js';
import { ContractRunError } from '../http-client/index.js';
import { marketsUrl } from './crawl-settings.js';
import { failureCode, limitReached, previewBody, type CrawlState } from './crawl-state.js';
import { checkerLimit } from '../reports/index.js';
import { displayUrl, requestTarget, RequestFailure, type DeploymentResponse } from '../http-client/index.js';
import { createJsonReader } from '../http-client/index.js';
import { judgeListTotals, pagingInfo, pagingUnfollowed, readPagePaging } from './crawl-paging.js';
import { checkEncoding, checkStatus, createListPageChecker, noteListShape, shapeWords, type ListPage } from '../checks/index.js';
import type { NextStep } from '../paging/index.js';
import { checkUtf8 } from '../checks/index.js';
import { adoptDeploymentDate } from './deployment-date.js';
import { shownUrl, type BaseQuery } from '../http-client/index.js';
import { notePageStart } from './delisted-recheck.js';
import { answerFacts } from './crawl-observer.js';
import { fnv1a } from '../../floor/text-hash.js';
import { describeEventStream, isEventStreamType, startsLikeEventStream } from './event-stream.js';

/**
 * Stage 1 of a crawl: `GET {base}/markets`, then every page the deployment signals, each body
 * streamed through the list checks (memory stays at the compact listing, whatever the size).
 * The next page is found by the paging dialects (paging-dialects.ts, docs/paging.md). The crawl
 * stops, saying so in the report (`list.complete: false` and a warning), when a next page repeats a URL or cursor already fetched (found before
 * fetching it) or a page repeats earlier markets only (`cursor-loop`), a page fails, more pages
 * are signalled in a way no dialect follows (`paging-unfollowed`), or the last page announces a
 * total larger than what was seen (`list-partial`).
 * @throws ContractRunError DEPLOYMENT_UNREACHABLE (no answer to the first page), DeploymentRefusal
 *   LIMIT_EXCEEDED (a page over maxBodyMb or past timeoutMs, more pages than maxPages), OPTION_INVALID (a base URL ending in /markets whose list is a 404).
 */
export async function crawlList(state: CrawlState): Promise<ListSummary> {
  const { base, maxPages } = state.settings;
  const list: ListSummary = { shape: 'unavailable', pages: 0, paging: 'none', complete: true };
  const visited = new Set<string>();
  const cursors = new Set<string>();
  let url = marketsUrl(base);
  let asked: NextStep['headers'];
  let listMs = 0;
  for (;;) {
    if (!asked) visited.add(url.href);
    notePageStart(state, url);
    const fetched = await fetchPage(state, url, list, asked);
    if (!fetched || fetched === RANGE_END) break;
    const { response, page } = fetched;
    if (list.pages === 1) adoptDeploymentDate(state, response.headers['date']);
    listMs += fetched.ms;
    if (!asked) visited.add(response.url.href);
    state.onProgress?.({ phase: 'list', pages: list.pages, listed: state.listed.size });
    if (!page) {
      if (list.pages > 1) list.complete = false;
      break;
    }
    if (list.pages === 1) describeShape(state, list, page, url);
    if (page.repeats) {
      stopPaging(state, list, 'cursor-loop', `page ${list.pages} lists only markets of earlier pages: the paging looped back`, response.url);
      break;
    }
    const reading = readPagePaging(list, page, response);
    const next = reading.next;
    if (!next) {
      if (reading.stuck !== undefined) pagingUnfollowed(state, list, reading.stuck, response.url);
      else judgeListTotals(state, list, reading.totals, response.url);
      break;
    }
    if (!(await mayFollow(state, list, next, response.url, visited, cursors))) break;
    if (list.pages >= maxPages) {
      throw checkerLimit(`the list has more than ${maxPages} page${maxPages === 1 ? '' : 's'}: page ${list.pages} links to ${requestTarget(next.url)}`, `--max-pages ${maxPages}`, maxPages >= 1_000_000 ? 'ask the deployment for larger pages: --max-pages is at its largest (1000000)' : `give --max-pages more than ${maxPages} (up to 1000000)`, requestTarget(response.url), LIST_ENDPOINT);
    }
    if (next.cursor !== undefined) cursors.add(next.cursor);
    url = next.url;
    asked = next.headers;
  }
  if (list.pages > 0 && list.shape !== 'unavailable') pagingInfo(state, list, listMs);
  return list;
}

/** A page asked for with `Range` answered 416 (Range Not Satisfiable, RFC 9110 §15.5.17): no markets past the last page, the list ended. */
const RANGE_END = Symbol('range-end');

/** GETs one page and reads it; undefined when there was no answer (a finding says why, or the first page throws), RANGE_END past the last range. */
async function fetchPage(state: CrawlState, url: URL, list: ListSummary, headers: NextStep['headers']): Promise<{ response: DeploymentResponse; page: ListPage | undefined; ms: number } | typeof RANGE_END | undefined> {
  let response: DeploymentResponse;
  try {
    response = await state.get(url, LIST_ENDPOINT, undefined, headers);
  } catch (error) {
    if (!(error instanceof RequestFailure)) throw error;
    if (list.pages > 0) {
      const stop = limitReached(state, error, LIST_ENDPOINT, { bytes: state.settings.maxBodyBytes, flag: '--max-body-mb' });
      if (stop) throw stop;
    }
    // A misframed answer is the deployment's (an error finding), even on the first page: it did answer.
    if (list.pages === 0 && error.kind !== 'cross-origin' && error.kind !== 'framing') {
      throw new ContractRunError('DEPLOYMENT_UNREACHABLE', `cannot reach ${displayUrl(url)}: ${error.reason}. ${unreachableHint(error)}`);
    }
    pageFailed(state, error, url);
    list.complete = false;
    return undefined;
  }
  state.requests++;
  if (headers?.['range'] !== undefined && response.status === 416) {
    await response.discard();
    return RANGE_END;
  }
  list.pages++;
  if (list.pages === 1 && response.url.href !== url.href) list.redirectedTo = displayUrl(response.url);
  const page = await readListPage(state, response, list.pages > 1, list.pages);
  const ms = performance.now() - response.startedAt;
  state.times.record(LIST_ENDPOINT, ms);
  return { response, page, ms };
}

/**
 * Reads one `GET /markets` answer: a non-2xx is a finding (its body previewed); a 2xx body is
 * decoded and streamed through the list checks as it arrives.
 * @throws ContractRunError LIMIT_EXCEEDED when the body is larger than maxBodyMb; OPTION_INVALID for
 *   a first page that is a 404 under a base URL ending in /markets.
 */
export async function readListPage(state: CrawlState, response: DeploymentResponse, laterPage: boolean, pageNumber = 0): Promise<ListPage | undefined> {
  const facts = { request: requestTarget(response.requested), status: response.status, contentType: response.contentType };
  if (response.status < 200 || response.status > 299) {
    const preview = await previewBody(response);
    state.observer?.listPage?.(pageNumber, answerFacts(response, undefined));
    if (!laterPage && response.status === 404) rejectMarketsSuffix(state.settings.base, response.requested, state.settings.baseQuery);
    checkStatus(facts, preview, state.ctx, LIST_ENDPOINT, 'the market list', undefined, response.retriesExhausted);
    return undefined;
  }
  if (isEventStreamType(response.contentType)) {
    response.cancel();
    return eventStreamFound(state, facts, '');
  }
  const checker = createListPageChecker(facts, state.ctx, state.listed, 'crawl');
  const reader = createJsonReader('list', checker);
  const text = new BodyText();
  let head = '';
  let hash = fnv1a('');
  try {
    for await (const chunk of response.body) {
      const decoded = text.write(chunk);
      if (state.observer) hash = fnv1a(decoded, hash);
      if (head.length < 64) {
        head += decoded.slice(0, 64 - head.length);
        // Leaving the loop closes the body: an endless stream is judged on its first bytes.
        if (startsLikeEventStream(head)) return eventStreamFound(state, facts, head);
      }
      reader.write(decoded);
    }
    const last = text.end();
    if (state.observer) hash = fnv1a(last, hash);
    reader.write(last);
  } catch (error) {
    if (!(error instanceof RequestFailure)) throw error;
    const stop = limitReached(state, error, LIST_ENDPOINT, { bytes: state.settings.maxBodyBytes, flag: '--max-body-mb' });
    if (stop) throw stop;
    pageFailed(state, error, response.requested);
    return undefined;
  }
  checkEncoding(facts, text.bom, state.ctx, LIST_ENDPOINT);
  checkUtf8(text.notUtf8At, state.ctx.sink, LIST_ENDPOINT, facts.request);
  state.observer?.listPage?.(pageNumber, answerFacts(response, hash));
  return checker.finish(reader.end(), laterPage, { text: head, bytes: text.bytes });
}

/** A list answered with an event stream (event-stream.ts): not JSON, an error named at once. */
function eventStreamFound(state: CrawlState, facts: { request: string; contentType: string | undefined }, head: string): undefined {
  state.sink.add({ severity: 'error', code: 'not-json', endpoint: LIST_ENDPOINT, pointerTemplate: '', expected: 'a JSON body holding the market list', example: { pointer: '', found: describeEventStream(facts.contentType, head), request: facts.request } });
  return undefined;
}

/**
 * The most common mistake: `--base-url http://host/markets`. The crawl then asks for
 * `/markets/markets`; when that is a 404 the run stops (exit 2) with the fix, instead of failing
 * the contract for a typo. A deployment really living under `…/markets` still works: its list answers.
 */
function rejectMarketsSuffix(base: URL, requested: URL, query: BaseQuery): void {
  if (!/\/markets\/*$/.test(base.pathname)) return;
  const fixed = new URL(base);
  fixed.pathname = base.pathname.replace(/\/markets\/*$/, '') || '/';
  const suggestion = fixed.pathname === '/' ? fixed.origin : `${fixed.origin}${fixed.pathname}`;
  throw new ContractRunError('OPTION_INVALID', `--base-url ${shownUrl(base, query)} probably ends in /markets by mistake: market-stub adds /markets itself, and GET ${displayUrl(requested)} answered 404. Use --base-url ${suggestion}${fixed.search === '' ? '' : query.names.redactText(fixed.search)}`);
}

/** Whether the next page may be fetched: not a URL or cursor fetched before, and on the base origin (or followed without the headers, with a warning). */
async function mayFollow(state: CrawlState, list: ListSummary, next: NextStep, from: URL, visited: Set<string>, cursors: Set<string>): Promise<boolean> {
  // A page asked for with request headers (a Range) shares its URL with the others: its cursor tells it apart.
  if ((next.headers === undefined && visited.has(next.url.href)) || (next.cursor !== undefined && cursors.has(next.cursor))) {
    stopPaging(state, list, 'cursor-loop', `next page ${requestTarget(next.url)} was already fetched; not fetched again`, from);
    return false;
  }
  const origin = state.settings.base.origin;
  if (next.url.origin === origin) return true;
  if (state.settings.sameOriginOnly) {
    state.sink.add({ severity: 'error', code: 'cross-origin', endpoint: LIST_ENDPOINT, pointerTemplate: '', expected: `paging links on ${origin}`, example: { pointer: '', found: `the next page is on another origin, ${next.url.origin}; not followed (--same-origin-only)`, request: requestTarget(from) } });
    list.complete = false;
    return false;
  }
  state.sink.add({ severity: 'warning', code: 'cross-origin', endpoint: LIST_ENDPOINT, pointerTemplate: '', expected: `paging links on ${origin} (the --header values are not sent elsewhere)`, example: { pointer: '', found: `the next page is on another origin, ${next.url.origin}; followed without the --header values`, request: requestTarget(from) } });
  return true;
}

/** The crawl did not see the whole list: a warning (the verdict says the list is incomplete). */
function stopPaging(state: CrawlState, list: ListSummary, code: 'cursor-loop', found: string, at: URL): void {
  const expected = 'a next page that was not fetched before';
  state.sink.add({ severity: 'warning', code, endpoint: LIST_ENDPOINT, pointerTemplate: '', expected, example: { pointer: '', found, request: requestTarget(at) } });
  list.complete = false;
}

/** The `list-shape` information of the first page: where the market array was found, and in which envelope (list-envelope.ts). */
function describeShape(state: CrawlState, list: ListSummary, page: ListPage, url: URL): void {
  noteListShape(list, page.shape);
  const found = shapeWords(page.shape);
  state.info({ code: 'list-shape', endpoint: LIST_ENDPOINT, pointerTemplate: '', example: { pointer: '', found, request: requestTarget(url) }, message: `list shape: ${found}` });
}

function pageFailed(state: CrawlState, error: RequestFailure, url: URL): void {
  state.sink.add({ severity: 'error', code: failureCode(error), endpoint: LIST_ENDPOINT, pointerTemplate: '', expected: 'an answer to every list page', example: { pointer: '', found: error.reason, request: requestTarget(url) } });
}

function unreachableHint(failure: RequestFailure): string {
  switch (failure.kind) {
    case 'timeout': return 'Raise --timeout-ms or check that the service answers.';
    case 'dns': return 'Check the host name in --base-url.';
    case 'tls': return 'Check the certificates: the one the service presents (--cacert trusts its issuer), the client certificate (--cert, --key), and the scheme (http:// or https://) in --base-url.';
    default: return 'Check --base-url and that the service is running.';
  }
}
