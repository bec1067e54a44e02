import { createHash } from 'node:crypto';
import { displayValue } from '../../floor/display-value.js';
import { htmlText } from '../reports/index.js';
import type { TimelineRound, WatchSummary } from './watch-summary.js';

const STYLE = `
:root{color-scheme:light;--fail:#b42318;--pass:#067647;--warn:#b54708;--line:#e4e7ec;--muted:#667085;--bg:#f9fafb}
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#101828;background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:24px}header{border-radius:10px;padding:18px 22px;color:#fff;margin-bottom:18px}
header.pass{background:var(--pass)}header.fail{background:var(--fail)}header h1{margin:0 0 4px;font-size:26px}header p{margin:0}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin-bottom:18px}h2{margin:0 0 12px;font-size:18px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--muted)}
td.fail{color:var(--fail);font-weight:600}td.warn{color:var(--warn)}.muted{color:var(--muted)}
svg{display:block;width:100%;height:auto}svg .axis{stroke:#98a2b3}svg text{font:11px system-ui,sans-serif;fill:#344054}
svg .s0{stroke:#175cd3}svg .s1{stroke:#b54708}svg .s2{stroke:#067647}svg .s3{stroke:#6941c6}svg .s4{stroke:#c11574}svg .s5{stroke:#0e9384}svg .s6{stroke:#475467}svg .s7{stroke:#b42318}
svg polyline{fill:none;stroke-width:1.5}svg .mark{fill:var(--warn)}
`;

/** The page's Content-Security-Policy: as the check report's (format-html-report.ts), nothing loads or runs; the stylesheet by its hash. */
export const WATCH_HTML_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src data:; base-uri 'none'; form-action 'none'`;

const text = (value: string | number) => htmlText(typeof value === 'string' ? displayValue(value) : value);

/**
 * A watch as one self-contained HTML page: the verdict, the rounds as a timeline (a row per round:
 * its instant, markets, the crawl's errors and warnings, the findings over time), a chart of the
 * yes_price of a sample of markets over the rounds (inline SVG, rounds with findings over time
 * marked), and the findings over time with their evidence. No script, no external resource: the
 * Content-Security-Policy WATCH_HTML_CSP. Every value is displayed (controls visible, shortened)
 * and escaped as HTML text.
 */
export function formatWatchHtml(summary: WatchSummary): string {
  const pass = summary.exitCode === 0;
  const title = `market-stub watch: ${pass ? 'PASS' : 'FAIL'} — ${summary.baseUrl}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${htmlText(WATCH_HTML_CSP)}">`,
    '<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${text(title)}</title><style>${STYLE}</style></head><body><main>`,
    `<header class="${pass ? 'pass' : 'fail'}" role="status"><h1>${pass ? 'PASS' : 'FAIL'}</h1><p>${text(`${summary.baseUrl}: ${summary.rounds} rounds (${summary.firstRound}–${summary.lastRound}), ${summary.failedRounds} could not run, exit ${summary.exitCode}`)}</p></header>`,
    priceChart(summary.timeline),
    timelineSection(summary.timeline),
    findingsSection(summary),
    '</main></body></html>',
    '',
  ].join('\n');
}

function timelineSection(timeline: readonly TimelineRound[]): string {
  const rows = timeline.map((r) => {
    const over = r.overTime.length === 0 ? '<span class="muted">—</span>' : text(r.overTime.join(', '));
    const crawl = r.failure === undefined ? `${r.errors} errors, ${r.warnings} warnings` : `could not run: ${r.failure}`;
    return `<tr><td>${text(r.round)}</td><td>${text(r.startedAt)}</td><td>${text(r.marketsListed)}</td><td class="${r.exitCode === 0 ? '' : 'fail'}">${text(crawl)}</td><td class="${r.overTime.length > 0 ? 'warn' : ''}">${over}</td></tr>`;
  }).join('');
  return `<section id="timeline"><h2>Rounds</h2><table><thead><tr><th>Round</th><th>Started</th><th>Markets listed</th><th>Crawl</th><th>Over time</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** yes_price of the sampled markets (at most 8) over the rounds, one polyline each; rounds with findings over time marked under the axis. */
function priceChart(timeline: readonly TimelineRound[]): string {
  const ids = [...new Set(timeline.flatMap((r) => r.prices.map(([id]) => id)))].slice(0, 8);
  if (ids.length === 0 || timeline.length < 2) return '<section id="prices"><h2>Prices</h2><p class="muted">Fewer than two rounds with prices.</p></section>';
  const [w, h, left, top] = [900, 260, 40, 10];
  const x = (k: number) => left + (k * (w - left - 10)) / (timeline.length - 1);
  const y = (p: number) => top + (1 - p) * (h - top - 30);
  const lines = ids.map((id, s) => {
    const points = timeline.flatMap((r, k) => r.prices.filter(([m]) => m === id).map(([, p]) => `${x(k).toFixed(1)},${y(p).toFixed(1)}`));
    return `<polyline class="s${s}" points="${points.join(' ')}"><title>${text(id)}</title></polyline>`;
  }).join('');
  const marks = timeline.map((r, k) => (r.overTime.length > 0 ? `<rect class="mark" x="${(x(k) - 2).toFixed(1)}" y="${h - 18}" width="4" height="8"><title>${text(`round ${r.round}: ${r.overTime.join(', ')}`)}</title></rect>` : '')).join('');
  const axis = `<line class="axis" x1="${left}" y1="${y(0)}" x2="${w - 10}" y2="${y(0)}"/><line class="axis" x1="${left}" y1="${y(1)}" x2="${left}" y2="${y(0)}"/><text x="4" y="${y(1) + 4}">1.0</text><text x="4" y="${y(0.5) + 4}">0.5</text><text x="4" y="${y(0) + 4}">0.0</text><text x="${left}" y="${h}">round ${timeline[0]?.round ?? ''}</text><text x="${w - 80}" y="${h}">round ${timeline.at(-1)?.round ?? ''}</text>`;
  const legend = ids.map((id, s) => `<span class="muted">${s + 1}. ${text(id)}</span>`).join(' · ');
  return `<section id="prices"><h2>yes_price of ${ids.length} markets over the rounds</h2><svg viewBox="0 0 ${w} ${h}" role="img" aria-label="yes_price over the rounds">${axis}${lines}${marks}</svg><p>${legend}</p></section>`;
}

function findingsSection(summary: WatchSummary): string {
  if (summary.findings.length === 0) return '<section id="findings"><h2>Findings over time</h2><p class="muted">None.</p></section>';
  const rows = summary.findings.map((f) => {
    const evidence = f.examples.map((e) => `${e.marketId === undefined ? '' : `${text(e.marketId)}: `}${text(e.found)} <span class="muted">(${text(e.seen.map((s) => `round ${s.round}${s.at ? ` ${s.at}` : ''}: ${s.value}`).join('; '))})</span>`).join('<br>');
    return `<tr><td>${text(f.round)}</td><td>${text(f.severity)}</td><td>${text(f.code)}</td><td>${text(f.count)}</td><td>${text(f.message)}<br>${evidence}</td></tr>`;
  }).join('');
  const counts = Object.entries(summary.counts).map(([k, n]) => `${text(k)}: ${text(n)}`).join(' · ');
  return `<section id="findings"><h2>Findings over time</h2><p>${counts}</p><table><thead><tr><th>Round</th><th>Severity</th><th>Code</th><th>Count</th><th>What was seen</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
