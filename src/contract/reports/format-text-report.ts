import { listShapeLabel, SEVERITY_ORDER, type ContractFinding, type Severity } from '../checks/index.js';
import type { ContractReport } from '../checks/index.js';
import { quoted } from './report-display.js';
import { plural } from './report-groups.js';

const HEADINGS: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Information' };
const MARKS: Record<Severity, string> = { error: '✖', warning: '▲', info: '•' };
const COLOURS = { error: 'red', warning: 'yellow', info: 'cyan' } as const;
const VERDICT_COLOURS = { PASS: 'green', FAIL: 'red', 'COULD NOT RUN': 'yellow' } as const;
/** SGR parameters (ECMA-48 §8.3.117) of the styles the report uses. */
const SGR = { bold: 1, red: 31, green: 32, yellow: 33, cyan: 36 } as const;
type Style = keyof typeof SGR;
type Paint = (styles: Style | readonly Style[], text: string) => string;

/**
 * Colours `text` with SGR sequences and ends it with SGR 0, the full reset: whatever attribute
 * was set before (by the report or by anything else on the terminal) is off after it.
 */
function sgr(styles: Style | readonly Style[], text: string): string {
  const codes = (typeof styles === 'string' ? [styles] : styles).map((style) => SGR[style]);
  return `\u001b[${codes.join(';')}m${text}\u001b[0m`;
}

/**
 * The report for people: a heading line, findings grouped by severity (errors, warnings,
 * information), each with its count and up to three examples, and a one-line verdict at the end:
 * `FAIL: 3 errors, 1 warning in 250 markets (list + 50 items) against http://…`.
 * `colour` adds ANSI colours (callers pass true only for a terminal without NO_COLOR), each
 * ended by a full reset (SGR 0). `report` is displayed (report-display.ts displayReport): no value
 * holds a line break or a control, so every line is the report's own.
 */
export function formatTextReport(report: ContractReport, colour = false): string {
  const paint: Paint = (styles, text) => (colour ? sgr(styles, text) : text);
  const lines: string[] = [];
  lines.push(paint('bold', `market-stub ${report.command} ${report.baseUrl}`) + ` · ${describeList(report)}`);
  for (const severity of SEVERITY_ORDER) {
    const group = report.findings.filter((f) => f.severity === severity);
    if (group.length === 0) continue;
    lines.push('', paint(['bold', COLOURS[severity]], `${HEADINGS[severity]} (${group.length})`));
    for (const finding of group) lines.push(...findingLines(finding, paint));
  }
  const verdict = verdictLine(report);
  lines.push('', paint(['bold', VERDICT_COLOURS[verdictWord(report)]], verdict));
  return `${lines.join('\n')}\n`;
}

/** The finding a run stopped by a refusal reports (could-not-run-report.ts), if this is such a run. */
function refusalOf(report: ContractReport): ContractFinding | undefined {
  return report.findings.find((finding) => finding.code === 'could-not-run');
}

/**
 * The verdict in one word for people: `PASS`, `FAIL`, or `COULD NOT RUN` when the deployment refused
 * to be judged (401/403, an announced outage: one `could-not-run` finding, exit 2), which is no
 * judgement of its contract.
 */
export function verdictWord(report: ContractReport): 'PASS' | 'FAIL' | 'COULD NOT RUN' {
  if (refusalOf(report)) return 'COULD NOT RUN';
  return report.verdict === 'pass' ? 'PASS' : 'FAIL';
}

/**
 * `PASS: 0 errors, 2 warnings in 250 markets (list + 50 items) against http://…`; for a refused run
 * `COULD NOT RUN against http://…: ` and the refusal's sentence (cause, request, what to do).
 */
export function verdictLine(report: ContractReport): string {
  const { errors, warnings, marketsListed, marketsChecked } = report.summary;
  const strict = report.strict && warnings > 0 ? ' (--strict: warnings fail)' : '';
  const where = report.command === 'proxy' ? `via the proxy to ${report.baseUrl}` : `against ${report.baseUrl}`;
  const refusal = refusalOf(report);
  if (refusal) return `COULD NOT RUN ${where}: ${refusal.found}`;
  const incomplete = report.command !== 'proxy' && !report.list.complete ? '; the list was not seen whole' : '';
  return `${verdictWord(report)}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(marketsListed, 'market')} (list + ${plural(marketsChecked, 'item')}) ${where}${strict}${incomplete}`;
}

function findingLines(finding: ContractFinding, paint: Paint): string[] {
  const mark = paint(COLOURS[finding.severity], MARKS[finding.severity]);
  if (finding.severity === 'info') {
    const count = finding.code === 'undocumented-field' ? ` ×${finding.count}` : '';
    return [`  ${mark} ${finding.endpoint} [${finding.code}] ${finding.message}${count}`];
  }
  const lines = [`  ${mark} ${finding.endpoint} ${finding.pointer || '/'} [${finding.code}]: expected ${finding.expected}, found ${finding.found}`];
  const examples = finding.examples
    .map((e) => [e.marketId === undefined ? undefined : `market ${quoted(e.marketId)}`, e.pointer && e.pointer !== finding.pointer ? `at ${e.pointer}` : undefined, e.request && !e.marketId ? `(${e.request})` : undefined].filter(Boolean).join(' '))
    .filter((text) => text !== '');
  lines.push(`      ${plural(finding.count, 'occurrence')}${examples.length > 0 ? `, e.g. ${examples.join('; ')}` : ''}`);
  return lines;
}

function describeList(report: ContractReport): string {
  const { list, summary } = report;
  if (report.command === 'proxy') return `${plural(summary.requests, 'response')} seen`;
  const shape = listShapeLabel(list);
  const dialect = list.dialect === undefined ? '' : ` (${list.dialect})`;
  return `${shape}, ${plural(list.pages, 'page')}${dialect}, ${plural(summary.marketsListed, 'market')} listed, ${summary.marketsChecked} requested one by one`;
}
