import type { Market } from '../../schema/generated/market-types.js';
import type { ListedMarkets } from '../checks/index.js';
import type { DeploymentResponse } from '../http-client/index.js';

/**
 * What one answer said besides its body's values: its status, its validators (RFC 9110 §8.8:
 * `ETag`, `Last-Modified`), its `Date` (§6.6.1), when it was asked and received by this
 * machine's clock, and a hash of the decoded body. A watch compares these round to round.
 */
export interface AnswerFacts {
  status: number;
  etag: string | undefined;
  lastModified: string | undefined;
  date: string | undefined;
  /** Epoch ms (this machine's clock) when the request was sent and when its body was read. */
  sentAt: number;
  receivedAt: number;
  /** Answer time, ms (performance clock, as the report's response times). */
  ms: number;
  /** FNV-1a over the decoded body text (text-hash.ts); undefined when the body was not read whole. */
  bodyHash: number | undefined;
}

/**
 * Told what a crawl saw, for a caller that compares crawls (the watch, src/contract/watch/). The
 * crawl calls it and never waits for it; a method that throws stops the crawl like any bug.
 */
export interface CrawlObserver {
  /** A list page's answer (`page` counts from 1). */
  listPage?(page: number, facts: AnswerFacts): void;
  /** The listing once the list is read: every market in list order, as listed (first listing of an id kept). */
  listed?(listed: ListedMarkets, complete: boolean): void;
  /** A single market's answer; `market` is the valid body, when it was one. */
  market?(marketId: string, facts: AnswerFacts, market: Market | undefined): void;
}

/** The facts of `response`, read at `receivedAt` (epoch ms), with the hash of its body when read whole. */
export function answerFacts(response: DeploymentResponse, bodyHash: number | undefined): AnswerFacts {
  const ms = performance.now() - response.startedAt;
  const receivedAt = Date.now();
  return {
    status: response.status,
    etag: response.headers['etag'],
    lastModified: response.headers['last-modified'],
    date: response.headers['date'],
    sentAt: receivedAt - ms,
    receivedAt,
    ms,
    bodyHash,
  };
}
