import { createRedactor } from '../../floor/redact-secrets.js';
import type { ContractReport } from '../checks/index.js';
import type { ReportFormat } from '../../floor/vocabulary.js';
import { formatHtmlReport } from './format-html-report.js';
import { formatJunitReport } from './format-junit-report.js';
import { formatMarkdownReport } from './format-markdown-report.js';
import { formatSarifReport, type SarifOptions } from './format-sarif-report.js';
import { formatTextReport } from './format-text-report.js';
import { displayReport, jsonReportText } from './report-display.js';
import { formatJsonlReport } from './format-jsonl-report.js';

export { REPORT_FORMATS, type ReportFormat } from '../../floor/vocabulary.js';

/** How a report is rendered. */
export interface FormatOptions {
  /** ANSI colours in the text format (a terminal without NO_COLOR). @default false */
  colour?: boolean;
  /**
   * Values that must never appear in a report (the --header values): every form of each (escaped,
   * truncated, without its auth scheme) is replaced by `[redacted]` (floor/redact-secrets.ts).
   */
  secrets?: readonly string[];
  /** The sarif format's repository-relative contract path (format-sarif-report.ts). */
  sarif?: SarifOptions;
}

/**
 * The formatters by format: each takes the (already redacted) report; every format but json
 * takes it as displayed (report-display.ts displayReport: values shortened, controls visible).
 */
const FORMATTERS: Record<ReportFormat, (report: ContractReport, options: FormatOptions) => string> = {
  text: (report, options) => formatTextReport(displayReport(report), options.colour ?? false),
  json: (report) => jsonReportText(report),
  jsonl: (report) => formatJsonlReport(report),
  junit: (report) => formatJunitReport(displayReport(report)),
  html: (report) => formatHtmlReport(displayReport(report)),
  markdown: (report) => formatMarkdownReport(displayReport(report)),
  sarif: (report, options) => formatSarifReport(displayReport(report), options.sarif),
};

/**
 * Renders a report as `text` (for people), `json` (the versioned shape of docs/contract-check.md,
 * 2-space indented), `jsonl` (a line per finding, then a summary line, for log pipelines), `junit` (XML for CI), `html` (one self-contained page for reviewers),
 * `markdown` (a CI job summary or merge-request comment, bounded) or `sarif` (SARIF 2.1.0 for code
 * scanning); docs/reports.md says what each is for. Every format ends with a newline. The secrets
 * are redacted from the report's values before rendering (so no escaping of the format hides one)
 * and from the text after. Every value from the deployment goes through one escaping layer
 * (report-display.ts): json keeps values exact (DEL, C1, bidi and zero-width characters written
 * `\uXXXX`); the others shorten each to DISPLAY_VALUE_MAX code points and show its controls
 * (`\n`, `\u001b`, `\u202e`), then escape it for their syntax (Markdown, HTML, XML, URI).
 */
export function formatContractReport(report: ContractReport, format: ReportFormat, options: FormatOptions = {}): string {
  const redactor = createRedactor(options.secrets ?? []);
  const clean = redactor.active ? redactor.redactValue(report) : report;
  return redactor.redact(FORMATTERS[format](clean, options));
}
