import type { Dispatcher } from 'undici';
import { displayUrl, requestTarget, createDeploymentClient, RequestFailure, type DeploymentClient, type DeploymentResponse, type ExchangeEvent } from '../http-client/index.js';
import { collectBodyText } from '../http-client/index.js';
import type { ContractEndpoint, Observation } from '../checks/index.js';
import type { FindingCode } from '../../floor/finding-codes.js';
import { packageVersion } from '../../floor/package-info.js';
import { ContractRunError } from '../http-client/index.js';
import { checkerLimit, type DeploymentRefusal } from '../reports/index.js';
import type { CrawlOptions, CrawlSettings } from './crawl-settings.js';
import { watchCredentials } from './credential-refusal.js';
import { stopOnAnnouncedOutage } from './announced-outage.js';
import { stopOnEdgeRefusal } from './edge-refusal.js';
import { versioningObservations } from './versioning-signals.js';
import { createFindingAggregator, type FindingAggregator } from '../checks/index.js';
import { ListedMarkets } from '../checks/index.js';
import type { CheckContext } from '../checks/index.js';
import { ResponseTimeRecorder } from '../checks/index.js';

/** What the stages of a crawl share. */
export interface CrawlState {
  settings: CrawlSettings;
  client: DeploymentClient;
  sink: FindingAggregator;
  ctx: CheckContext;
  listed: ListedMarkets;
  requests: number;
  /** Answer times per endpoint, for the report's distributions. */
  times: ResponseTimeRecorder;
  signal: AbortSignal | undefined;
  /** True when the markets are kept for a fixture set (`record`: collectMarkets or spool). */
  recording?: boolean;
  /** Aborted when the run stops early (a limit of the checker, a refusal): requests in flight end at once, no new one starts. */
  halt: AbortController;
  onProgress: CrawlOptions['onProgress'];
  /** Told of every answer's facts (a watch): crawl-observer.ts. */
  observer: CrawlOptions['observer'];
  /** GETs a URL (throwing INTERRUPTED once aborted), with `headers` besides the usual ones (a list page's `Range`), and reports its redirects and retries. */
  get(url: URL, endpoint: ContractEndpoint, marketId?: string, headers?: Readonly<Record<string, string>>): Promise<DeploymentResponse>;
  info(observation: Omit<Observation, 'severity' | 'expected'> & { message: string }): void;
}

/** The shared state of one crawl's stages, with a client for its settings. */
export function createCrawlState(options: CrawlOptions, settings: CrawlSettings): CrawlState {
  const sink = createFindingAggregator();
  const signal = options.signal;
  const halt = new AbortController();
  const clientSignal = signal ? AbortSignal.any([signal, halt.signal]) : halt.signal;
  const client = createDeploymentClient({
    origin: settings.base.origin,
    headers: options.headers ?? [],
    baseQuery: settings.baseQuery,
    timeoutMs: settings.timeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    retries: settings.retries,
    retryAfterMaxMs: settings.retryAfterMaxMs,
    sameOriginOnly: settings.sameOriginOnly,
    connections: settings.concurrency,
    userAgent: `market-stub/${packageVersion()} (contract check)`,
    network: settings.network,
    signal: clientSignal,
    // Any undici Dispatcher fits CrawlDispatcher; the client needs undici's own type.
    ...(options.dispatcher ? { dispatcher: options.dispatcher as Dispatcher } : {}),
  });
  const credentials = watchCredentials(settings.base.origin, options.headers ?? [], settings.baseQuery);
  const info: CrawlState['info'] = (observation) => sink.add({ severity: 'info', expected: 'nothing in particular (information)', ...observation });
  const state: CrawlState = {
    settings, client, sink, ctx: { sink, today: settings.today }, listed: new ListedMarkets(), requests: 0, times: new ResponseTimeRecorder(), signal, halt, recording: Boolean(options.collectMarkets ?? options.spool), onProgress: options.onProgress, observer: options.observer, info,
    async get(url, endpoint, marketId, headers) {
      if (signal?.aborted) throw interrupted();
      if (halt.signal.aborted) throw halt.signal.reason;
      try {
        const response = await client.get(url, headers);
        if (response.status === 429 && response.retriesExhausted !== undefined) {
          await response.discard();
          throw rateLimitStop(url, response.retriesExhausted, endpoint);
        }
        // A 451 or a CDN's bot challenge first: a challenge's 403 is no verdict on a credential.
        await stopOnEdgeRefusal(response, endpoint);
        await credentials.observe(response, endpoint);
        await stopOnAnnouncedOutage(response, endpoint, settings.retryAfterMaxMs);
        reportEvents(state, response.events, endpoint, marketId);
        for (const observation of versioningObservations(response, marketId)) sink.add({ ...observation, endpoint });
        return response;
      } catch (error) {
        if (signal?.aborted) throw interrupted();
        if (halt.signal.aborted) throw halt.signal.reason;
        // The proxy is ours, not the deployment's: no request can succeed past it.
        if (error instanceof RequestFailure && error.kind === 'proxy') throw new ContractRunError('DEPLOYMENT_UNREACHABLE', `cannot reach ${displayUrl(url)}: ${error.reason}. Check --proxy or the HTTP_PROXY/HTTPS_PROXY/NO_PROXY variables.`);
        throw error;
      }
    },
  };
  return state;
}

