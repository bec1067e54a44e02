// Type-checks the consumer under each TypeScript major people use now: 5 (5.9), 6 and 7 (the
// native compiler), each installed here under its own name (package.json devDependencies, npm
// aliases), through both tsconfigs (NodeNext: import and require conditions; Bundler).
// Last line: "types: N passed, N failed". Exit 1 when any check failed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const COMPILERS = ['typescript-5', 'typescript', 'typescript-7'];
const CONFIGS = ['tsconfig.json', 'tsconfig.bundler.json'];
let passed = 0;
let failed = 0;
for (const name of COMPILERS) {
  const { version } = JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, import.meta.url), 'utf8'));
  for (const config of CONFIGS) {
    const r = spawnSync(process.execPath, [`node_modules/${name}/bin/tsc`, '-p', config], { encoding: 'utf8', timeout: 120_000 });
    const ok = r.status === 0;
    if (ok) passed++;
    else failed++;
    process.stdout.write(`TypeScript ${version}, ${config}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? 'timeout'})\n${r.stdout}${r.stderr}`}\n`);
  }
}
process.stdout.write(`types: ${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
