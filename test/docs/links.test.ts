// Every relative link of the user documentation (README.md, docs/*.md) reaches a file of this
// repository, and every #anchor a heading of the page it names (GitHub's heading slugs), so moving
// a section between pages cannot leave a dead link behind.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { documentationFiles, ROOT } from './support/doc-blocks.js';

/** Pages the index links to that another branch of this session writes (the lead's): drop once merged. */

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function headingSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replaceAll(' ', '-');
}

/** The anchors of a Markdown file's headings (outside code fences). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (heading) anchors.add(headingSlug(heading[1] as string));
  }
  return anchors;
}

/** Links of a Markdown text outside code fences and code spans: [text](target). */
function linksOf(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
}

it('are live: each relative link reaches a file, each #anchor a heading of it', () => {
  const dead: string[] = [];
  for (const doc of documentationFiles()) {
    for (const link of linksOf(readFileSync(path.join(ROOT, doc), 'utf8'))) {
      if (/^[a-z]+:/i.test(link)) continue;
      const [target = '', anchor] = link.split('#');
      const file = target === '' ? path.join(ROOT, doc) : path.resolve(path.dirname(path.join(ROOT, doc)), target);
      if (!existsSync(file)) dead.push(`${doc}: ${link} (no such file)`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) dead.push(`${doc}: ${link} (no such heading)`);
    }
  }
  expect(dead).toEqual([]);
});

it('slugs headings as GitHub does', () => {
  expect(headingSlug('Deviations: contract drift on demand')).toBe('deviations-contract-drift-on-demand');
  expect(headingSlug('Admin API (`/__stub`)')).toBe('admin-api-__stub');
});
