// Every example of the user documentation (README.md, docs/*.md) runs as written, against real
// stubs: shell lines against a served stub, `console` blocks compared with what the CLI prints,
// TypeScript and JavaScript compiled and run against the built package (needs `npm run build`).
// A block that cannot run here says why before it (<!-- not-runnable: REASON -->), and one that
// is a file of this repository names it (<!-- from: PATH -->) and must equal it. A stale id, flag
// or output fails here. The shared stub is what `npm start` serves: seed 1, 100 markets.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf, documentationFiles, markingProblem, ROOT, type DocBlock } from './support/doc-blocks.js';
import { CLI, createSandbox } from './support/example-sandbox.js';
import { runConsoleBlock, runShellBlock } from './support/run-shell-example.js';
import { exampleFile, isVitestFile, runProgram, runVitestFiles, typecheckExamples, writeExample, type VitestOutcome } from './support/run-code-example.js';
import { startCliStub, type CliStub } from './support/cli-stub.js';

const blocks = documentationFiles().flatMap((file) => blocksOf(file));
const runnable = blocks.filter((b) => b.notRunnable === undefined && b.from === undefined);
const named = (b: DocBlock): string => `${b.file}:${b.line} (${b.lang})`;
const shell = runnable.filter((b) => b.lang === 'sh' || b.lang === 'bash');
const consoles = runnable.filter((b) => b.lang === 'console');
const code = runnable.filter((b) => b.lang === 'ts' || b.lang === 'js');

let sandbox: ReturnType<typeof createSandbox>;
let stub: CliStub;
let vitestOutcome: Promise<VitestOutcome> | undefined;
const files = new Map<DocBlock, string>();

beforeAll(async () => {
  sandbox = createSandbox();
  stub = await startCliStub(CLI, sandbox.dir);
  code.forEach((b, i) => files.set(b, exampleFile(b, i)));
  for (const b of code) writeExample(b, files.get(b) as string, sandbox.dir, stub.url);
}, 30_000);
afterAll(async () => {
  await stub?.stop();
  sandbox?.remove();
});

describe('the documentation examples', () => {
  it('are each runnable, a file of this repository, or marked not-runnable with a reason', () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(blocks.map(markingProblem).filter(Boolean)).toEqual([]);
  });

  it.each(blocks.filter((b) => b.from !== undefined).map((b) => [named(b), b] as const))('%s is its file, verbatim', (_name, block) => {
    const source = readFileSync(path.join(ROOT, block.from as string), 'utf8');
    expect(`${block.body}\n`).toBe(source);
  });
});

describe.sequential('shell examples', () => {
  it.each(shell.map((b) => [named(b), b] as const))('%s runs', async (_name, block) => {
    expect(await runShellBlock(block.body, sandbox.dir, stub.url)).toEqual([]);
    await stub.reset();
  }, 60_000);

  it.each(consoles.map((b) => [named(b), b] as const))('%s prints what it shows', async (_name, block) => {
    expect(await runConsoleBlock(block.body, sandbox.dir, stub.url)).toEqual([]);
  }, 30_000);
});

describe.sequential('TypeScript and JavaScript examples', () => {
  it.each(code.filter((b) => !isVitestFile(b)).map((b) => [named(b), b] as const))('%s runs', async (_name, block) => {
    expect(await runProgram(files.get(block) as string, sandbox.dir, block.body)).toEqual([]);
    await stub.reset();
  }, 60_000);

  it('type-check (TypeScript, strict, NodeNext)', async () => {
    const errors = await typecheckExamples(code.filter((b) => b.lang === 'ts').map((b) => files.get(b) as string), sandbox.dir);
    expect([...errors].filter(([, list]) => list.length > 0)).toEqual([]);
  }, 120_000);

  it.each(code.filter(isVitestFile).map((b) => [named(b), b] as const))('%s passes under vitest', async (_name, block) => {
    vitestOutcome ??= runVitestFiles(code.filter(isVitestFile).map((b) => files.get(b) as string), sandbox.dir);
    expect((await vitestOutcome).get(files.get(block) as string)).toEqual([]);
  }, 120_000);
});
