import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import { fnv1a } from '../../floor/text-hash.js';
import { loadMarketSchema } from '../../schema/market-schema.js';
import type { ContractFinding } from '../checks/index.js';
import type { ContractReport } from '../checks/index.js';
import { checkOfCode } from '../../floor/finding-codes.js';
import { jsonReportText, quoted, uriReference, uriText } from './report-display.js';

/**
 * Where SARIF results point by default: the contract (market-stub's JSON Schema of a market) as
 * `npm ci` places it in the repository that runs the check. GitHub code scanning keeps only
 * results with a repository-relative physical location (it refuses `http:` URIs), and a
 * deployment finding has no source line: the clause of the contract it breaks is its location.
 */
export const SARIF_CONTRACT_URI = 'node_modules/market-stub/schemas/market.schema.json';
/** The base id of the deployment's URIs in relatedLocations (SARIF 2.1.0 §3.14.14 originalUriBaseIds). */
export const SARIF_DEPLOYMENT_BASE = 'DEPLOYMENT';

/** Results written at most (errors first): GitHub code scanning reads 25,000 results per run and drops the rest. */
export const SARIF_MAX_RESULTS = 25_000;

/** How a SARIF report names things outside the report. */
export interface SarifOptions {
  /** The repository-relative path of the contract file results point at. @default SARIF_CONTRACT_URI */
  contractUri?: string;
}

let schemaLines: string[] | undefined;

/**
 * The line of the contract a finding breaks, in schemas/market.schema.json (which is its parsed
 * document with 2-space indentation, as a test checks): the field's property in `$defs/Market`
 * (single answers) or `$defs/MarketSummary` (the list), in `$defs/MarketAssumptions` for a warning
 * that has it there; else the first of those definitions' own line (1 when there is none).
 */
