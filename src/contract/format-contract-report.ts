import type { ContractReport } from './contract-report.js';
import { formatJunitReport } from './format-junit-report.js';
import { formatTextReport } from './format-text-report.js';

/** Report formats of check, record and proxy. */
export const REPORT_FORMATS = ['text', 'json', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** How a report is rendered. */
export interface FormatOptions {
  /** ANSI colours in the text format (a terminal without NO_COLOR). @default false */
  colour?: boolean;
  /**
   * Values that must never appear in a report (the --header values): each occurrence is replaced
   * by `[redacted]`, in case a deployment echoes a token back in a body.
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
  return redactSecrets(text, options.secrets ?? []);
}

/**
 * Replaces every occurrence of each secret (and its JSON-escaped form) with `[redacted]`. Secrets
 * shorter than 4 characters are left alone: they would match ordinary text and hide findings.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out = out.replaceAll(secret, '[redacted]');
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = out.replaceAll(escaped, '[redacted]');
  }
  return out;
}
