import { MAX_TIMELINE_ROUNDS, MAX_WATCH_FINDINGS_KEPT } from '../../floor/limits.js';
import type { ContractReport } from '../checks/index.js';
import type { WatchFinding } from './watch-finding.js';
import type { WatchRound } from './watch-deployment.js';

/** One round on a watch's timeline: what the report and the comparison found, in counts. */
export interface TimelineRound {
  round: number;
  startedAt: string;
  durationMs: number;
  exitCode: 0 | 1 | 2;
  failure?: string;
  marketsListed: number;
  errors: number;
  warnings: number;
  /** Codes of the round's findings over time. */
  overTime: string[];
  prices: Array<[string, number]>;
}

/**
 * A watch summed up (bounded whatever the number of rounds): the rounds taken, the worst exit
 * code, every finding over time counted by code, the first MAX_WATCH_FINDINGS_KEPT kept with
 * their round, the last MAX_TIMELINE_ROUNDS rounds as a timeline, and the last report.
 */
export interface WatchSummary {
  kind: 'watch';
  baseUrl: string;
  startedAt: string;
  endedAt: string;
  rounds: number;
  firstRound: number;
  lastRound: number;
  failedRounds: number;
  /** The worst exit code of any round: 2 a round could not run, 1 errors (or warnings under strict). */
  exitCode: 0 | 1 | 2;
  /** Occurrences of each finding over time (`warning status-regression`). */
  counts: Record<string, number>;
  findings: Array<WatchFinding & { round: number }>;
  timeline: TimelineRound[];
  lastReport?: ContractReport;
  notes: string[];
}

/** Builds a WatchSummary round by round. */
export class WatchSummaryBuilder {
  private readonly summary: WatchSummary;

  constructor(baseUrl: string, startedAt = new Date()) {
    const at = startedAt.toISOString();
    this.summary = { kind: 'watch', baseUrl, startedAt: at, endedAt: at, rounds: 0, firstRound: 0, lastRound: 0, failedRounds: 0, exitCode: 0, counts: {}, findings: [], timeline: [], notes: [] };
  }

  add(round: WatchRound): void {
    const s = this.summary;
    if (s.rounds === 0) s.firstRound = round.round;
    s.rounds++;
    s.lastRound = round.round;
    s.endedAt = new Date(Date.parse(round.startedAt) + round.durationMs).toISOString();
    if (round.failure !== undefined) s.failedRounds++;
    s.exitCode = Math.max(s.exitCode, round.exitCode) as 0 | 1 | 2;
    s.notes.push(...round.notes);
    for (const finding of round.findings) {
      const key = `${finding.severity} ${finding.code}`;
      s.counts[key] = (s.counts[key] ?? 0) + finding.count;
      if (s.findings.length < MAX_WATCH_FINDINGS_KEPT) s.findings.push({ round: round.round, ...finding });
    }
    if (round.report) s.lastReport = round.report;
    s.timeline.push(timelineOf(round));
    if (s.timeline.length > MAX_TIMELINE_ROUNDS) s.timeline.shift();
  }

  get(): WatchSummary {
    return this.summary;
  }
}

function timelineOf(round: WatchRound): TimelineRound {
  const summary = round.report?.summary;
  return {
    round: round.round, startedAt: round.startedAt, durationMs: Math.round(round.durationMs), exitCode: round.exitCode,
    ...(round.failure === undefined ? {} : { failure: round.failure }),
    marketsListed: summary?.marketsListed ?? 0, errors: summary?.errors ?? 0, warnings: summary?.warnings ?? 0,
    overTime: round.findings.map((f) => f.code), prices: round.prices,
  };
}