/** Redirects (information; a cross-origin one a warning naming the origin) and retries (information) as findings. */
export function reportEvents(state: CrawlState, events: readonly ExchangeEvent[], endpoint: ContractEndpoint, marketId?: string): void {
  for (const event of events) {
    const id = marketId === undefined ? {} : { marketId };
    if (event.kind === 'retry') {
      state.info({ code: 'retry', endpoint, pointerTemplate: '', example: { ...id, pointer: '', found: event.reason, request: requestTarget(event.url) }, message: `${requestTarget(event.url)}: ${event.reason}` });
    } else if (event.crossOrigin) {
      state.sink.add({
        severity: 'warning', code: 'cross-origin', endpoint, pointerTemplate: '', expected: `redirects and paging links on ${state.settings.base.origin} (the --header values are not sent elsewhere)`,
        example: { ...id, pointer: '', found: `${event.status} redirect to another origin, ${event.to.origin}; followed without the --header values`, request: requestTarget(event.from) },
      });
    } else {
      state.info({ code: 'redirect', endpoint, pointerTemplate: '', example: { ...id, pointer: '', found: `${event.status} to ${requestTarget(event.to)}`, request: requestTarget(event.from) }, message: `${requestTarget(event.from)} was redirected (${event.status}) to ${requestTarget(event.to)} (followed)` });
    }
  }
}

/** The description of a non-2xx or unreadable body for a finding (the first 64 KiB at most). */
export async function previewBody(response: DeploymentResponse): Promise<{ text: string; bytes: number }> {
  try {
    return await collectBodyText(response.body, 65_536);
  } catch (error) {
    if (error instanceof RequestFailure) return { text: `(${error.reason})`, bytes: 0 };
    throw error;
  }
}

/**
 * A deployment that still answers 429 after the pace was lowered as far as it goes: the checker
 * could not run at the deployment's pace within its bounds (exit 2, LIMIT_EXCEEDED, a could-not-run
 * report), never a contract finding.
 */
function rateLimitStop(url: URL, why: string, endpoint: ContractEndpoint): DeploymentRefusal {
  return checkerLimit(`GET ${displayUrl(url)}: the deployment rate-limits the checker: ${why}`, '--retries, --retry-after-max-ms', 'raise --retries or --retry-after-max-ms, lower --concurrency, or run when the quota has reset', requestTarget(url), endpoint);
}

/**
 * A request that reached one of the checker's own limits (reports the one rule: exit 2 naming the
 * flag and the value that lets the run finish): a body past --max-body-mb or --max-market-bytes
 * (`limit` names which; `declared` is the Content-Length of an identity-coded answer, the exact
 * size needed), or no complete answer within --timeout-ms. Undefined for any other failure.
 */
export function limitReached(state: CrawlState, failure: RequestFailure, endpoint: ContractEndpoint, limit: { bytes: number; flag: string }, declared?: number): DeploymentRefusal | undefined {
  const request = requestTarget(failure.url);
  if (failure.kind === 'timeout' && /--timeout-ms/.test(failure.reason)) {
    const ms = state.settings.timeoutMs;
    return checkerLimit(`GET ${displayUrl(failure.url)}: ${failure.reason}`, `--timeout-ms ${ms}`, ms >= 600_000 ? 'ask the deployment to answer faster: --timeout-ms is at its largest (600000)' : `give --timeout-ms more than ${ms} (up to 600000) if the deployment is this slow`, request, endpoint);
  }
  if (failure.kind !== 'limit') return undefined;
  const unit = limit.flag === '--max-body-mb' ? 'MiB' : 'bytes';
  const need = declared !== undefined && declared > limit.bytes ? declared : undefined;
  const value = unit === 'MiB' ? Math.ceil((need ?? limit.bytes + 1) / 1_048_576) : (need ?? limit.bytes + 1);
  const remedy = need !== undefined ? `give ${limit.flag} ${value} (its Content-Length is ${need.toLocaleString('en-US')} bytes)` : `give ${limit.flag} more than ${unit === 'MiB' ? limit.bytes / 1_048_576 : limit.bytes} (the body was cut there; its whole size is unknown)`;
  return checkerLimit(`GET ${displayUrl(failure.url)}: ${failure.reason}`, `${limit.flag} ${unit === 'MiB' ? limit.bytes / 1_048_576 : limit.bytes}`, `${remedy}, or ask the deployment to send less`, request, endpoint);
}

export function interrupted(): ContractRunError {
  return new ContractRunError('INTERRUPTED', 'interrupted before the crawl finished; no report was written.');
}


/** The finding code of a request that got no complete answer: `body-too-large`, `undecodable-body`, `framing` (message-framing.ts), `cross-origin` or `request-failed`. */
export function failureCode(failure: RequestFailure): FindingCode {
  switch (failure.kind) {
    case 'limit': return 'body-too-large';
    case 'decode': return 'undecodable-body';
    case 'framing': return 'framing';
    case 'cross-origin': return 'cross-origin';
    default: return 'request-failed';
  }
}
