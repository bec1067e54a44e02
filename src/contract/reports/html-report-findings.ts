import type { ContractFinding, FindingExample, Severity } from '../checks/index.js';
import type { ContractReport } from '../checks/index.js';
import { htmlText as text } from './report-display.js';
import { groupFindings, marketsWithFindings, plural, type FindingGroup } from './report-groups.js';

const HEADINGS: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Information' };
/** Findings rendered at most (errors first); the rest are counted in a note. Distinct findings grow with distinct pointers, so a page stays readable. */
export const HTML_FINDINGS_SHOWN = 1_000;
/** Markets shown in the drill-down at most; the rest are counted (the findings keep three examples each, so this bounds a report of many codes). */
export const HTML_MARKETS_SHOWN = 500;

/** `<dt>`/`<dd>` pairs; rows whose value is undefined are left out. */
function definitions(rows: ReadonlyArray<readonly [string, string | number | undefined]>): string {
  return `<dl>${rows.filter(([, v]) => v !== undefined).map(([k, v]) => `<dt>${text(k)}</dt><dd>${text(v as string | number)}</dd>`).join('')}</dl>`;
}

/** One example of a finding: the market (or request), drillable to what was expected and found. */
function exampleHtml(finding: ContractFinding, example: FindingExample): string {
  const who = example.marketId === undefined ? (example.request ?? 'the response') : `market ${example.marketId}`;
  return `<details class="example"><summary><code>${text(who)}</code> at <code>${text(example.pointer || '/')}</code></summary>`
    + definitions([['expected', finding.expected], ['found', example.found], ['pointer', example.pointer || '/'], ['request', example.request], ['market', example.marketId]])
    + '</details>';
}

/** One aggregated finding: where, expected, found, how often, its examples. */
function findingHtml(finding: ContractFinding): string {
  const head = `<span class="endpoint">${text(finding.endpoint)}</span> <code>${text(finding.pointer || '/')}</code> <span class="times">×${finding.count}</span>`;
  const body = finding.severity === 'info'
    ? `<p>${text(finding.message)}</p>`
    : definitions([['expected', finding.expected], ['found', finding.found], ['occurrences', finding.count]]);
  const examples = finding.severity === 'info' ? '' : finding.examples.map((e) => exampleHtml(finding, e)).join('');
  return `<li class="finding">${head}${body}${examples ? `<div class="examples">${examples}</div>` : ''}</li>`;
}

/** A group of findings sharing severity and code, open when it holds errors. */
function groupHtml(group: FindingGroup): string {
  const markets = group.markets.length === 0 ? '' : ` · markets: ${group.markets.slice(0, 6).map((m) => `<code>${text(m)}</code>`).join(', ')}${group.markets.length > 6 ? ', …' : ''}`;
  const summary = `<span class="badge ${group.severity}">${text(group.severity)}</span> <strong>${text(group.code)}</strong> · ${text(plural(group.findings.length, 'finding'))}, ${text(plural(group.occurrences, 'occurrence'))}${markets}`;
  return `<details class="group ${group.severity}"${group.severity === 'error' ? ' open' : ''}><summary>${summary}</summary><ul>${group.findings.map(findingHtml).join('')}</ul></details>`;
}

/** The findings section: grouped by severity, then code, each group drillable to its findings and examples. */
export function findingsSection(report: ContractReport): string {
  const groups = groupFindings({ findings: report.findings.slice(0, HTML_FINDINGS_SHOWN) });
  const parts: string[] = ['<section id="findings"><h2>Findings</h2>'];
  if (groups.length === 0) parts.push('<p class="empty">No finding.</p>');
  for (const severity of ['error', 'warning', 'info'] as const) {
    const mine = groups.filter((g) => g.severity === severity);
    if (mine.length === 0) continue;
    const n = mine.reduce((sum, g) => sum + g.findings.length, 0);
    parts.push(`<h3 class="${severity}">${text(HEADINGS[severity])} (${n})</h3>`, ...mine.map(groupHtml));
  }
  const left = report.findings.length - HTML_FINDINGS_SHOWN;
  if (left > 0) parts.push(`<p class="note">${left} more findings not shown (at most ${HTML_FINDINGS_SHOWN}); the json report has every one.</p>`);
  parts.push('</section>');
  return parts.join('');
}

/** The markets named by error and warning findings, each drillable to every occurrence kept for it. */
export function marketsSection(report: ContractReport): string {
  const markets = marketsWithFindings(report);
  if (markets.length === 0) return '';
  const shown = markets.slice(0, HTML_MARKETS_SHOWN).map((market) => {
    const rows = market.entries.map((e) => `<tr><td><span class="badge ${e.finding.severity}">${text(e.finding.severity)}</span> ${text(e.finding.code)}</td><td>${text(e.finding.endpoint)}</td><td><code>${text(e.pointer || '/')}</code></td><td>${text(e.finding.expected)}</td><td><code>${text(e.found)}</code></td></tr>`);
    return `<details class="market"><summary><code>${text(market.marketId)}</code> · ${text(plural(market.entries.length, 'problem'))}</summary>`
      + `<table><thead><tr><th>finding</th><th>endpoint</th><th>pointer</th><th>expected</th><th>found</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
  });
  const more = markets.length > HTML_MARKETS_SHOWN ? `<p class="note">${markets.length - HTML_MARKETS_SHOWN} more markets not shown (at most ${HTML_MARKETS_SHOWN}); the json report has every example.</p>` : '';
  return `<section id="markets"><h2>Markets with problems (${markets.length})</h2><p class="note">The examples the findings kept (up to three per finding), by market.</p>${shown.join('')}${more}</section>`;
}
