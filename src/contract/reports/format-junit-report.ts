import { createRequire } from 'node:module';
import type { create as Create } from 'xmlbuilder2';
import { LIST_ENDPOINT, SINGLE_ENDPOINT, type ContractEndpoint, type ContractFinding } from '../checks/index.js';
import { CONTRACT_CHECKS, checkOfCode } from '../../floor/finding-codes.js';
import type { ContractReport } from '../checks/index.js';
import { quoted, xmlValue } from './report-display.js';

// xmlbuilder2 (CommonJS, slow to load: bench/README.md "Figures behind the code's comments") is
// required only when a JUnit report is written, so `serve` and text/json checks never load it.
let xmlCreate: typeof Create | undefined;
/** An XML 1.0 document whose builder replaces any character XML 1.0 forbids (C0 but TAB, LF, CR; U+FFFE, U+FFFF; lone surrogates) with U+FFFD. */
function create() {
  xmlCreate ??= (createRequire(import.meta.url)('xmlbuilder2') as { create: typeof Create }).create;
  return xmlCreate({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\ufffd' });
}

type XmlNode = ReturnType<typeof Create>;

/** A child element of `parent`; its attribute values and text pass through xmlValue (report-display.ts), so each reads back exactly. */
function child(parent: XmlNode, name: string, attributes: Record<string, string> = {}, text?: string): XmlNode {
  const el = parent.ele(name, Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, xmlValue(value)])));
  if (text !== undefined) el.txt(xmlValue(text));
  return el;
}

/**
 * JUnit XML (the Ant/Jenkins schema most CI systems read), written with xmlbuilder2: one
 * `<testsuite>` per endpoint, a `<testcase>` per check and endpoint; a check with findings has one
 * testcase per error or warning finding instead. Each error (and, with --strict, each warning) is
 * a `<failure>`, so the failure count equals the report's error count (plus warnings when strict).
 * Information findings go to the suite's `<system-out>`. `report` is displayed (report-display.ts
 * displayReport) and every value written through xmlValue: the file is well-formed XML 1.0 and
 * each value reads back as displayed, whatever the deployment sent.
 *
 * Times: every check of an endpoint runs on the same answers as they stream in, so a testcase's
 * `time` is its endpoint's phase (report.timing: the list pages, or the single markets), the
 * suite's the same, and `<testsuites>` the whole run, in seconds.
 */
export function formatJunitReport(report: ContractReport): string {
  const seconds = (report.durationMs / 1000).toFixed(3);
  const phase = (endpoint: ContractEndpoint) => ((endpoint === LIST_ENDPOINT ? report.timing?.listMs : report.timing?.marketsMs) ?? report.durationMs) / 1000;
  const suites = ([LIST_ENDPOINT, SINGLE_ENDPOINT] as const).map((endpoint) => suiteCases(report, endpoint));
  const total = suites.reduce((n, s) => n + s.cases.length, 0);
  const failures = suites.reduce((n, s) => n + s.cases.filter((c) => c.failure).length, 0);
  const root = child(create(), 'testsuites', {
    name: `market-stub ${report.command}`, tests: String(total), failures: String(failures), errors: '0', time: seconds,
  });
  for (const suite of suites) {
    const time = phase(suite.endpoint).toFixed(3);
    const el = child(root, 'testsuite', {
      name: `${suite.endpoint}`, tests: String(suite.cases.length), failures: String(suite.cases.filter((c) => c.failure).length),
      errors: '0', skipped: '0', time, timestamp: report.startedAt.slice(0, 19),
    });
    const props = child(el, 'properties');
    for (const [name, value] of [['baseUrl', report.baseUrl], ['reportVersion', String(report.reportVersion)], ['strict', String(report.strict)], ['verdict', report.verdict], ['paging', report.list.dialect ?? report.list.paging]] as const) {
      child(props, 'property', { name, value });
    }
    for (const c of suite.cases) {
      const tc = child(el, 'testcase', { classname: `market-stub.${report.command}.${suite.endpoint}`, name: c.name, time });
      if (c.failure) child(tc, 'failure', { message: c.failure.message, type: c.failure.code }, details(c.failure));
      else if (c.warning) child(tc, 'system-out', {}, details(c.warning));
    }
    if (suite.infos.length > 0) child(el, 'system-out', {}, suite.infos.map((f) => `info [${f.code}] ${f.message}`).join('\n'));
  }
  return `${root.end({ prettyPrint: true })}\n`;
}

interface JunitCase {
  name: string;
  failure?: ContractFinding;
  warning?: ContractFinding;
}

function suiteCases(report: ContractReport, endpoint: ContractEndpoint): { endpoint: ContractEndpoint; cases: JunitCase[]; infos: ContractFinding[] } {
  const cases: JunitCase[] = [];
  for (const check of CONTRACT_CHECKS) {
    if (!check.endpoints.includes(endpoint)) continue;
    const findings = report.findings.filter((f) => f.endpoint === endpoint && f.severity !== 'info' && checkOfCode(f.code) === check.name);
    if (findings.length === 0) {
      cases.push({ name: check.name });
      continue;
    }
    for (const f of findings) {
      const name = `${check.name}: ${f.code} ${f.pointer || '/'}`;
      const fails = f.severity === 'error' || report.strict;
      cases.push(fails ? { name, failure: f } : { name, warning: f });
    }
  }
  const infos = report.findings.filter((f) => f.severity === 'info' && (f.endpoint === endpoint || (f.endpoint === 'deployment' && endpoint === LIST_ENDPOINT)));
  return { endpoint, cases, infos };
}

function details(f: ContractFinding): string {
  const examples = f.examples.map((e) => `  - ${e.marketId === undefined ? '' : `market ${quoted(e.marketId)} `}at ${e.pointer || '/'}: ${e.found}${e.request ? ` (${e.request})` : ''}`);
  return [`${f.severity} [${f.code}] ${f.endpoint} ${f.message}`, `${f.count} occurrence${f.count === 1 ? '' : 's'}`, ...examples].join('\n');
}
