import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Code comments cite only what a reader can open: files of this repository, RFCs, specs and
// upstream projects' issues (a project name and `#number`, as nodejs/undici#201). A design document kept
// outside the repository, or an issue number of this project's own tracker, is a pointer nobody
// can follow: a comment says the reason itself instead.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED = ['src', 'test', 'bench', 'scripts'];
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const OWNED_ELSEWHERE: string[] = [];

/** Names of documents that live outside the repository (the design notes the project grew from). */
const OUTSIDE_DOCUMENTS = ['FIELD-NOTES', 'ARCHITECTURE', 'STYLE-ANCHORS'];
/** The word issue (or issues) and a bare number: this project's tracker. An upstream issue names its project and a `#number` instead. */
const PROJECT_ISSUE = /\bissues? \d/i;

/** Every comment of a source file with its line number: `// …` to the line's end and `/* … *\/` blocks (strings are skipped). */
function comments(text: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  // One pass over strings, template literals and comments: a string is consumed whole, so a `//`
  // inside it (a URL) is not a comment. Regular-expression literals are not recognised.
  const token = /'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  for (const m of text.matchAll(token)) {
    if (m[0].startsWith('//') || m[0].startsWith('/*')) found.push({ line: lineAt(m.index), text: m[0] });
  }
  return found;
}

/** The comments that cite an outside document or a project issue number, as `file:line: text`. */
function badCitations(file: string, text: string): string[] {
  return comments(text).flatMap((c) => c.text.split('\n').flatMap((line, k) => {
    const cites = OUTSIDE_DOCUMENTS.some((name) => line.includes(name)) || PROJECT_ISSUE.test(line);
    return cites ? [`${file}:${c.line + k}: ${line.trim()}`] : [];
  }));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && CODE.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((file) => !file.split(path.sep).includes('node_modules') && !file.includes(`${path.sep}generated${path.sep}`))
    .filter((file) => !OWNED_ELSEWHERE.some((prefix) => file.startsWith(prefix)));
}

describe('code comments cite only what a reader can open', () => {
  it('no comment in src, test, bench or scripts cites a document outside the repository or an issue number of this project', () => {
    const files = SCANNED.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(200);
    expect(files.flatMap((file) => badCitations(file, readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('the scan finds each kind of citation, and leaves RFCs, upstream issues and strings alone', () => {
    const outside = ['FIELD', 'NOTES'].join('-');
    const sample = [
      `// seen in the wild (${outside} §3)`,
      '/** measured under wrk (issue 13) */',
      '/*',
      ' * Issues 6 and 13 state the goals.',
      ' */',
      '// RFC 9110 §15.2; nodejs/undici#201; ajv issues #928',
      `const s = '// not a comment: issue 7 ${outside}';`,
    ].join('\n');
    expect(badCitations('x.ts', sample)).toEqual([
      `x.ts:1: // seen in the wild (${outside} §3)`,
      'x.ts:2: /** measured under wrk (issue 13) */',
      'x.ts:4: * Issues 6 and 13 state the goals.',
    ]);
  });
});
