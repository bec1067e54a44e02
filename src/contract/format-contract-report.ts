import { createRedactor } from '../core/redact-secrets.js';
import type { ContractReport } from './contract-report.js';
import type { ReportFormat } from './report-formats.js';
import { formatJunitReport } from './format-junit-report.js';
import { formatTextReport } from './format-text-report.js';

export { REPORT_FORMATS, type ReportFormat } from './report-formats.js';

/** How a report is rendered. */
export interface FormatOptions {
  /** ANSI colours in the text format (a terminal without NO_COLOR). @default false */
  colour?: boolean;
  /**
   * Values that must never appear in a report (the --header values): every form of each (escaped,
   * truncated, without its auth scheme) is replaced by `[redacted]` (core/redact-secrets.ts).
   */
  secrets?: readonly string[];
}

/**
 * Renders a report as `text` (for people), `json` (the versioned shape of docs/contract-check.md,
 * 2-space indented) or `junit` (XML for CI). Every format ends with a newline.
 */
export function formatContractReport(report: ContractReport, format: ReportFormat, options: FormatOptions = {}): string {
  const text = format === 'json'
    ? `${JSON.stringify(report, null, 2)}\n`
    : format === 'junit'
      ? formatJunitReport(report)
      : formatTextReport(report, options.colour ?? false);
  return createRedactor(options.secrets ?? []).redact(text);
}
