// A deployment that tries to forge what `check`'s reports make their readers believe:
// workflow commands and terminal escapes in ids, field names, error bodies and headers, XML
// entities and characters XML forbids, bidi and zero-width characters, a mention and math, a
// next-page link no URI may hold as it is, a 200 KB id. One `check` run writes all six formats;
// each must be well formed and carry no forged line, escape or markup.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { marked } from 'marked';
import type { Log as SarifLog } from 'sarif';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { MARKDOWN_MAX_CHARS } from '../../src/index.js';
import { runCliInProcess } from './contract-report-helpers.js';
import { startDeviantServer, type DeviantServer } from './deviant-server.js';
import { FORGING_VALUES, HOSTILE_CONTENT_TYPE, LONG_ID, startForgingDeployment } from './hostile-deployment.js';
import { sarifValidator } from './sarif-schema.js';
import type { CliResult } from '../support/cli-process.js';

const FORMATS = ['text', 'json', 'jsonl', 'junit', 'html', 'markdown', 'sarif'] as const;
/** Characters no human format may hold raw: C0 but LF, DEL, C1, bidi and zero-width controls, separators, noncharacters. */
// eslint-disable-next-line no-control-regex -- the test is about control characters
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffe\uffff]/u;
/** The same for JSON texts, which keep their own indentation and line ends. */
// eslint-disable-next-line no-control-regex -- the test is about control characters
const UNSAFE_IN_JSON = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffe\uffff]/u;
/** The tool's own colours: SGR sequences only. */
// eslint-disable-next-line no-control-regex -- the test is about control characters
const SGR = /\u001b\[[0-9;]*m/g;

let server: DeviantServer;
let work: string;
let run: CliResult;
let coloured: CliResult;
const files: Record<string, string> = {};

beforeAll(async () => {
  server = await startForgingDeployment();
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-hostile-reports-'));
  const reports = FORMATS.flatMap((format) => ['--report', `${format}:${path.join(work, `report.${format}`)}`]);
  run = await runCliInProcess(['check', '--base-url', server.url, '--all', ...reports]);
  coloured = await runCliInProcess(['check', '--base-url', server.url, '--all'], { isTTY: true });
  for (const format of FORMATS) files[format] = await readFile(path.join(work, `report.${format}`), 'utf8');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

/** Every string in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

/** Parses XML with saxes (a conforming XML 1.0 parser): its well-formedness errors, text and attribute values. */
function parseXml(xml: string): { errors: string[]; texts: string[]; attributes: string[] } {
  const parser = new SaxesParser();
  const out = { errors: [] as string[], texts: [] as string[], attributes: [] as string[] };
  parser.on('error', (error) => out.errors.push(error.message));
  parser.on('text', (text) => out.texts.push(text));
  parser.on('opentag', (tag) => out.attributes.push(...Object.values(tag.attributes as Record<string, string>)));
  parser.write(xml).close();
  return out;
}

/** How the text and markdown formats show a forging value: controls as JSON escapes. */
const shown = (value: string) => JSON.stringify(value).slice(1, -1).replace(/\\\\/g, '\\').replace(/[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffe\uffff]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('check against a deployment that forges its reports', () => {
  it('reaches every format: the json report holds each forging value exactly, the 200 KB id whole', () => {
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(files['json'] as string) as ContractReport;
    const all = strings(report);
    for (const value of [...Object.values(FORGING_VALUES), LONG_ID, HOSTILE_CONTENT_TYPE]) expect(all.some((s) => s.includes(value)), JSON.stringify(value).slice(0, 60)).toBe(true);
    const ids = new Set(report.findings.flatMap((f) => f.examples.map((e) => e.marketId)));
    for (const id of [...Object.values(FORGING_VALUES), LONG_ID]) expect(ids.has(id), JSON.stringify(id).slice(0, 60)).toBe(true);
    expect(report.list).toMatchObject({ pages: 2, dialect: 'link-header', complete: true });
    // The JSON text writes C1, bidi and zero-width characters as \u escapes: the same values, nothing a terminal acts on.
    expect(files['json']).not.toMatch(UNSAFE_IN_JSON);
    expect(files['json']).toContain('ABC\\u202efdp.exe');
  });

  it('text: every line is one the tool writes, no control reaches the terminal, values show their controls as escapes', () => {
    for (const text of [run.stdout, files['text'] as string, coloured.stdout.replace(SGR, '')]) {
      expect(text).not.toMatch(UNSAFE);
      const lines = text.trimEnd().split('\n');
      for (const line of lines) expect(line, line.slice(0, 80)).toMatch(/^(|market-stub check http:\/\/127\.0\.0\.1:\d+ · .*|(Errors|Warnings|Information) \(\d+\)| {2}[✖▲•] GET \/markets.*| {2}• deployment .*| {6}\d+ occurrences?.*|FAIL: .*)$/);
      expect(lines.filter((line) => /^\s*::/.test(line))).toEqual([]);
    }
    const text = run.stdout;
    expect(text).toBe(files['text']);
    expect(text).toContain(`market "${shown(FORGING_VALUES.workflowCommands)}"`);
    expect(text).toContain('market "x\\n::error title=Verified::All PASS\\n::add-mask::FAIL\\n::notice::"');
    expect(text).toContain('market "ABC\\u202efdp.exe"');
    expect(text).toContain('/resolution_date [format]: expected a calendar date YYYY-MM-DD, found "ABC\\u202efdp.exe"');
    expect(text).toContain('market "k\\u0000\\u0001\\b\\u000b\\f\\u007f\\u0085\\u009b2J"');
    expect(text).toContain('found text/x-\\u0085\\u009b8m; q="AT&amp;T Q&nbsp;1 &#0; @channel $x$ | ^ {}"');
    expect(text).toMatch(/market "LONG-L{195}…\[199725 characters cut\]…L{80}"/);
  });

  it('text in colour: only the tool\'s SGR sequences, each colour ended by a full reset (SGR 0)', () => {
    const ansi = coloured.stdout;
    expect(ansi.replace(SGR, '')).not.toContain('\u001b');
    const sequences = ansi.match(SGR) ?? [];
    expect(sequences.length).toBeGreaterThan(10);
    const opened = sequences.filter((s) => s !== '\u001b[0m').length;
    expect(sequences.filter((s) => s === '\u001b[0m')).toHaveLength(opened);
    expect(sequences.every((s, i) => (i % 2 === 0 ? s !== '\u001b[0m' : s === '\u001b[0m'))).toBe(true);
    expect(ansi.endsWith('\u001b[0m\n')).toBe(true);
    const { summary } = JSON.parse(files['json'] as string) as ContractReport;
    expect(ansi).toContain(`\u001b[1;31mFAIL: ${summary.errors} errors, ${summary.warnings} warnings in 19 markets `);
  });

  it('markdown: no control, no forged line, mentions and math in code only, the 200 KB id shortened and every finding listed', async () => {
    const md = files['markdown'] as string;
    expect(md).not.toMatch(UNSAFE);
    expect(md.split('\n').filter((line) => /^\s*::/.test(line))).toEqual([]);
    expect(md.length).toBeLessThan(MARKDOWN_MAX_CHARS);
    expect(md).not.toContain('cut to stay within');
    const { findings } = JSON.parse(files['json'] as string) as ContractReport;
    expect(md.match(/^ {2}- /gm)).toHaveLength(findings.length);
    expect(md).toContain('`LONG-LLLL');
    const rendered = await marked.parse(md, { gfm: true });
    const outsideCode = rendered.replace(/<code>[^<]*<\/code>/g, '');
    expect(outsideCode).not.toMatch(/@[A-Za-z]|\$[^<]*\$/);
    expect(rendered).toContain('<code>@channel</code>');
    expect(rendered).toContain('<code>$x$</code>');
    // The report's own elements only; no link (a deployment's URL, http://127.0.0.1:9/ in an OSC 8 value, stays text).
    expect(rendered).not.toMatch(/<(?!\/?(h3|h4|p|table|thead|tbody|tr|th|td|ul|li|code|strong|details|summary|sub)\b)[a-z]/);
    expect(rendered).toContain('http://127.0.0.1:9/');
  });

  it('junit: well-formed XML 1.0 (saxes, strict; fast-xml-parser\'s validator) whose values read back exactly', () => {
    const xml = files['junit'] as string;
    expect(XMLValidator.validate(xml)).toBe(true);
    const { errors, texts, attributes } = parseXml(xml);
    expect(errors).toEqual([]);
    const all = [...texts, ...attributes].join('\n');
    expect(all).toContain('market "AT&amp;T-2027"');
    expect(all).not.toContain('market "AT&T-2027"');
    expect(all).toContain('market "Q&nbsp;1"');
    expect(all).toContain('market "n&#0;"');
    expect(all).toContain('market "f\\ufffe\\uffff"');
    expect(all).toContain('market "x\\n::error title=Verified::All PASS\\n::add-mask::FAIL\\n::notice::"');
    expect(all).not.toMatch(UNSAFE);
    expect(all).toContain('text/x-\\u0085\\u009b8m; q="AT&amp;T Q&nbsp;1 &#0; @channel $x$ | ^ {}"');
  });

  it('sarif: valid against the SARIF 2.1.0 schema, uri-reference included; the page link percent-encoded', () => {
    const validate = sarifValidator();
    const log = JSON.parse(files['sarif'] as string) as SarifLog;
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(files['sarif']).not.toMatch(UNSAFE_IN_JSON);
    const uris = (log.runs[0]?.results ?? []).flatMap((r) => (r.relatedLocations ?? []).map((l) => l.physicalLocation?.artifactLocation?.uri));
    expect(uris).toContain('markets?cursor=a%7C%5E%7B%7D%5C%60b&bad=%25zz');
    // The validator checks the format: the link as the deployment wrote it is refused.
    const raw = structuredClone(log);
    const location = raw.runs[0]?.results?.flatMap((r) => r.relatedLocations ?? []).find((l) => l.physicalLocation?.artifactLocation?.uri?.startsWith('markets?cursor='));
    if (location?.physicalLocation?.artifactLocation) location.physicalLocation.artifactLocation.uri = 'markets?cursor=a|^{}\\`b&bad=%zz';
    expect(validate(raw)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain('uri-reference');
  });

  it('html: inert, only the report\'s own elements, controls and bidi shown as escapes', () => {
    const html = files['html'] as string;
    expect(html).not.toMatch(UNSAFE);
    const tags = new Set([...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => (m[1] as string).toLowerCase()));
    const own = ['html', 'head', 'meta', 'title', 'style', 'body', 'main', 'header', 'h1', 'h2', 'h3', 'p', 'section', 'div', 'b', 'span', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'svg', 'g', 'rect', 'text', 'line', 'figure', 'figcaption', 'strong', 'details', 'summary', 'ul', 'li', 'code', 'dl', 'dt', 'dd', 'footer'];
    expect([...tags].filter((tag) => !own.includes(tag))).toEqual([]);
    expect(html).toContain('<code>market ABC\\u202efdp.exe</code>');
    expect(html).toContain('AT&amp;amp;T-2027');
    expect(html).toContain('Q&amp;nbsp;1');
  });

  it('stderr says where each report went, nothing from the deployment', () => {
    expect(run.stderr.split('\n').filter(Boolean).every((line) => /^market-stub check: FAIL; \w+ report written to /.test(line))).toBe(true);
  });
});

describe('check that cannot run against a hostile deployment', () => {
  it('exit 2: the one sentence shows the controls of a quoted Location as escapes', async () => {
    const redirecting = await startDeviantServer([], { list: () => ({ status: 302, headers: { location: 'javascript:\u0085\u009b2J\u00ad' }, body: '' }) });
    try {
      const refused = await runCliInProcess(['check', '--base-url', redirecting.url]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^market-stub check: cannot reach http:\/\/127\.0\.0\.1:\d+\/markets: redirected to "javascript:\\u0085\\u009b2J\\u00ad", which is not an http\(s\) URL\. .*\n$/);
      expect(refused.stderr).not.toMatch(UNSAFE);
    } finally {
      await redirecting.close();
    }
  });
});

describe('the jsonl report of a deployment that forges its reports', () => {
  it('is one JSON text a line: a line per finding, then the report line; no raw control, bidi or separator character', () => {
    const report = JSON.parse(files['json'] as string) as ContractReport;
    const text = files['jsonl'] as string;
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toMatch(UNSAFE_IN_JSON);
    const lines = text.slice(0, -1).split('\n').map((l) => JSON.parse(l) as { type: string; code?: string; message?: string });
    expect(lines).toHaveLength(report.findings.length + 1);
    expect(lines.map((l) => l.type)).toEqual([...report.findings.map(() => 'finding'), 'report']);
    expect(lines.slice(0, -1).map((l) => l.code)).toEqual(report.findings.map((f) => f.code));
    expect(lines.at(-1)).toMatchObject({ type: 'report', exitCode: 1, verdict: 'fail', summary: report.summary });
  });
});
