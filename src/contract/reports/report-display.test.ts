// The escaping layer of the reports (report-display.ts over floor/display-value.ts), by property:
// for any string a deployment may send, each format's rendering is safe and reads back.
import { createRequire } from 'node:module';
import type AjvFormats from 'ajv-formats';
import type { Ajv as AjvCore } from 'ajv';
import fc from 'fast-check';
import { marked } from 'marked';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { DISPLAY_HEAD, DISPLAY_SENTENCE_MAX, DISPLAY_TAIL, DISPLAY_VALUE_MAX, displayValue, shortenValue, visibleControls } from '../../floor/display-value.js';
import { buildContractReport, type ContractReport } from '../checks/contract-report.js';
import { formatContractReport } from './format-contract-report.js';
import { formatJunitReport } from './format-junit-report.js';
import { displayReport, jsonReportText, markdownCode, markdownText, uriReference } from './report-display.js';

// eslint-disable-next-line no-control-regex -- the test is about control characters
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffe\uffff\ud800-\udfff]/u;
// eslint-disable-next-line no-control-regex -- the test is about control characters
const UNSAFE_IN_JSON = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffe\uffff]/;

/** Any string, weighted towards what breaks outputs: controls, bidi, lone surrogates, XML, Markdown and URI specials. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.constantFrom('\u001b', '\u0007', '\n', '\r', '\t', '\u0000', '\u0085', '\u009b', '\u202e', '\u2066', '\u200b', '\ufeff', '\u2028', '\ud800', '\udc00', '\ufffe', '\u{e0041}', '😀'),
    fc.constantFrom('&', '&amp;', '&nbsp;', '&#0;', '<', '>', '"', "'", '%', '%zz', '|', '^', '{', '}', '\\', '`', '@', '$', '#', '[', ']', ':', '//', 'www.', '*', '_', '::'),
  ),
  maxLength: 40,
});

/** A failing report with one error finding about market `id` that found `found`. */
function reportOf(id: string, found: string): ContractReport {
  return buildContractReport({
    command: 'check', baseUrl: 'http://127.0.0.1:1', startedAt: new Date(0), durationMs: 1, strict: false,
    list: { shape: 'array', pages: 1, paging: 'none', complete: true }, marketsListed: 1, marketsChecked: 1, requests: 2,
    findings: [{ severity: 'error', code: 'type', endpoint: 'GET /markets', pointer: `/*/${found}`, expected: 'number', found, message: found, count: 1, examples: [{ marketId: id, pointer: '/0', found, request: `/markets?c=${found}` }] }],
  });
}

/** Parses XML with saxes (a conforming XML 1.0 parser): its well-formedness errors and its text. */
function parseXml(xml: string): { errors: string[]; text: string } {
  const parser = new SaxesParser();
  const out = { errors: [] as string[], text: '' };
  parser.on('error', (error) => out.errors.push(error.message));
  parser.on('text', (t) => (out.text += t));
  parser.write(xml).close();
  return out;
}

