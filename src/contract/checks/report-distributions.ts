import { LIST_ENDPOINT, SINGLE_ENDPOINT } from './contract-finding.js';

/**
 * Counts of values in fixed bins: bin `i` holds values in `[edges[i], edges[i + 1])`, the last bin
 * its upper edge too. Fixed bins keep a report's size independent of the crawl's (a list of
 * millions of markets gives the same few numbers).
 */
export interface Histogram {
  /** Bin edges, ascending, in the unit of the values (price, ms). */
  edges: number[];
  /** `counts[i]`: values in bin `i`; `counts.length === edges.length - 1`. */
  counts: number[];
  /** Values below the first edge. */
  below: number;
  /** Values above the last edge. */
  above: number;
}

/** Response times of one endpoint's answers, in ms (status line to the end of the body). */
export interface ResponseTimes {
  count: number;
  minMs: number;
  maxMs: number;
  /** Sum of every time, for the mean. */
  totalMs: number;
  histogram: Histogram;
}

/**
 * What the report's charts are drawn from (added in 0.3; optional in reportVersion 1): the listed
 * markets' prices and the answers' times, in fixed bins.
 */
export interface ReportDistributions {
  /** `yes_price` of each listed market with a finite price, in ten bins of 0.1 from 0 to 1. */
  yesPrice: Histogram;
  /** `yes_price + no_price` of each listed market with both finite, in bins of 0.01 centred on 0.95 … 1.05. */
  priceSum: Histogram;
  /** Per endpoint (`GET /markets`, `GET /markets/{market_id}`): times of the answers received. */
  responseTimes: Record<string, ResponseTimes>;
}

/** Price bins: 0, 0.1, …, 1. */
export const PRICE_EDGES: readonly number[] = Array.from({ length: 11 }, (_, i) => i / 10);
/** Sum bins: 0.945, 0.955, …, 1.055 (each bin is one cent, labelled by its centre). */
export const PRICE_SUM_EDGES: readonly number[] = Array.from({ length: 12 }, (_, i) => (945 + i * 10) / 1000);
/** Time bins, ms: roughly 1-2.5-5 steps from 0 to 10 s. */
export const TIME_EDGES_MS: readonly number[] = [0, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];

/** An empty histogram over `edges`. */
export function emptyHistogram(edges: readonly number[]): Histogram {
  return { edges: [...edges], counts: new Array<number>(edges.length - 1).fill(0), below: 0, above: 0 };
}

/** Counts `value` into `histogram` (binary search over the edges). */
export function countInto(histogram: Histogram, value: number): void {
  const { edges, counts } = histogram;
  const last = edges.length - 1;
  if (value < (edges[0] as number)) histogram.below++;
  else if (value > (edges[last] as number)) histogram.above++;
  else {
    let lo = 0;
    let hi = last - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (value >= (edges[mid] as number)) lo = mid;
      else hi = mid - 1;
    }
    counts[lo] = (counts[lo] as number) + 1;
  }
}

/** Collects answer times per endpoint while a crawl or the proxy runs; memory is a few numbers per endpoint. */
export class ResponseTimeRecorder {
  private readonly byEndpoint = new Map<string, ResponseTimes>();

  /** Counts one answer of `endpoint` that took `ms` milliseconds. */
  record(endpoint: string, ms: number): void {
    let times = this.byEndpoint.get(endpoint);
    if (!times) {
      times = { count: 0, minMs: ms, maxMs: ms, totalMs: 0, histogram: emptyHistogram(TIME_EDGES_MS) };
      this.byEndpoint.set(endpoint, times);
    }
    times.count++;
    times.minMs = Math.min(times.minMs, ms);
    times.maxMs = Math.max(times.maxMs, ms);
    times.totalMs += ms;
    countInto(times.histogram, ms);
  }

  /** The times so far, list first, rounded to 0.1 ms. */
  snapshot(): Record<string, ResponseTimes> {
    const out: Record<string, ResponseTimes> = {};
    for (const endpoint of [LIST_ENDPOINT, SINGLE_ENDPOINT]) {
      const times = this.byEndpoint.get(endpoint);
      if (!times) continue;
      const round = (ms: number) => Math.round(ms * 10) / 10;
      out[endpoint] = { count: times.count, minMs: round(times.minMs), maxMs: round(times.maxMs), totalMs: round(times.totalMs), histogram: { ...times.histogram, counts: [...times.histogram.counts] } };
    }
    return out;
  }
}

/**
 * The report's distributions from the listed markets' prices (`[yes, no]` pairs, NaN where the
 * list's value was not a finite number) and the recorded answer times.
 */
export function buildDistributions(prices: Iterable<readonly [number, number]>, times: ResponseTimeRecorder): ReportDistributions {
  const yesPrice = emptyHistogram(PRICE_EDGES);
  const priceSum = emptyHistogram(PRICE_SUM_EDGES);
  for (const [yes, no] of prices) {
    if (Number.isNaN(yes)) continue;
    countInto(yesPrice, yes);
    if (!Number.isNaN(no)) countInto(priceSum, yes + no);
  }
  return { yesPrice, priceSum, responseTimes: times.snapshot() };
}
