import { visibleControls } from '../../floor/display-value.js';
import type { WatchRound } from './watch-deployment.js';
import type { WatchFinding } from './watch-finding.js';
import type { WatchSummary } from './watch-summary.js';

/** A value from the deployment on one line: controls shown as escapes (report-display's rule for text). */
const line = (text: string) => visibleControls(text);

/**
 * A round as text lines: the round, its instant, what the crawl found, then each finding over time
 * with its evidence (`round 3 at …: list yes 0.41`). Every deployment value is shown with its
 * controls escaped, so a line is one line.
 */
export function formatRoundText(round: WatchRound): string {
  const head = `round ${round.round} ${round.startedAt}`;
  if (round.failure !== undefined) return `${head}: could not run: ${line(round.failure)}\n`;
  const s = round.report?.summary;
  const crawl = s ? `${s.marketsListed} markets listed, ${s.marketsChecked} checked, ${s.errors} error${s.errors === 1 ? '' : 's'}, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}` : '';
  const over = round.findings.length === 0 ? 'nothing over time' : `${round.findings.length} finding${round.findings.length === 1 ? '' : 's'} over time`;
  return [`${head}: ${crawl}; ${over}`, ...round.notes.map((n) => `  note: ${line(n)}`), ...round.findings.flatMap(findingLines)].join('\n') + '\n';
}

function findingLines(finding: WatchFinding): string[] {
  const count = finding.count > 1 ? ` (${finding.count} markets)` : '';
  return [
    `  ${finding.severity} ${finding.code} ${finding.endpoint}${count}: ${line(finding.message)}`,
    ...finding.examples.map((e) => `    ${e.marketId === undefined ? '' : `${line(JSON.stringify(e.marketId))}: `}${line(e.found)} [${e.seen.map((s) => `round ${s.round}${s.at ? ` ${s.at}` : ''}: ${line(s.value)}`).join('; ')}]`),
  ];
}

/** The summary of a watch as text: rounds, worst exit code, findings over time by code. */
export function formatSummaryText(summary: WatchSummary): string {
  const verdict = summary.exitCode === 2 ? 'a round could not run' : summary.exitCode === 1 ? 'FAIL' : 'PASS';
  const codes = Object.entries(summary.counts).sort(([a], [b]) => a.localeCompare(b)).map(([code, n]) => `  ${code}: ${n}`);
  return [
    `watched ${summary.baseUrl}: ${summary.rounds} round${summary.rounds === 1 ? '' : 's'} (${summary.firstRound}–${summary.lastRound}) from ${summary.startedAt} to ${summary.endedAt}; ${summary.failedRounds} could not run`,
    codes.length === 0 ? 'findings over time: none' : 'findings over time:',
    ...codes,
    `${verdict} (exit ${summary.exitCode})`,
  ].join('\n') + '\n';
}

/**
 * JSON lines (one JSON object a line, RFC 8259 text, no line breaks inside): a `round` line per
 * round, then a `finding` line per finding: the crawl's errors and warnings (`over: "crawl"`) and
 * the findings over time (`over: "time"`).
 */
export function formatRoundJsonl(round: WatchRound): string {
  const s = round.report?.summary;
  const head = {
    type: 'round', round: round.round, startedAt: round.startedAt, durationMs: Math.round(round.durationMs), exitCode: round.exitCode,
    ...(round.failure === undefined ? {} : { failure: round.failure }),
    ...(s ? { marketsListed: s.marketsListed, marketsChecked: s.marketsChecked, errors: s.errors, warnings: s.warnings, requests: s.requests } : {}),
    marketsTracked: round.marketsTracked, findingsOverTime: round.findings.length, notes: round.notes,
  };
  const crawl = (round.report?.findings ?? []).filter((f) => f.severity !== 'info').map((f) => ({ type: 'finding', over: 'crawl', round: round.round, severity: f.severity, code: f.code, endpoint: f.endpoint, count: f.count, message: f.message }));
  const time = round.findings.map((f) => ({ type: 'finding', over: 'time', round: round.round, ...f }));
  return [head, ...crawl, ...time].map((o) => JSON.stringify(o)).join('\n') + '\n';
}

/** The summary as the last JSON line (`type: "summary"`), without the last report (it is in the rounds). */
export function formatSummaryJsonl(summary: WatchSummary): string {
  const { lastReport: _report, timeline: _timeline, findings: _findings, ...rest } = summary;
  return `${JSON.stringify({ type: 'summary', ...rest })}\n`;
}
