import { MAX_EXAMPLES } from '../../floor/limits.js';
import { WATCH_FINDING_KINDS, type WatchFindingCode } from '../../floor/watch-finding-codes.js';
import type { ContractEndpoint, Severity } from '../checks/index.js';

/** One observation a time finding rests on: the round, its instant (ISO 8601, this machine's clock) and what was seen. */
export interface WatchEvidence {
  round: number;
  /** When the round started; absent for a round of an earlier run whose instant the state no longer holds. */
  at?: string;
  value: string;
}

/** One occurrence of a time finding: the market (when it is about one), what was found, and the rounds that show it, oldest first. */
export interface WatchExample {
  marketId?: string;
  found: string;
  seen: WatchEvidence[];
}

/**
 * A finding over time, reported in the round that shows it, in the shape of a one-crawl finding
 * (severity, code, endpoint, expected, count, examples: ContractFinding) with evidence per example.
 * A condition that lasts (a frozen market, a skewed clock) is reported once, when it starts, and
 * again only after it ended.
 */
export interface WatchFinding {
  severity: Severity;
  code: WatchFindingCode;
  endpoint: ContractEndpoint;
  /** What a deployment that keeps the assumption shows over time. */
  expected: string;
  /** One sentence for a person, naming the first example. */
  message: string;
  /** Occurrences in this round (markets, or 1 for the deployment). */
  count: number;
  /** The first MAX_EXAMPLES occurrences. */
  examples: WatchExample[];
}

const EXPECTED: Record<WatchFindingCode, string> = {
  'prices-frozen': 'prices of an active market that move as most markets do',
  'status-regression': 'a status that only moves forward: active → closed → resolved',
  'prices-after-resolution': 'prices that stay put while a market stays closed or resolved',
  'market-flapped': 'a market that leaves the list stays gone',
  'item-flapped': 'a listed market whose single answer does not switch between 404 and 200',
  'list-lags-items': 'a list showing the same prices as the single markets, not what they showed rounds earlier',
  'items-lag-list': 'single markets showing the same prices as the list, not what it showed rounds earlier',
  'etag-kept': 'a new ETag when the body changes (RFC 9110 §8.8.3)',
  'last-modified-backwards': 'a Last-Modified that never goes back in time (RFC 9110 §8.8.2)',
  'clock-skew': 'a Date from a clock close to this machine\'s (RFC 9110 §6.6.1)',
  'prices-static': 'nothing in particular (information)',
};

/** Collects one round's time findings, one finding per code and endpoint, occurrences counted, the first ones kept as examples. */
export class WatchFindings {
  private readonly byKey = new Map<string, WatchFinding>();

  add(code: WatchFindingCode, endpoint: ContractEndpoint, example: WatchExample, message: string): void {
    const key = `${code} ${endpoint}`;
    const found = this.byKey.get(key);
    if (found) {
      found.count++;
      if (found.examples.length < MAX_EXAMPLES) found.examples.push(example);
      return;
    }
    const severity = WATCH_FINDING_KINDS.find((k) => k.code === code)?.severity ?? 'warning';
    this.byKey.set(key, { severity, code, endpoint, expected: EXPECTED[code], message, count: 1, examples: [example] });
  }

  /** The findings, warnings first, then by code. */
  list(): WatchFinding[] {
    const rank = (f: WatchFinding) => (f.severity === 'error' ? 0 : f.severity === 'warning' ? 1 : 2);
    return [...this.byKey.values()].sort((a, b) => rank(a) - rank(b) || a.code.localeCompare(b.code) || a.endpoint.localeCompare(b.endpoint));
  }
}
