// Runs the TypeScript and JavaScript examples of the documentation in the sandbox, importing
// `market-stub` as a reader's project does (the built package):
//   - a block that imports from 'vitest' is a test file: all of them run in one vitest process,
//     and each must pass;
//   - any other block is a program run with tsx (`node --import tsx`), which must exit 0 and print,
//     in order, what its `// → TEXT` comments say it prints;
//   - http://127.0.0.1:4010 in a block is the stub the test started (what `npm start` serves).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, type DocBlock } from './doc-blocks.js';
import { exampleEnv, run } from './example-sandbox.js';

/** The file name a block runs as in the sandbox. */
export function exampleFile(block: DocBlock, index: number): string {
  const stem = `${block.file.replace(/\W+/g, '-')}-${block.line}-${index}`;
  if (isVitestFile(block)) return `${stem}.test.ts`;
  return block.lang === 'js' ? `${stem}.mjs` : `${stem}.ts`;
}

export function isVitestFile(block: DocBlock): boolean {
  return /from 'vitest'/.test(block.body);
}

/** What the block's `// → TEXT` comments say it prints, in order. */
export function promisedOutput(body: string): string[] {
  return [...body.matchAll(/\/\/ → (.+)$/gm)].map((m) => (m[1] as string).trim());
}

/** Writes the block into the sandbox with the started stub's URL in place of the documented one. */
export function writeExample(block: DocBlock, file: string, dir: string, stubUrl: string): string {
  const target = path.join(dir, file);
  writeFileSync(target, block.body.replaceAll('http://127.0.0.1:4010', stubUrl));
  return target;
}

/** Runs a program example; resolves with its problems (empty when it works as documented). */
export async function runProgram(file: string, dir: string, body: string): Promise<string[]> {
  const ran = await run(process.execPath, ['--import', 'tsx', file], dir, exampleEnv(), 60_000);
  if (ran.code !== 0) return [`exit ${ran.code}\n${ran.stdout}${ran.stderr}`.slice(0, 3000)];
  let from = 0;
  const problems: string[] = [];
  for (const promised of promisedOutput(body)) {
    const at = ran.stdout.indexOf(promised, from);
    if (at < 0) problems.push(`does not print "${promised}" (in order); printed:\n${ran.stdout}`);
    else from = at + promised.length;
  }
  return problems;
}

/** Per vitest example file: its failure messages (empty when every test passed). */
export type VitestOutcome = Map<string, string[]>;

/** Runs every vitest example file of the sandbox in one vitest process. */
export async function runVitestFiles(files: string[], dir: string): Promise<VitestOutcome> {
  const outcome: VitestOutcome = new Map(files.map((f) => [f, ['not run: vitest reported nothing for it']]));
  if (files.length === 0) return outcome;
  writeFileSync(path.join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'], testTimeout: 20000 } };\n");
  const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
  const ran = await run(process.execPath, [vitest, 'run', '--reporter=json', '--outputFile=vitest-report.json', ...files], dir, exampleEnv(), 120_000);
  let report: { testResults?: { name: string; status: string; message?: string; assertionResults?: { status: string; failureMessages?: string[] }[] }[] };
  try {
    report = JSON.parse(readFileSync(path.join(dir, 'vitest-report.json'), 'utf8')) as typeof report;
  } catch {
    for (const f of files) outcome.set(f, [`vitest wrote no report (exit ${ran.code})\n${ran.stdout}${ran.stderr}`.slice(0, 3000)]);
    return outcome;
  }
  for (const result of report.testResults ?? []) {
    const failures = (result.assertionResults ?? []).filter((a) => a.status !== 'passed').flatMap((a) => a.failureMessages ?? [a.status]);
    const tests = result.assertionResults?.length ?? 0;
    const problems = result.status === 'passed' && tests > 0 ? [] : [result.message ?? '', ...failures].filter(Boolean);
    outcome.set(path.basename(result.name), tests === 0 && problems.length === 0 ? ['no test ran'] : problems);
  }
  return outcome;
}

/**
 * Type-checks the TypeScript examples of the sandbox with the repository's TypeScript (strict,
 * NodeNext modules, as a reader's project compiles them); resolves with tsc's errors, by file.
 */
export async function typecheckExamples(files: string[], dir: string): Promise<Map<string, string[]>> {
  const errors = new Map<string, string[]>(files.map((f) => [f, []]));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true, types: ['node'] },
    files,
  }));
  const ran = await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir, exampleEnv(), 120_000);
  for (const line of ran.stdout.split('\n')) {
    const file = /^([^(\s]+)\(\d+,\d+\): error/.exec(line)?.[1];
    if (file) errors.get(file)?.push(line);
    else if (/error TS/.test(line)) errors.set('(tsc)', [...(errors.get('(tsc)') ?? []), line]);
  }
  return errors;
}
