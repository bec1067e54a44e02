import path from 'node:path';
import { ContractRunError } from '../contract/index.js';
import { REPORT_FORMATS, type ReportFormat } from '../floor/vocabulary.js';

/** One report file to write: its format and path. */
export interface ReportTarget {
  format: ReportFormat;
  path: string;
}

/** How a `--report` value names its format: a lower-case word of two letters or more, then a colon (`html:out.html`; `C:\x` is a path). */
const FORMAT_PREFIX = /^([a-z][a-z0-9-]+):(.*)$/s;

/**
 * Reads `--report` values: `FORMAT:PATH` (`junit:out.xml`, `html:reports/check.html`), or a bare
 * PATH written in `fallback` (the --format value). Checked before anything starts, so a typo never
 * costs a crawl.
 * @param others paths already written by another option (--output), refused as duplicates.
 * @throws ContractRunError OPTION_INVALID naming the option (`--report`, `MARKET_STUB_REPORT`), the
 *   value and what to give instead: an unknown format, a missing path, or a path given twice.
 */
export function parseReportTargets(raw: unknown, fallback: ReportFormat, origin = '--report', others: readonly string[] = []): ReportTarget[] {
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
  const how = `Give FORMAT:PATH with FORMAT one of ${REPORT_FORMATS.join(', ')} (e.g. ${origin === '--report' ? '--report ' : `${origin}=`}html:report.html)`;
  const seen = new Set(others.map((p) => path.resolve(p)));
  return values.map((value) => {
    const match = FORMAT_PREFIX.exec(value);
    const format = match ? match[1] as string : fallback;
    const file = (match ? match[2] as string : value).trim();
    if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
      throw new ContractRunError('OPTION_INVALID', `${origin} ${JSON.stringify(value)}: unknown report format ${JSON.stringify(format)}. ${how}; write ./${value} for a file of that name.`);
    }
    if (file === '') throw new ContractRunError('OPTION_INVALID', `${origin} ${JSON.stringify(value)}: no path after "${format}:". ${how}.`);
    const resolved = path.resolve(file);
    if (seen.has(resolved)) throw new ContractRunError('OPTION_INVALID', `${origin} ${JSON.stringify(value)}: ${file} is already written by another report; give each report its own path.`);
    seen.add(resolved);
    return { format: format as ReportFormat, path: file };
  });
}
