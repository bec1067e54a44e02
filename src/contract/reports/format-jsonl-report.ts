import type { ContractReport } from '../checks/index.js';
import { escapeInvisiblesInJson } from '../../floor/display-value.js';

/**
 * A report as JSON lines (one JSON text a line, RFC 8259, no line break inside one): a `finding`
 * line per finding (its severity, code, endpoint, pointer, count, message, expected, found), then
 * one `report` line (the verdict, exit code, summary, base URL, instant). For log pipelines
 * (Loki, Elasticsearch, `jq -c`); the values are exact, as in `json`, with invisible characters
 * written `\uXXXX` (escapeInvisiblesInJson), so no line can drive a terminal or split.
 */
export function formatJsonlReport(report: ContractReport): string {
  const findings = report.findings.map((f) => ({ type: 'finding', severity: f.severity, code: f.code, endpoint: f.endpoint, pointer: f.pointer, count: f.count, message: f.message, expected: f.expected, found: f.found }));
  const head = { type: 'report', command: report.command, baseUrl: report.baseUrl, startedAt: report.startedAt, durationMs: report.durationMs, verdict: report.verdict, exitCode: report.exitCode, summary: report.summary };
  return [...findings, head].map((o) => escapeInvisiblesInJson(JSON.stringify(o))).join('\n') + '\n';
}
