// Writes llms.txt (the llmstxt.org format) at the repository root from README.md and docs/*.md:
// the project's name and summary, then one line per page of docs/ (its title and the first
// sentence of its opening paragraph). `npm run gen:llms`; test/docs/llms-txt.test.ts fails when
// the file differs from what this renders, so it never drifts from the docs.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Pages for whoever works on market-stub itself, listed under "Optional" (llmstxt.org: what may be skipped for a shorter context). */
const OPTIONAL = new Set(['architecture.md', 'development.md', 'mutation-testing.md', 'options.md', 'record-layout.md']);

/** A page's title (its `# ` heading) and the first sentence of its first paragraph, links and code marks kept as text. */
function pageSummary(text: string): { title: string; first: string } {
  const lines = text.split('\n');
  const title = (lines.find((l) => l.startsWith('# ')) ?? '# (untitled)').slice(2).trim();
  const start = lines.findIndex((l, i) => i > 0 && l.trim() !== '' && !l.startsWith('#') && !l.startsWith('<!--') && !l.startsWith('```') && !l.startsWith('|'));
  const paragraph: string[] = [];
  for (let i = start; i >= 0 && i < lines.length && (lines[i] ?? '').trim() !== ''; i++) paragraph.push((lines[i] ?? '').trim());
  const plain = paragraph.join(' ').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\*\*/g, '');
  const sentence = /^(.+?\.)(\s|$)/.exec(plain)?.[1] ?? plain;
  return { title, first: sentence };
}

/** llms.txt as it should read now. */
export function renderLlmsTxt(root = ROOT): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const { first: summary } = pageSummary(readme);
  const pages = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort();
  const line = (file: string) => {
    const { title, first } = pageSummary(readFileSync(path.join(root, 'docs', file), 'utf8'));
    return `- [${title}](docs/${file}): ${first}`;
  };
  return [
    '# market-stub', '',
    `> ${summary}`, '',
    'Generated from README.md and docs/ by `npm run gen:llms` (scripts/gen-llms-txt.ts). Start at README.md (its Quick start is two commands); every page below is in docs/, its examples run by the tests.', '',
    '## Docs', '',
    ...pages.filter((f) => !OPTIONAL.has(f)).map(line), '',
    '## Optional', '',
    ...pages.filter((f) => OPTIONAL.has(f)).map(line), '',
  ].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  writeFileSync(path.join(ROOT, 'llms.txt'), renderLlmsTxt());
  console.log('llms.txt written');
}
