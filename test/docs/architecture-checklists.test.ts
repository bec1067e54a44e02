// The "How to add…" checklists of docs/architecture.md keep their file counts true: each checklist
// states `Files by hand (N): ` followed by N comma-separated items (up to a `;`, after which it may
// say what else the change needs), each item one or more
// backticked paths (`a` or `b`: either one, counted once), and every path named exists (a path
// with a `<placeholder>` is a file the change creates: its folder must exist). A moved or renamed
// file, or a count nobody updated, fails here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const section = /^## How to add…\n([\s\S]*?)^## /m.exec(doc)?.[1] ?? '';
const checklists = section.split(/^### /m).slice(1).map((text) => ({ name: text.split('\n', 1)[0] ?? '', text }));

/** The items after `Files by hand (N): ` up to a `;` or the end of its paragraph, split at the commas before a backtick. */
function filesByHand(text: string): { count: number; items: string[][] } | undefined {
  const m = /Files by hand \((\d+)\): ([\s\S]*?)(?:\n\n|$)/.exec(text);
  if (!m) return undefined;
  const items = (m[2] ?? '').split(';')[0]!.replace(/\.\s*$/, '').split(/,\s+(?=`)/).map((item) => [...item.matchAll(/`([^`]+)`/g)].map((p) => p[1] ?? ''));
  return { count: Number(m[1]), items };
}

describe('docs/architecture.md: How to add…', () => {
  it('has the checklists', () => {
    expect(checklists.map((c) => c.name)).toEqual(expect.arrayContaining(['an option', 'a route the stub answers', 'a control', 'a deviation', 'a finding', 'a report format']));
  });

  it.each(checklists.map((c) => [c.name, c.text] as const))('%s: states its files by hand, as many as it names, each one there', (_name, text) => {
    const stated = filesByHand(text);
    expect(stated, 'a "Files by hand (N): `path`, …" line').toBeDefined();
    if (!stated) return;
    expect(stated.items.length).toBe(stated.count);
    for (const item of stated.items) {
      expect(item.length, `an item without a backticked path: ${JSON.stringify(item)}`).toBeGreaterThan(0);
      for (const file of item) {
        const where = file.includes('<') ? path.dirname(file) : file;
        expect(existsSync(path.join(ROOT, where)), `${file} (from the checklist) is not in the repository`).toBe(true);
      }
    }
  });
});
