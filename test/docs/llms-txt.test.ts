// llms.txt (llmstxt.org) is what scripts/gen-llms-txt.ts renders from README.md and docs/, so it
// never drifts from the docs; it follows the format (an H1, a blockquote summary, H2 sections of
// link lists), names every page of docs/ and only files that exist, and ships in the package.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderLlmsTxt } from '../../scripts/gen-llms-txt.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const text = readFileSync(path.join(ROOT, 'llms.txt'), 'utf8');

describe('llms.txt', () => {
  it('is what `npm run gen:llms` renders from the docs now', () => {
    expect(text).toBe(renderLlmsTxt(ROOT));
  });

  it('has the llmstxt.org shape and links every page of docs/, each to a file that exists', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('# market-stub');
    expect(lines[2]).toMatch(/^> \S/);
    expect(lines.filter((l) => l.startsWith('## '))).toEqual(['## Docs', '## Optional']);
    const links = [...text.matchAll(/^- \[[^\]]+\]\(([^)]+)\): \S/gm)].map((m) => m[1] as string);
    expect(links.sort()).toEqual(readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`).sort());
    expect(links.filter((l) => !existsSync(path.join(ROOT, l)))).toEqual([]);
  });

  it('is in the package (package.json files)', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(manifest.files).toContain('llms.txt');
  });
});
