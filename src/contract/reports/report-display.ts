// The one escaping layer of the reports: every value in a report may come from the deployment
// (ids, field names, pointers, header values, bodies, page links), so every format renders values
// only through these functions. docs/reports.md, "Values from the deployment", says the rule per format.
import escapeHtml from 'escape-html';
import { displaySentence, displayValue, escapeInvisiblesInJson, mapStrings } from '../../floor/display-value.js';
import type { ContractReport } from '../checks/index.js';

/**
 * The report as the human formats (text, markdown, html, junit, sarif) show it: every string
 * shortened and with its controls made visible (floor/display-value.ts displayValue). A refused
 * run's finding (`could-not-run`, could-not-run-report.ts) is market-stub's own sentence around
 * values shortened when it was written: shown whole up to DISPLAY_SENTENCE_MAX (displaySentence),
 * so its remedy is never cut. The json format keeps the exact values (jsonReportText).
 */
export function displayReport(report: ContractReport): ContractReport {
  const shown = mapStrings(report, displayValue);
  return { ...shown, findings: shown.findings.map((finding, i) => (finding.code === 'could-not-run' ? mapStrings(report.findings[i] as typeof finding, displaySentence) : finding)) };
}

/** A displayed value in double quotes, a `"` inside written `\"`: `market "AT&T-2027"`. */
export function quoted(value: string): string {
  return `"${value.replaceAll('"', '\\"')}"`;
}

/**
 * A JSON document as the json and sarif formats write it: 2-space indented, ending in a newline,
 * with DEL, C1, bidi, zero-width and separator characters escaped as `\uXXXX` (the same value;
 * floor/display-value.ts escapeInvisiblesInJson), so `cat` of the file cannot drive a terminal.
 */
export function jsonReportText(value: unknown): string {
  return `${escapeInvisiblesInJson(JSON.stringify(value, null, 2))}\n`;
}

/**
 * Escapes prose for CommonMark (spec 0.31, §2.4: ASCII punctuation may be backslash-escaped): the
 * characters that open inline markup, HTML, entities or table cells, so a value such as
 * `<img src=x onerror=…>` or `| ** [x](y)` stays literal text on GitHub and GitLab. Each run of
 * `@`, `$` and backticks, and of a GitLab reference sigil (`#`, `!`, `~`, `%`, `&`, `^`) before a letter,
 * digit, `_` or quote, becomes a code span: GitHub and GitLab find mentions (`@channel`), math
 * (`$x$`) and references (`#12`, `!34`, `~"a label"`, `%v1`) in the text outside code, after
 * Markdown is parsed, so a backslash stops none of them. The `:` of `://` and the `.` after
 * `www` are escaped, so no value becomes a link (GFM's extended autolinks, §6.9). Line breaks
 * become spaces (a displayed value has none; the tool's own text has none either).
 */
export function markdownText(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(MARKDOWN_MARKUP, (char: string, run: string | undefined) => (run ? markdownCode(run) : `\\${char}`));
}

/**
 * markdownText's one pass: a run of `@`, `$`, backticks and reference sigils before a letter, digit,
 * `_` or quote (group 1: one code span, so no two spans or an escaped backtick touch and merge
 * their fences), else one character to backslash-escape.
 */
const MARKDOWN_MARKUP = /((?:[@$`]|[#!~%&^](?=[\p{L}\p{N}_"']))+)|[\\*_[\]()<>&!|~#]|:(?=\/\/)|(?<=\bwww)\./giu;

/**
 * A code span holding `value` literally (CommonMark §6.1): fenced by one more backtick than the
 * longest run inside, padded with spaces when it starts or ends with a backtick. Nothing in a
 * code span is markup, a mention or math.
 */
export function markdownCode(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** HTML text or a double-quoted attribute value (escape-html: `& < > " '`). */
export function htmlText(value: string | number): string {
  return escapeHtml(String(value));
}

/**
 * A value for xmlbuilder2's `ele`/`txt`: xmlbuilder2's serializer escapes `&`, `<`, `>` (and `"`
 * in attributes) but leaves an `&` that starts what looks like a reference (`&name;`, `&#123;`)
 * as it is, so `Q&nbsp;1` would be an undefined entity, `&#0;` an illegal character reference and
 * `AT&amp;T-2027` would read back as `AT&T-2027`. Those ampersands are written `&amp;` here, which
 * the serializer then keeps; every value reads back exactly. Characters XML 1.0 forbids cannot
 * reach it: displayed values have none, and the document replaces any with U+FFFD
 * (format-junit-report.ts).
 */
export function xmlValue(value: string): string {
  return value.replace(/&(?=[A-Za-z]+;|#\d+;)/g, '&amp;');
}

/**
 * `text` with every character RFC 3986 (§2) does not allow in a URI, and every character of
 * `escaped`, percent-encoded as UTF-8 (`|` → `%7C`, a backslash → `%5C`, a space → `%20`); a
 * `%` that does not start an escape is written `%25`; lone surrogates become U+FFFD first.
 */
function percentEncode(text: string, escaped: RegExp): string {
  return text
    .replace(/\p{Cs}/gu, '\ufffd')
    .replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]%]/gu, (char) => encodeURIComponent(char))
    .replace(escaped, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** An absolute URL (the report's base URL) as an RFC 3986 `uri`: characters a URI cannot hold percent-encoded (percentEncode). */
export function uriText(url: string): string {
  return percentEncode(url, /(?!)/g);
}

/**
 * A request target (path and query) as an RFC 3986 relative reference for SARIF's
 * `artifactLocation.uri` (a `uri-reference`): percent-encoded (percentEncode), `#`, `[` and `]`
 * too (a target has no fragment or host); a leading `/` dropped (the reference is relative to
 * the deployment's base) and `./` put before a first segment with a `:` (which would read as a
 * scheme).
 */
export function uriReference(target: string): string {
  const encoded = percentEncode(target.replace(/^\/+/, ''), /[#[\]]/g);
  return /^[^/?]*:/.test(encoded) ? `./${encoded}` : encoded;
}