describe('displayValue (every human format)', () => {
  it('leaves no control, bidi, zero-width, separator, surrogate or noncharacter, and shows each as its JSON escape', () => {
    fc.assert(fc.property(hostile, (value) => {
      const shown = displayValue(value);
      expect(shown).not.toMatch(UNSAFE);
      expect(shown.length).toBeLessThanOrEqual(12 * DISPLAY_VALUE_MAX + 40);
    }), { numRuns: 300, seed: 33 });
    expect(visibleControls('x\n::error::y\u001b[8m\u0007\u0085ABC\u202Efdp.exe\ud800\u{e0041}\\n')).toBe('x\\n::error::y\\u001b[8m\\u0007\\u0085ABC\\u202efdp.exe\\ud800\\udb40\\udc41\\n');
    expect(visibleControls('plain “text” é 😀 \\ already')).toBe('plain “text” é 😀 \\ already');
  });

  it(`shortens past ${DISPLAY_VALUE_MAX} code points: the first ${DISPLAY_HEAD} and last ${DISPLAY_TAIL} around a count, never splitting a pair`, () => {
    expect(shortenValue('a'.repeat(DISPLAY_VALUE_MAX))).toBe('a'.repeat(DISPLAY_VALUE_MAX));
    expect(shortenValue('😀'.repeat(DISPLAY_VALUE_MAX))).toBe('😀'.repeat(DISPLAY_VALUE_MAX));
    const long = `${'h'.repeat(DISPLAY_HEAD - 1)}😀${'m'.repeat(200_000)}😀${'t'.repeat(DISPLAY_TAIL - 1)}`;
    expect(shortenValue(long)).toBe(`${'h'.repeat(DISPLAY_HEAD - 1)}😀…[200000 characters cut]…😀${'t'.repeat(DISPLAY_TAIL - 1)}`);
    expect(displayValue(`${'\u001b'.repeat(DISPLAY_VALUE_MAX + 1)}`)).toBe(`${'\\u001b'.repeat(DISPLAY_HEAD)}…[21 characters cut]…${'\\u001b'.repeat(DISPLAY_TAIL)}`);
  });
});

describe('a refused run\'s sentence (could-not-run: market-stub\'s own words around values it shortened)', () => {
  /** A report whose one finding has `code` and says `sentence`. */
  const refused = (code: 'could-not-run' | 'http-status', sentence: string) => buildContractReport({
    command: 'check', baseUrl: 'http://127.0.0.1:1', startedAt: new Date(0), durationMs: 1, strict: false,
    list: { shape: 'unavailable', pages: 0, paging: 'none', complete: false }, marketsListed: 0, marketsChecked: 0, requests: 1,
    findings: [{ severity: 'error', code, endpoint: 'GET /markets', pointer: '', expected: 'access', found: sentence, message: `the check could not run: ${sentence}`, count: 1, examples: [{ pointer: '', found: sentence, request: '/markets' }] }],
  });
  const remedy = ' Give the one it expects with --header "Name: value". The report has this one finding.';
  const sentence = `the deployment refused access: 403 (Forbidden) to GET /${'p'.repeat(DISPLAY_VALUE_MAX)}\u001b[2J${remedy}`;

  it(`is shown whole up to ${DISPLAY_SENTENCE_MAX} code points, its controls still made visible; any other finding is cut at ${DISPLAY_VALUE_MAX}`, () => {
    const shown = displayReport(refused('could-not-run', sentence)).findings[0];
    expect(shown?.found).toBe(visibleControls(sentence));
    expect(shown?.message.endsWith(remedy)).toBe(true);
    expect(shown?.examples[0]?.found).toBe(visibleControls(sentence));
    expect(displayReport(refused('http-status', sentence)).findings[0]?.found).toMatch(/characters cut/);
    const text = formatContractReport(refused('could-not-run', sentence), 'text');
    expect(text).toContain(`COULD NOT RUN against http://127.0.0.1:1: ${visibleControls(sentence)}`);
    for (const line of text.split('\n')) expect(line).not.toMatch(UNSAFE);
  });

  it(`is still bounded: past ${DISPLAY_SENTENCE_MAX} code points it is cut like any value, keeping its end`, () => {
    const long = `${'x'.repeat(5 * DISPLAY_SENTENCE_MAX)}${remedy}`;
    const found = displayReport(refused('could-not-run', long)).findings[0]?.found ?? '';
    expect(Array.from(found.replace(/…\[\d+ characters cut\]…/, '')).length).toBe(DISPLAY_SENTENCE_MAX - DISPLAY_VALUE_MAX + DISPLAY_HEAD + DISPLAY_TAIL);
    expect(found.endsWith(remedy.slice(-DISPLAY_TAIL))).toBe(true);
  });
});

