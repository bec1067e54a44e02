// The reviewer formats through the library (src/index.ts): checkDeployment then
// formatContractReport, secrets kept out, the markdown bound, and SARIF against its schema.
import { readFileSync } from 'node:fs';
import type { Log as SarifLog } from 'sarif';
import { describe, expect, it } from 'vitest';
import { checkDeployment, formatContractReport, MARKDOWN_MAX_CHARS, SARIF_CONTRACT_URI, type ContractFinding, type ContractReport } from '../../src/index.js';
import { parseHeaderFlags } from '../../src/cli/run-check.js';
import { contractLine } from '../../src/contract/reports/format-sarif-report.js';
import { conformingMarkets, withServer } from './deviant-server.js';
import { HOSTILE_ID, SECRET_HEADER, SECRET_VALUE, startHostileDeployment } from './hostile-deployment.js';
import { sarifValidator } from './sarif-schema.js';

/** A report with `n` distinct error findings whose texts are long and hostile (`unit` repeated `repeat` times). */
function reportWithFindings(base: ContractReport, n: number, repeat = 20, unit = '<b>x</b> | '): ContractReport {
  const findings: ContractFinding[] = Array.from({ length: n }, (_, i) => ({
    severity: 'error', code: 'type', endpoint: 'GET /markets', pointer: `/*/field_${i}`, expected: 'number', found: `"${unit.repeat(repeat)}"`,
    message: `/*/field_${i}: expected number`, count: i + 1, examples: [{ marketId: `${HOSTILE_ID}-${i}`, pointer: `/0/field_${i}`, found: '"x"', request: '/markets' }],
  }));
  return { ...base, verdict: 'fail', exitCode: 1, findings, summary: { ...base.summary, errors: n } };
}

