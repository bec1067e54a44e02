import type { ContractFinding } from '../checks/index.js';
import type { ContractReport } from '../checks/index.js';
import { verdictLine, verdictWord } from './format-text-report.js';
import { markdownCode, markdownText } from './report-display.js';
import { groupFindings, plural, type FindingGroup } from './report-groups.js';

/**
 * Longest markdown report, in characters. GitHub refuses comments over 65,536 characters and
 * shows a job summary up to 1 MiB; 60,000 leaves room for what a CI step adds around it.
 */
export const MARKDOWN_MAX_CHARS = 60_000;
/** Findings listed at most (errors and warnings first); the rest are counted in the note. */
export const MARKDOWN_MAX_FINDINGS = 100;

const ICONS = { error: '❌', warning: '⚠️', info: 'ℹ️' } as const;

function countsTable(report: ContractReport): string[] {
  const s = report.summary;
  return [
    '| Errors | Warnings | Information | Markets listed | Markets requested | Requests |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${s.errors} | ${s.warnings} | ${s.infos} | ${s.marketsListed} | ${s.marketsChecked} | ${s.requests} |`,
  ];
}

/** One finding as a list line: endpoint, pointer, expected, found, count, example markets. */
function findingLine(finding: ContractFinding): string {
  const markets = finding.examples.filter((e) => e.marketId !== undefined).map((e) => markdownCode(e.marketId as string));
  const where = `${markdownText(finding.endpoint)} ${markdownCode(finding.pointer || '/')}`;
  const what = finding.severity === 'info' ? markdownText(finding.message) : `expected ${markdownText(finding.expected)}, found ${markdownCode(finding.found)}`;
  return `  - ${where}: ${what} (×${finding.count}${markets.length > 0 ? `; e.g. ${markets.join(', ')}` : ''})`;
}

function groupLines(group: FindingGroup): string[] {
  return [`- ${ICONS[group.severity]} **${markdownText(group.code)}** (${group.severity}): ${plural(group.findings.length, 'finding')}, ${plural(group.occurrences, 'occurrence')}`, ...group.findings.map(findingLine)];
}

/**
 * The lines of the findings, grouped by severity and code, at most MARKDOWN_MAX_FINDINGS findings
 * (errors and warnings first); information folded in a `<details>` block; and how many were left out.
 */
function findingLines(report: ContractReport): { lines: string[]; left: number } {
  const lines: string[] = [];
  let shown = 0;
  let folded = false;
  for (const group of groupFindings(report)) {
    if (shown >= MARKDOWN_MAX_FINDINGS) break;
    if (group.severity === 'info' && !folded) {
      lines.push('', `<details><summary>Information (${report.summary.infos})</summary>`, '');
      folded = true;
    }
    const kept = group.findings.slice(0, MARKDOWN_MAX_FINDINGS - shown);
    lines.push(...groupLines({ ...group, findings: kept }));
    shown += kept.length;
  }
  if (folded) lines.push('', '</details>');
  return { lines, left: report.findings.length - shown };
}

/** Cuts `lines` to fit `max` characters with the note that follows, on a line boundary. */
function fitLines(lines: readonly string[], max: number, note: (left: number) => string): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = `${lines[i] as string}\n`;
    const tail = note(lines.length - i);
    if (out.length + line.length + tail.length > max) return `${out}${tail}`;
    out += line;
  }
  return out;
}

/**
 * A markdown summary for a CI job summary (`$GITHUB_STEP_SUMMARY`) or a merge-request comment:
 * the verdict line, a counts table, then the findings grouped by severity and code (errors
 * first). Bounded: at most MARKDOWN_MAX_FINDINGS findings and MARKDOWN_MAX_CHARS characters;
 * what is cut is said in a closing note. `report` is displayed (report-display.ts displayReport:
 * values shortened, controls visible); each value is then escaped as prose (markdownText: markup,
 * mentions and math neutralised) or put in a code span (markdownCode).
 */
export function formatMarkdownReport(report: ContractReport): string {
  const icon = { PASS: '✅', FAIL: '❌', 'COULD NOT RUN': '⚠️' }[verdictWord(report)];
  const head = [`### ${icon} market-stub ${report.command}: ${markdownText(verdictLine(report))}`, '', ...countsTable(report), ''];
  const { lines, left } = findingLines(report);
  const body = lines.length === 0 ? ['No finding.'] : ['#### Findings', '', ...lines];
  const cut = (n: number) => `\n_… ${n} more line${n === 1 ? '' : 's'} cut to stay within ${MARKDOWN_MAX_CHARS} characters; the html or json report has everything._\n`;
  const leftNote = left > 0 ? [``, `_${plural(left, 'more finding')} not listed (at most ${MARKDOWN_MAX_FINDINGS}); the html or json report has every one._`] : [];
  const footer = ['', `<sub>market-stub ${markdownText(report.tool.version)} · ${markdownText(report.startedAt)} · ${report.durationMs} ms · ${markdownText(report.baseUrl)}</sub>`];
  return fitLines([...head, ...body, ...leftNote, ...footer], MARKDOWN_MAX_CHARS, cut);
}