describe('the formats', () => {
  it('json: the same value, with no character a terminal acts on', () => {
    fc.assert(fc.property(hostile, (value) => {
      const text = jsonReportText({ value });
      expect(text).not.toMatch(UNSAFE_IN_JSON);
      expect((JSON.parse(text) as { value: string }).value).toBe(value);
    }), { numRuns: 300, seed: 33 });
  });

  it('sarif: every request target becomes an RFC 3986 uri-reference (ajv-formats) that a URL parser accepts', () => {
    const require = createRequire(import.meta.url);
    const Ajv = (require('ajv') as { default: new (options: Record<string, unknown>) => AjvCore }).default;
    const addFormats = (require('ajv-formats') as typeof AjvFormats).default;
    const ajv = new Ajv({});
    addFormats(ajv);
    const isReference = ajv.compile({ type: 'string', format: 'uri-reference' });
    fc.assert(fc.property(hostile, (target) => {
      const uri = uriReference(`/markets?cursor=${target}`);
      expect(isReference(uri), uri).toBe(true);
      expect(new URL(uri, 'http://127.0.0.1/').pathname).toBe('/markets');
    }), { numRuns: 300, seed: 33 });
    expect(uriReference('/markets?cursor=a|^{}\\`b%41%zz#x')).toBe('markets?cursor=a%7C%5E%7B%7D%5C%60b%41%25zz%23x');
    expect(uriReference('/x:y/markets')).toBe('./x:y/markets');
  });

  it('markdown: a value in prose renders as exactly its text, outside code no mention, math or link', async () => {
    await fc.assert(fc.asyncProperty(hostile, async (value) => {
      const shown = displayValue(value);
      const html = await marked.parse(`a ${markdownText(shown)} z ${markdownCode(shown)}`, { gfm: true });
      const [prose] = html.split(/ z <code>/) as [string];
      expect(prose).not.toMatch(/<(?!\/?(p|code)>)/);
      expect(prose.replace(/<code>[^<]*<\/code>/g, '')).not.toMatch(/[@$]/);
      // No GitLab reference (#12, !34, ~label, %milestone, &epic, ^ref) outside a code span.
      const outsideCode = prose.replace(/<code>[^<]*<\/code>/g, ' ').replace(/&(lt|gt|quot|#39|amp);/g, ' ');
      expect(outsideCode).not.toMatch(/[#!~%^&][\p{L}\p{N}_"']/u);
      const text = prose.replace(/<\/?(p|code)>/g, '').replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e] as string);
      expect(text).toBe(`a ${shown}`);
    }), { numRuns: 300, seed: 33 });
  });

  it('markdown: GitLab references in a value are code spans, the text unchanged', () => {
    expect(markdownText('see #12, !34, ~bug, ~"needs review", %v1, &5, group/proj#7 and 50% & # alone')).toBe(
      'see `#`12, `!`34, `~`bug, `~`"needs review", `%`v1, `&`5, group/proj`#`7 and 50% \\& \\# alone',
    );
  });

  it('junit: well-formed XML 1.0 for any id and finding, each reading back as displayed', () => {
    fc.assert(fc.property(hostile, hostile, (id, found) => {
      const { errors, text } = parseXml(formatContractReport(reportOf(id, found), 'junit'));
      expect(errors).toEqual([]);
      expect(text).toContain(`market "${displayValue(id).replaceAll('"', '\\"')}" at /0: ${displayValue(found)}`);
    }), { numRuns: 300, seed: 33 });
  });

  it('junit: a character XML 1.0 forbids that reached the builder undisplayed becomes U+FFFD (the second guard)', () => {
    const { errors, text } = parseXml(formatJunitReport(reportOf('id\u0000\ufffe\ud800', 'f\u001b\uffff')));
    expect(errors).toEqual([]);
    expect(text).toContain('market "id\ufffd\ufffd\ufffd" at /0: f\ufffd\ufffd');
  });
});