describe('formatContractReport (library)', () => {
  it('renders html, markdown and sarif from checkDeployment, with the --header value redacted in every one', async () => {
    const server = await startHostileDeployment();
    try {
      const headers = parseHeaderFlags([SECRET_HEADER]);
      const report = await checkDeployment({ baseUrl: server.url, all: true, headers });
      // The library returns the report already redacted; a report holding the value is redacted by the formatter too.
      const leaky: ContractReport = { ...report, findings: report.findings.map((f) => ({ ...f, found: `${f.found} ${SECRET_VALUE}`, expected: `${f.expected} ${SECRET_VALUE}` })) };
      for (const format of ['html', 'markdown', 'sarif'] as const) {
        const text = formatContractReport(leaky, format, { secrets: [`Bearer ${SECRET_VALUE}`] });
        expect(text.endsWith('\n')).toBe(true);
        for (const form of [SECRET_VALUE, 's3cr3t&amp;', 's3cr3t\\&', JSON.stringify(SECRET_VALUE).slice(1, -1)]) expect(text.includes(form), `${format}: ${form}`).toBe(false);
        expect(text).toContain('[redacted]');
      }
      expect(formatContractReport(report, 'html')).toContain('<h1>FAIL</h1>');
    } finally {
      await server.close();
    }
  });

  it('a passing deployment: PASS first in html and markdown, a SARIF log with no result', async () => {
    await withServer(conformingMarkets(5), undefined, async (server) => {
      const report = await checkDeployment({ baseUrl: server.url, all: true });
      expect(formatContractReport(report, 'html')).toMatch(/<header class="verdict pass" role="status"><h1>PASS<\/h1>/);
      expect(formatContractReport(report, 'markdown').split('\n')[0]).toMatch(/^### ✅ market-stub check: PASS: 0 errors, 0 warnings in 5 markets/);
      const sarif = JSON.parse(formatContractReport(report, 'sarif')) as SarifLog;
      expect(sarifValidator()(sarif)).toBe(true);
      expect(sarif.runs[0]?.results).toEqual([]);
    });
  });

  it('markdown stays within MARKDOWN_MAX_CHARS and html within 1,000 findings and 500 markets however many findings, each saying what it left out', async () => {
    await withServer(conformingMarkets(2), undefined, async (server) => {
      const base = await checkDeployment({ baseUrl: server.url });
      // Each value is shortened to 300 code points, but a control is shown as six characters (\u001b): 100 such findings pass 60,000.
      const md = formatContractReport(reportWithFindings(base, 5_000, 2_000, '\u001b'), 'markdown');
      expect(md.length).toBeLessThanOrEqual(MARKDOWN_MAX_CHARS);
      expect(md).toMatch(/more lines? cut to stay within 60000 characters; the html or json report has everything\._\n$/);
      const few = formatContractReport(reportWithFindings(base, 150), 'markdown');
      expect(few.length).toBeLessThanOrEqual(MARKDOWN_MAX_CHARS);
      expect(few).toContain('_50 more findings not listed (at most 100); the html or json report has every one._');
      // The html page is bounded too: 1,000 findings, 500 markets.
      const html = formatContractReport(reportWithFindings(base, 1_500, 1), 'html');
      expect(html.match(/<li class="finding">/g)).toHaveLength(1_000);
      expect(html).toContain('500 more findings not shown (at most 1000); the json report has every one.');
      expect(html.match(/<details class="market">/g)).toHaveLength(500);
      expect(html).toContain('1000 more markets not shown (at most 500)');
    });
  });

  it('sarif: each result sits on the line of schemas/market.schema.json that defines its field', () => {
    const file = readFileSync(new URL('../../schemas/market.schema.json', import.meta.url), 'utf8');
    // contractLine counts lines of the parsed schema re-indented: true only while the file is written that way.
    expect(file).toBe(`${JSON.stringify(JSON.parse(file), null, 2)}\n`);
    const lines = file.split('\n');
    const lineOf = (severity: 'error' | 'warning', endpoint: ContractFinding['endpoint'], pointer: string) => lines[contractLine({ severity, endpoint, pointer }) - 1]?.trim();
    expect(lineOf('error', 'GET /markets', '/markets/*/yes_price')).toBe('"yes_price": {');
    expect(contractLine({ severity: 'error', endpoint: 'GET /markets', pointer: '/*/yes_price' })).toBeLessThan(contractLine({ severity: 'error', endpoint: 'GET /markets/{market_id}', pointer: '/yes_price' }));
    expect(lineOf('error', 'GET /markets/{market_id}', '/resolution_date')).toBe('"resolution_date": {');
    expect(lineOf('warning', 'GET /markets/{market_id}', '/status')).toBe('"status": {');
    expect(lineOf('warning', 'GET /markets', '/*')).toBe('"MarketAssumptions": {');
    expect(lineOf('error', 'GET /markets/{market_id}', '')).toBe('"Market": {');
  });

  it('sarif: the schema refuses a broken log, and options.contractUri moves every result', async () => {
    await withServer(conformingMarkets(2), undefined, async (server) => {
      const report = reportWithFindings(await checkDeployment({ baseUrl: server.url }), 3);
      const validate = sarifValidator();
      const log = JSON.parse(formatContractReport(report, 'sarif', { sarif: { contractUri: 'contracts/market.schema.json' } })) as SarifLog;
      expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
      expect(log.runs[0]?.results?.map((r) => r.locations?.[0]?.physicalLocation?.artifactLocation?.uri)).toEqual(Array(3).fill('contracts/market.schema.json'));
      expect(SARIF_CONTRACT_URI).toBe('node_modules/market-stub/schemas/market.schema.json');
      const broken = structuredClone(log) as unknown as { runs: Array<{ results: Array<Record<string, unknown>> }> };
      (broken.runs[0]?.results[0] as Record<string, unknown>)['level'] = 'fatal';
      expect(validate(broken)).toBe(false);
      expect(validate({ ...log, version: '2.2.0' })).toBe(false);
    });
  });
});