export function contractLine(f: Pick<ContractFinding, 'severity' | 'endpoint' | 'pointer'>): number {
  schemaLines ??= JSON.stringify(loadMarketSchema(), null, 2).split('\n');
  const lines = schemaLines;
  const field = f.pointer.split('/').filter((s) => s !== '' && s !== '*' && !/^\d+$/.test(s)).pop();
  const defs = [...(f.severity === 'warning' ? ['MarketAssumptions'] : []), f.endpoint.includes('{') ? 'Market' : 'MarketSummary'];
  const starts = defs.map((def) => lines.indexOf(`    "${def}": {`)).filter((start) => start !== -1);
  for (const start of starts) {
    const end = lines.findIndex((line, i) => i > start && /^ {4}"/.test(line));
    const at = field === undefined ? -1 : lines.slice(start, end === -1 ? undefined : end).indexOf(`        "${field}": {`);
    if (at !== -1) return start + at + 1;
  }
  return starts[0] === undefined ? 1 : starts[0] + 1;
}

/** One rule per finding code seen: its check, level and what it expects (SARIF §3.49 reportingDescriptor). */
function rulesOf(findings: readonly ContractFinding[]): ReportingDescriptor[] {
  const rules = new Map<string, ReportingDescriptor>();
  for (const f of findings) {
    if (rules.has(f.code)) continue;
    rules.set(f.code, {
      id: f.code,
      name: `${checkOfCode(f.code)}/${f.code}`,
      shortDescription: { text: `market-stub contract check "${checkOfCode(f.code)}": ${f.code}` },
      fullDescription: { text: `Expected ${f.expected}.` },
      defaultConfiguration: { level: f.severity === 'error' ? 'error' : 'warning' },
      properties: { check: checkOfCode(f.code) },
    });
  }
  return [...rules.values()];
}

/** The examples as related locations: the request on the deployment, with what was found there. */
function relatedLocations(f: ContractFinding): Location[] {
  return f.examples.map((e, i) => ({
    id: i + 1,
    ...(e.request ? { physicalLocation: { artifactLocation: { uri: uriReference(e.request), uriBaseId: SARIF_DEPLOYMENT_BASE } } } : {}),
    message: { text: `${e.marketId === undefined ? '' : `market ${quoted(e.marketId)} `}at ${e.pointer || '/'}: found ${e.found}` },
  }));
}

/** One result per error or warning finding (information findings are not problems and are counted in the run's properties). */
function resultOf(f: ContractFinding, ruleIndex: number, contractUri: string): Result {
  const markets = f.examples.flatMap((e) => (e.marketId === undefined ? [] : [quoted(e.marketId)]));
  return {
    ruleId: f.code,
    ruleIndex,
    level: f.severity === 'error' ? 'error' : 'warning',
    message: { text: `${f.endpoint} ${f.pointer || '/'}: expected ${f.expected}, found ${f.found} (${f.count} occurrence${f.count === 1 ? '' : 's'}${markets.length > 0 ? `; e.g. market ${markets.join(', ')}` : ''}).` },
    locations: [{
      physicalLocation: { artifactLocation: { uri: contractUri }, region: { startLine: contractLine(f) } },
      logicalLocations: [{ fullyQualifiedName: `${f.endpoint} ${f.pointer || '/'}`, kind: 'member' }],
    }],
    relatedLocations: relatedLocations(f),
    // Stable across runs (code, endpoint, pointer template), so code scanning tracks one alert per finding.
    partialFingerprints: { 'marketStubFinding/v1': fnv1a(`${f.code}\u0000${f.endpoint}\u0000${f.pointer}`).toString(16) },
    properties: { endpoint: f.endpoint, pointer: f.pointer, expected: f.expected, found: f.found, count: f.count },
  };
}

/** Each `undocumented-field` finding in words: endpoint, place, occurrences and the bounded sample of names (`found`); never the whole list (JSON only). */
function undocumentedSummary(report: ContractReport): Array<{ endpoint: string; pointer: string; occurrences: number; found: string }> {
  return report.findings.filter((f) => f.code === 'undocumented-field').map((f) => ({ endpoint: f.endpoint, pointer: f.pointer, occurrences: f.count, found: f.found }));
}

/**
 * The report as a SARIF 2.1.0 log (OASIS SARIF v2.1.0) for code scanning: one run, one rule per
 * finding code, one result per error or warning finding located at the contract file
 * (`options.contractUri`) on the line of the field it is about (contractLine), with the endpoint
 * and pointer as its logical location and the examples' requests as related locations on the
 * deployment (`DEPLOYMENT`, the report's base URL, never a credential). `automationDetails.id` is
 * `market-stub/<command>/`, the category code scanning keeps apart. At most SARIF_MAX_RESULTS
 * results (`properties.resultsLeftOut` counts the rest). 2-space indented, ending in a newline.
 * `report` is displayed (report-display.ts displayReport: values shortened, controls visible);
 * the requests become RFC 3986 relative references (uriReference), the base URL a `uri` (uriText).
 */
export function formatSarifReport(report: ContractReport, options: SarifOptions = {}): string {
  const problems = report.findings.filter((f) => f.severity !== 'info').slice(0, SARIF_MAX_RESULTS);
  const rules = rulesOf(problems);
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const contractUri = options.contractUri ?? SARIF_CONTRACT_URI;
  const log: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'market-stub', version: report.tool.version, semanticVersion: report.tool.version, rules } },
      automationDetails: { id: `market-stub/${report.command}/` },
      originalUriBaseIds: { [SARIF_DEPLOYMENT_BASE]: { uri: uriText(`${report.baseUrl.replace(/\/+$/, '')}/`), description: { text: 'The deployment checked.' } } },
      invocations: [{
        executionSuccessful: report.exitCode !== 2,
        exitCode: report.exitCode,
        startTimeUtc: report.startedAt,
        endTimeUtc: new Date(Date.parse(report.startedAt) + report.durationMs).toISOString(),
        properties: { verdict: report.verdict, strict: report.strict, summary: report.summary },
      }],
      results: problems.map((f) => resultOf(f, index.get(f.code) ?? 0, contractUri)),
      // Undocumented members are information, not results; their bounded summary (count, sample of names, where) rides in the run's properties.
      properties: { informationFindings: report.summary.infos, resultsLeftOut: report.summary.errors + report.summary.warnings - problems.length, undocumentedMembers: undocumentedSummary(report) },
    }],
  };
  return jsonReportText(log);
}
