// The reviewer formats through the built CLI: one `check` run writing every format with
// --report, against a deployment with hostile ids and titles and a --header value echoed back;
// escaping, secrets, SARIF against the official schema, and refused --report values.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import escapeHtml from 'escape-html';
import { marked } from 'marked';
import type { Log as SarifLog } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { HTML_REPORT_CSP } from '../../src/contract/reports/format-html-report.js';
import { runCliProcess, type CliResult } from '../support/cli-process.js';
import type { DeviantServer } from './deviant-server.js';
import { HOSTILE_ID, HOSTILE_TITLE, SECRET_HEADER, SECRET_VALUE, startHostileDeployment } from './hostile-deployment.js';
import { sarifValidator } from './sarif-schema.js';

const FORMATS = ['text', 'json', 'junit', 'html', 'markdown', 'sarif'] as const;
let server: DeviantServer;
let work: string;
let run: CliResult;
const files: Record<string, string> = {};

beforeAll(async () => {
  server = await startHostileDeployment();
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-report-formats-'));
  const reports = FORMATS.flatMap((format) => ['--report', `${format}:${path.join(work, `report.${format}`)}`]);
  run = await runCliProcess(['check', '--base-url', server.url, '--all', ...reports], { env: { MARKET_STUB_HEADER: SECRET_HEADER } });
  for (const format of FORMATS) files[format] = await readFile(path.join(work, `report.${format}`), 'utf8');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

/** Every form the secret could take in a file: raw, JSON-escaped, HTML-escaped, percent-encoded, and its first characters. */
const secretForms = [SECRET_VALUE, JSON.stringify(SECRET_VALUE).slice(1, -1), 's3cr3t&amp;', 's3cr3t%26', 's3cr3t&'];

describe('check --report FORMAT:PATH (one run, every format)', () => {
  it('writes every report atomically from the one run, keeps the text report on stdout and says where each went', async () => {
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^market-stub check http:\/\/127\.0\.0\.1:\d+ · bare array/);
    for (const format of FORMATS) expect(run.stderr).toContain(`market-stub check: FAIL; ${format} report written to ${path.join(work, `report.${format}`)}\n`);
    expect((await readdir(work)).sort()).toEqual(FORMATS.map((f) => `report.${f}`).sort());
    const json = JSON.parse(files['json'] as string) as ContractReport;
    expect(json.summary).toMatchObject({ errors: 4, warnings: 2, marketsListed: 20, marketsChecked: 20 });
    // The same run: every format tells the same counts.
    expect(files['text']).toContain('FAIL: 4 errors, 2 warnings in 20 markets');
    // 23 requests: the list, 20 markets, the unknown-id probe, and the list read again after DEV-4's 404 (a listed market answering 404 is judged against a fresh list).
    expect(files['markdown']).toContain('| 4 | 2 | 5 | 20 | 20 | 23 |');
    expect(files['html']).toContain('FAIL: 4 errors, 2 warnings in 20 markets');
  });

  it('no --header value in any report, in any form, nor on stdout or stderr', () => {
    for (const [format, text] of [...Object.entries(files), ['stdout', run.stdout], ['stderr', run.stderr]] as const) {
      for (const form of secretForms) expect(text.includes(form), `${format} holds ${form}`).toBe(false);
    }
    expect(files['json']).toContain('[redacted]');
  });

  it('json carries the distributions the charts are drawn from: prices of the listed markets and answer times per endpoint', () => {
    const { distributions } = JSON.parse(files['json'] as string) as ContractReport;
    const total = (h: { counts: number[]; below: number; above: number }) => h.counts.reduce((a, b) => a + b, h.below + h.above);
    // 20 listed, one with a string yes_price: 19 prices; DEV-2's 0.6 + 0.33 is the one sum off 1.00.
    expect(total(distributions?.yesPrice ?? { counts: [], below: 0, above: 0 })).toBe(19);
    expect(distributions?.priceSum.below).toBe(1);
    expect(distributions?.priceSum.counts[5]).toBe(18);
    expect(distributions?.responseTimes['GET /markets']?.count).toBe(1);
    expect(distributions?.responseTimes['GET /markets/{market_id}']).toMatchObject({ count: 20 });
    expect(distributions?.responseTimes['GET /markets/{market_id}']?.maxMs).toBeGreaterThanOrEqual(60);
  });
});

describe('html', () => {
  it('is one self-contained page: the strict CSP meta, no script, no external resource, the verdict before anything else', () => {
    const html = files['html'] as string;
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${escapeHtml(HTML_REPORT_CSP)}">`);
    expect(HTML_REPORT_CSP).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; img-src data:; base-uri 'none'; form-action 'none'$/);
    expect(html).not.toMatch(/<script|<link|<iframe|<object|<img|<[^>]*\s(src|href|srcset|action)=/i);
    expect(html.indexOf('class="verdict fail"')).toBeLessThan(html.indexOf('id="summary"'));
    expect(html.match(/<svg class="chart"/g)).toHaveLength(4);
  });

  it('escapes every value: the hostile id and title stay text', () => {
    const html = files['html'] as string;
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;script&gt;alert(');
    expect(html).not.toContain(HOSTILE_ID);
    expect(html).not.toContain('<script>');
  });

  it('groups findings by severity and code, each market drillable to what was expected and found', () => {
    const html = files['html'] as string;
    expect(html).toMatch(/<details class="group error" open><summary><span class="badge error">error<\/span> <strong>type<\/strong> · 2 findings, 3 occurrences · markets: <code>&lt;img src=x onerror=alert\(1\)&gt;<\/code>, <code>DEV-5<\/code>/);
    expect(html).toMatch(/<details class="market"><summary><code>DEV-4<\/code> · 1 problem<\/summary>.*<td>a 2xx answer with the listed market<\/td><td><code>404: a JSON object with keys error<\/code><\/td>/s);
  });
});

describe('markdown', () => {
  it('leads with the verdict and a counts table, groups the top findings, and renders the hostile values as text (marked, GFM)', async () => {
    const md = files['markdown'] as string;
    expect(md.split('\n')[0]).toMatch(/^### ❌ market-stub check: FAIL: 4 errors, 2 warnings in 20 markets/);
    expect(md).toContain('- ❌ **type** (error): 2 findings, 3 occurrences');
    expect(md).toContain('<details><summary>Information (5)</summary>');
    const rendered = await marked.parse(md, { gfm: true });
    expect(rendered).not.toMatch(/<img|<script/);
    // No link: a URL in a value (the title's, the --base-url) stays text (GFM would autolink it).
    expect(rendered).not.toContain('<a ');
    expect(rendered).toContain(server.url);
    expect(rendered).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(rendered).toContain('&lt;script&gt;alert(');
    expect(rendered).not.toContain('<strong>bold</strong>');
    expect(HOSTILE_TITLE).toContain('**bold**');
  });
});

describe('sarif', () => {
  it('is valid against the official SARIF 2.1.0 schema, with one result per error and warning at the contract file', () => {
    const validate = sarifValidator();
    const log = JSON.parse(files['sarif'] as string) as SarifLog;
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const results = log.runs[0]?.results ?? [];
    expect(results.map((r) => `${r.level} ${r.ruleId}`).sort()).toEqual(['error list-single-mismatch', 'error not-found', 'error type', 'error type', 'warning price-sum', 'warning price-sum']);
    for (const result of results) {
      expect(result.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe('node_modules/market-stub/schemas/market.schema.json');
      expect(log.runs[0]?.tool.driver.rules?.[result.ruleIndex ?? -1]?.id).toBe(result.ruleId);
    }
    expect(log.runs[0]?.originalUriBaseIds?.['DEPLOYMENT']?.uri).toBe(`${server.url}/`);
    expect(log.runs[0]?.invocations?.[0]).toMatchObject({ executionSuccessful: true, exitCode: 1 });
  });
});

describe('record --report', () => {
  it('writes the same formats from a record run, beside the fixture set', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'market-stub-record-reports-'));
    const recorded = await runCliProcess(['record', '--base-url', server.url, '--all', '--out', 'fixtures', '--report', 'html:record.html', '--report', 'sarif:record.sarif', '--report', 'markdown:record.md'], { env: { MARKET_STUB_HEADER: SECRET_HEADER }, cwd });
    expect(recorded.code, recorded.stderr).toBe(1);
    expect((await readdir(cwd)).sort()).toEqual(['fixtures', 'record.html', 'record.md', 'record.sarif']);
    const html = await readFile(path.join(cwd, 'record.html'), 'utf8');
    expect(html).toContain('market-stub record');
    expect(html).not.toContain(HOSTILE_ID);
    expect(sarifValidator()(JSON.parse(await readFile(path.join(cwd, 'record.sarif'), 'utf8')))).toBe(true);
    expect((await readFile(path.join(cwd, 'record.md'), 'utf8')).split('\n')[0]).toMatch(/^### ❌ market-stub record: FAIL/);
    for (const file of ['record.html', 'record.md', 'record.sarif']) expect(await readFile(path.join(cwd, file), 'utf8')).not.toContain(SECRET_VALUE.slice(0, 7));
    await rm(cwd, { recursive: true, force: true });
  });
});

describe('--report refused before anything starts', () => {
  const cases: Array<[string, string[], Record<string, string>, RegExp]> = [
    ['an unknown format', ['--report', 'pdf:out.pdf'], {}, /^market-stub check: --report "pdf:out\.pdf": unknown report format "pdf"\. Give FORMAT:PATH with FORMAT one of text, json, jsonl, junit, html, markdown, sarif \(e\.g\. --report html:report\.html\); write \.\/pdf:out\.pdf for a file of that name\.\n$/],
    ['a missing path', ['--report', 'html:'], {}, /^market-stub check: --report "html:": no path after "html:"\. Give FORMAT:PATH/],
    ['a path given twice', ['--report', 'html:same.out', '--report', 'json:same.out'], {}, /^market-stub check: --report "json:same\.out": same\.out is already written by another report; give each report its own path\.\n$/],
    ['the --output path again', ['--output', 'same.out', '--report', 'json:same.out'], {}, /already written by another report/],
    ['a bad value from the environment', [], { MARKET_STUB_REPORT: 'junit:ok.xml,xml:bad.xml' }, /^market-stub check: MARKET_STUB_REPORT "xml:bad\.xml": unknown report format "xml"\. Give FORMAT:PATH with FORMAT one of .*\(e\.g\. MARKET_STUB_REPORT=html:report\.html\)/],
  ];
  it.each(cases)('%s: exit 2, one sentence naming the option, no request made, no file written', async (_name, args, env, message) => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'market-stub-report-refused-'));
    const before = server.requests.length;
    const refused = await runCliProcess(['check', '--base-url', server.url, ...args], { env, cwd });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(message);
    expect(server.requests.length).toBe(before);
    expect(await readdir(cwd)).toEqual([]);
    await rm(cwd, { recursive: true, force: true });
  });

  it('a --report file that cannot be written: exit 2 naming it, the other reports still whole', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'market-stub-report-unwritable-'));
    const failed = await runCliProcess(['check', '--base-url', server.url, '--report', 'json:ok.json', '--report', 'html:missing-dir/report.html'], { cwd });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/^market-stub check: FAIL; json report written to ok\.json\nmarket-stub check: --report html:missing-dir\/report\.html: cannot write missing-dir\/report\.html: a directory on the path does not exist \(ENOENT\); create the directory first or choose an existing one\. Nothing was written; a file already there is unchanged\.\n$/);
    expect(JSON.parse(await readFile(path.join(cwd, 'ok.json'), 'utf8'))).toMatchObject({ verdict: 'fail' });
    expect(await readdir(cwd)).toEqual(['ok.json']);
    await rm(cwd, { recursive: true, force: true });
  });

  it('MARKET_STUB_REPORT gives several reports, comma-separated; --format/--output keep working beside them', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'market-stub-report-env-'));
    const both = await runCliProcess(['check', '--base-url', server.url, '--format', 'json', '--output', 'check.json'], { env: { MARKET_STUB_REPORT: 'markdown:summary.md,html:report.html' }, cwd });
    expect(both.code).toBe(1);
    expect(both.stdout).toBe('');
    expect((await readdir(cwd)).sort()).toEqual(['check.json', 'report.html', 'summary.md']);
    expect(JSON.parse(await readFile(path.join(cwd, 'check.json'), 'utf8'))).toMatchObject({ verdict: 'fail' });
    await rm(cwd, { recursive: true, force: true });
  });
});
