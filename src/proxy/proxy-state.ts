import { todayUtc } from '../floor/market-rules.js';
import { createRedactor, type Redactor } from '../floor/redact-secrets.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT, type ContractEndpoint, type Observation } from '../contract/checks/index.js';
import { buildContractReport, type ContractReport, type ListSummary } from '../contract/checks/index.js';
import { displayBase } from '../contract/http-client/index.js';
import { createFindingAggregator, type FindingAggregator } from '../contract/checks/index.js';
import { fixtureText } from '../catalog/fixture-text.js';
import { findNextPage } from '../contract/paging/index.js';
import { ListedMarkets, noteListShape, notRecordedObservation } from '../contract/checks/index.js';
import { buildDistributions, ResponseTimeRecorder } from '../contract/checks/index.js';
import type { CheckOutcome } from './exchange-checker.js';
import { SecretBook } from './proxy-secrets.js';
import type { RecordingProxyOptions } from './recording-proxy-options.js';

/** What the proxy keeps between exchanges: the aggregated findings, the compact listing, counters. */
export interface ProxyState {
  options: RecordingProxyOptions;
  today: string;
  sink: FindingAggregator;
  listed: ListedMarkets;
  book: SecretBook;
  loggedInfo: Set<string>;
  list: ListSummary;
  singles: number;
  responses: number;
  listMs: number;
  marketsMs: number;
  times: ResponseTimeRecorder;
  startedAt: Date;
  start: number;
  /** Writes to the spool not yet done (awaited by close). */
  spoolWrites: Promise<void>;
}

/** A fresh state: nothing seen yet, the clock started; `pinned` are secrets redacted from the start (the upstream query's). */
export function createProxyState(options: RecordingProxyOptions, pinned: readonly string[] = []): ProxyState {
  return {
    options, today: options.today ?? todayUtc(), sink: createFindingAggregator(), listed: new ListedMarkets(), book: new SecretBook(pinned), loggedInfo: new Set(),
    list: { shape: 'unavailable', pages: 0, paging: 'none', complete: true }, singles: 0, responses: 0, listMs: 0, marketsMs: 0, times: new ResponseTimeRecorder(),
    startedAt: new Date(), start: performance.now(), spoolWrites: Promise.resolve(),
  };
}

/**
 * The findings of one exchange: redacted with that request's own credentials before they reach
 * the proxy's findings, then passed to onFinding (errors and warnings each time, information once).
 */
export function exchangeSink(state: ProxyState, credentials: readonly string[]): { sink: FindingAggregator; redactor: Redactor; flush(): void } {
  const redactor = createRedactor(credentials);
  const local = createFindingAggregator();
  const sink: FindingAggregator = {
    add(observation: Observation, count?: number) {
      const clean = redactor.active ? redactor.redactValue(observation) : observation;
      state.sink.add(clean, count);
      local.add(clean, count);
    },
    merge(finding) {
      const clean = redactor.active ? redactor.redactValue(finding) : finding;
      state.sink.merge(clean);
      local.merge(clean);
    },
    get size() {
      return local.size;
    },
    findings: () => local.findings(),
  };
  return {
    sink,
    redactor,
    flush() {
      const book = state.book.redactor();
      for (const finding of local.findings()) {
        if (finding.severity === 'info') {
          const key = `${finding.code} ${finding.endpoint} ${finding.pointer}`;
          if (state.loggedInfo.has(key)) continue;
          if (state.loggedInfo.size < 10_000) state.loggedInfo.add(key);
        }
        state.options.onFinding?.(book.redactValue(finding));
      }
    },
  };
}

/** Counts a checked answer: the list's shape and paging, a single market kept for --record. */
export function recordOutcome(state: ProxyState, outcome: CheckOutcome, path: string, rawUrl: string, link: string | string[] | undefined, ms: number): void {
  state.responses++;
  if (singleMarketId(path) === undefined) {
    state.list.pages++;
    state.listMs += ms;
    state.times.record(LIST_ENDPOINT, ms);
    const page = outcome.page;
    if (page && state.list.shape === 'unavailable') noteListShape(state.list, page.shape);
    const next = page ? findNextPage(page.body, page.shape, Array.isArray(link) ? link.join(', ') : (link ?? null), new URL(rawUrl, 'http://proxy.invalid')) : undefined;
    if (next && state.list.paging === 'none') state.list.paging = next.via;
    return;
  }
  state.singles++;
  state.marketsMs += ms;
  state.times.record(SINGLE_ENDPOINT, ms);
  const market = outcome.market;
  const spool = state.options.spool;
  if (!market || !spool) return;
  if (state.book.redactor().contains(JSON.stringify(market))) return;
  const notRecorded = notRecordedObservation(market, path, market.market_id);
  if (notRecorded) {
    state.sink.add(notRecorded);
    return;
  }
  state.spoolWrites = state.spoolWrites.then(() => spool.put(market.market_id, fixtureText(market))).catch((error: unknown) => state.options.onSpoolError?.(error));
}

/** An upstream without an answer: the client got 502/504; an error finding counts every one. */
export function upstreamFailed(state: ProxyState, exchange: ReturnType<typeof exchangeSink>, method: string, rawUrl: string, endpoint: ContractEndpoint, reason: string, code: 'request-failed' | 'framing' = 'request-failed'): void {
  const expected = code === 'framing' ? 'an answer framed as RFC 9112 §6 says' : 'an answer from the upstream';
  exchange.sink.add({ severity: 'error', code, endpoint, pointerTemplate: '', expected, example: { pointer: '', found: `${method}: ${reason}`, request: rawUrl } });
  state.options.onUpstreamError?.({ method, path: exchange.redactor.redact(rawUrl), reason });
}

/** The proxy's summary so far, in the report shape of `check` (command `proxy`). */
export function buildReport(state: ProxyState, upstream: URL): ContractReport {
  return buildContractReport({
    command: 'proxy',
    baseUrl: displayBase(upstream),
    startedAt: state.startedAt,
    durationMs: performance.now() - state.start,
    timing: { listMs: state.listMs, marketsMs: state.marketsMs },
    strict: state.options.strict ?? false,
    list: { ...state.list },
    findings: state.sink.findings(),
    distributions: buildDistributions(state.listed.pricePairs(), state.times),
    marketsListed: state.listed.size,
    marketsChecked: state.singles,
    requests: state.responses,
  });
}

/** The routes checked: `/markets`, `/markets/`, `/markets/{id}` (relative to the proxy's root). */
export function isMarketsPath(path: string): boolean {
  return path === '/markets' || path === '/markets/' || /^\/markets\/[^/]+$/.test(path);
}

/** The percent-decoded id of a `/markets/{id}` path, or undefined for the list (or a malformed id). */
export function singleMarketId(path: string): string | undefined {
  const m = /^\/markets\/([^/]+)$/.exec(path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1] ?? '');
  } catch {
    return m[1];
  }
}
