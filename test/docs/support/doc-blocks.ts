// The fenced code blocks of the user documentation (README.md and docs/*.md, not the generated
// docs/api/), with what the examples test needs to know about each: its language, where it is,
// and the marker written before it, if any:
//   <!-- not-runnable: REASON -->   the block cannot run here (a workflow file, a container engine…)
//   <!-- from: PATH -->             the block is the file PATH of this repository, verbatim
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root (this file is test/docs/support/doc-blocks.ts). */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

/** One fenced code block of a document. */
export interface DocBlock {
  /** Document path from the repository root, e.g. `docs/testing.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** First word of the info string (`sh`, `ts`…), '' when there is none. */
  lang: string;
  body: string;
  /** Reason given by a `not-runnable` marker; '' when the marker gives none. */
  notRunnable?: string;
  /** Repository path named by a `from:` marker. */
  from?: string;
}

/** The documents whose examples must run: README.md and every docs/*.md (docs/api/ is generated). */
export function documentationFiles(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort();
  return ['README.md', ...docs.map((f) => `docs/${f}`)];
}

const MARKER = /^<!--\s*(not-runnable|from)\s*(?::\s*([\s\S]*?))?\s*-->$/;

/** The marker on the last non-blank line before `index`, if it is one. */
function markerBefore(lines: string[], index: number): Pick<DocBlock, 'notRunnable' | 'from'> {
  let i = index - 1;
  while (i >= 0 && lines[i]?.trim() === '') i -= 1;
  const match = MARKER.exec(lines[i]?.trim() ?? '');
  if (!match) return {};
  return match[1] === 'from' ? { from: match[2] ?? '' } : { notRunnable: match[2] ?? '' };
}

/**
 * Every fenced block (``` or longer backtick fences, CommonMark §4.5) of one document.
 * @throws Error naming the file and line of a fence that is never closed.
 */
export function blocksOf(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(`{3,})(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[1] as string;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(fence) && l.slice(fence.length).trim() === '');
    if (end < 0) throw new Error(`${file}:${i + 1}: a code fence that is never closed`);
    const lang = (open[2] ?? '').trim().split(/\s+/)[0] ?? '';
    blocks.push({ file, line: i + 1, lang, body: lines.slice(i + 1, end).join('\n'), ...markerBefore(lines, i) });
    i = end;
  }
  return blocks;
}

/** The languages the examples test runs; a block in any other language must be marked. */
export const RUNNABLE_LANGS = ['sh', 'bash', 'ts', 'js', 'console'] as const;

/** What is wrong with a block's marking, or undefined when it is runnable or marked with a reason. */
export function markingProblem(block: DocBlock): string | undefined {
  const where = `${block.file}:${block.line}`;
  if (block.notRunnable !== undefined) return block.notRunnable.length >= 8 ? undefined : `${where}: not-runnable without a reason`;
  if (block.from !== undefined) return undefined;
  if ((RUNNABLE_LANGS as readonly string[]).includes(block.lang)) return undefined;
  return `${where}: a \`${block.lang || 'plain'}\` block: make it runnable (${RUNNABLE_LANGS.join(', ')}) or write <!-- not-runnable: REASON --> before it`;
}
