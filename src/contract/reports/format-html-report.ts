import { createHash } from 'node:crypto';
import { listShapeLabel, type ContractReport } from '../checks/index.js';
import { htmlText as text } from './report-display.js';
import { verdictLine, verdictWord } from './format-text-report.js';
import { chartsSection } from './html-report-charts.js';
import { findingsSection, marketsSection } from './html-report-findings.js';

const STYLE = `
:root{color-scheme:light;--fail:#b42318;--pass:#067647;--warn:#b54708;--info:#175cd3;--line:#e4e7ec;--muted:#667085;--bg:#f9fafb}
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#101828;background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:24px}
header.verdict{border-radius:10px;padding:18px 22px;color:#fff;margin-bottom:18px}
header.verdict.pass{background:var(--pass)}header.verdict.fail{background:var(--fail)}
header.verdict h1{margin:0 0 4px;font-size:28px;letter-spacing:.02em}header.verdict p{margin:0;opacity:.95}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin-bottom:18px}
h2{margin:0 0 12px;font-size:18px}h3{margin:16px 0 8px;font-size:15px}h3.error{color:var(--fail)}h3.warning{color:var(--warn)}h3.info{color:var(--info)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--muted);font-weight:600}
.tiles{display:grid;grid-template-columns:repeat(6,1fr);gap:10px;margin-bottom:14px}.tile{border:1px solid var(--line);border-radius:8px;padding:8px 12px}
.tile b{display:block;font-size:24px;font-variant-numeric:tabular-nums}.tile span{color:var(--muted);font-size:12.5px}
.tile.error b{color:var(--fail)}.tile.warning b{color:var(--warn)}.tile.info b{color:var(--info)}table.facts th{width:180px}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f2f4f7;padding:1px 4px;border-radius:4px;word-break:break-all}
details{border:1px solid var(--line);border-radius:8px;margin:8px 0;padding:6px 10px}details>summary{cursor:pointer}
details.group.error{border-left:4px solid var(--fail)}details.group.warning{border-left:4px solid var(--warn)}details.group.info{border-left:4px solid var(--info)}
details.example{margin:4px 0;background:var(--bg)}
ul{padding-left:18px}li.finding{margin:10px 0}.endpoint{font-weight:600}.times{color:var(--muted)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}dt{color:var(--muted)}dd{margin:0;word-break:break-word}
.badge{display:inline-block;border-radius:999px;padding:0 8px;font-size:12px;font-weight:600;color:#fff}.badge.error{background:var(--fail)}.badge.warning{background:var(--warn)}.badge.info{background:var(--info)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(440px,1fr));gap:16px}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:10px}figcaption{display:flex;flex-direction:column;margin-bottom:6px}figcaption span{color:var(--muted);font-size:12.5px}
svg.chart{display:block;width:100%;height:auto;max-width:420px}svg .bar{fill:#98a2b3}svg .bar.expected{fill:var(--pass)}svg .axis{stroke:#98a2b3}
svg text{font:11px system-ui,sans-serif;fill:#344054;text-anchor:middle}svg text.label{fill:var(--muted)}
.empty,.note{color:var(--muted)}footer{color:var(--muted);font-size:12px;text-align:center;padding:8px}
`;

/**
 * The page's Content-Security-Policy: nothing may load or run (no script, no request, no form,
 * no base URL), images only as data: URIs, and the one stylesheet only by its SHA-256 hash (no
 * 'unsafe-inline': a style injected past the escaping would not apply either). The report works
 * offline and a hostile value in it can do nothing (W3C Content Security Policy Level 3,
 * `default-src` and hash-source).
 */
export const HTML_REPORT_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src data:; base-uri 'none'; form-action 'none'`;

/** The verdict first: PASS, FAIL or COULD NOT RUN in colour, the verdict line, and what was checked. */
function verdictHeader(report: ContractReport): string {
  const word = verdictWord(report);
  return `<header class="verdict ${report.verdict}" role="status"><h1>${word}</h1><p>${text(verdictLine(report))}</p></header>`;
}

/** The counts table and the run's facts (list shape, paging, probe). */
function summarySection(report: ContractReport): string {
  const s = report.summary;
  const tiles: Array<[string, number, string]> = [
    ['Errors', s.errors, 'error'], ['Warnings', s.warnings, 'warning'], ['Information', s.infos, 'info'],
    ['Markets listed', s.marketsListed, ''], ['Requested one by one', s.marketsChecked, ''], [report.command === 'proxy' ? 'Answers checked' : 'Requests', s.requests, ''],
  ];
  const facts: Array<[string, string | undefined]> = [
    ['Command', `market-stub ${report.command}${report.strict ? ' --strict' : ''}`],
    ['Deployment', report.baseUrl],
    ['Started', report.startedAt],
    ['Duration', `${report.durationMs} ms${report.timing ? ` (list ${report.timing.listMs} ms, markets ${report.timing.marketsMs} ms)` : ''}`],
    ['List', `${listShapeLabel(report.list)}, ${report.list.pages} page(s), paging ${report.list.paging}${report.list.complete ? '' : ', not seen whole'}`],
    ['Redirected to', report.list.redirectedTo],
    ['Unknown id probe', report.probe ? `${report.probe.request}: ${report.probe.status ?? report.probe.failure ?? ''} ${report.probe.body ?? ''}`.trim() : undefined],
  ];
  const counts = tiles.map(([k, v, kind]) => `<div class="tile${v > 0 && kind ? ` ${kind}` : ''}"><b>${text(v)}</b><span>${text(k)}</span></div>`).join('');
  const factRows = facts.filter(([, v]) => v !== undefined).map(([k, v]) => `<tr><th>${text(k)}</th><td>${text(v as string)}</td></tr>`).join('');
  return `<section id="summary"><h2>Summary</h2><div class="tiles">${counts}</div><table class="facts"><tbody>${factRows}</tbody></table></section>`;
}

/**
 * The report as one self-contained HTML page for reviewers: the verdict first, the counts, the
 * charts (inline SVG: price distribution, yes + no sum, response times per endpoint), the findings
 * grouped by severity and code, and the markets with problems, each drillable (`<details>`) to
 * what was expected and found. No script, no external resource: a strict Content-Security-Policy
 * in a meta element (HTML_REPORT_CSP; the stylesheet allowed by its hash). `report` is displayed
 * (report-display.ts displayReport: values shortened, controls and bidi characters visible) and
 * every value is escaped as HTML text (htmlText); secrets are redacted by formatContractReport
 * before and after rendering.
 */
export function formatHtmlReport(report: ContractReport): string {
  const title = `market-stub ${report.command}: ${verdictWord(report)} — ${report.baseUrl}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${text(HTML_REPORT_CSP)}">`,
    '<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${text(title)}</title><style>${STYLE}</style></head>`,
    '<body><main>',
    verdictHeader(report),
    summarySection(report),
    chartsSection(report.distributions),
    findingsSection(report),
    marketsSection(report),
    `<footer>market-stub ${text(report.tool.version)} · report version ${text(report.reportVersion)}</footer>`,
    '</main></body></html>',
    '',
  ].join('\n');
}
