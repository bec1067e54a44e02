// Mutation testing (StrykerJS, docs/mutation-testing.md): `npm run test:mutation` mutates the areas
// below and runs the in-process tests of vitest.mutation.config.ts against each mutant. Scope a run to
// one area: `MUTATION_AREA=contract npm run test:mutation`, or one file or lines of it:
// `npm run test:mutation -- --mutate src/contract/checks/market-checks.ts:120-140`. Not run by CI (minutes of
// CPU per area).
import { MUTATION_AREAS, selectedArea } from './scripts/mutation-areas.mjs';

const area = selectedArea();

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // Each mutant runs only the tests that reached it in the dry run.
  coverageAnalysis: 'perTest',
  // One area (MUTATION_AREA=contract|behaviour|deviation|request-path) or all; `--mutate` narrows further.
  mutate: area ? area.mutate : Object.values(MUTATION_AREAS).flatMap((a) => a.mutate),
  // Static mutants (in module-level data: the deviation catalogue's names and descriptions, tables) need
  // every test of the area per mutant: about 30 minutes for src/deviation alone. They are skipped
  // (reported as ignored); MUTATION_STATIC=1 tests them too.
  ignoreStatic: process.env.MUTATION_STATIC !== '1',
  // Stryker adds `// @ts-nocheck` to these files in its sandbox; not to test/ (a test compares a test file
  // with the README's copy of it byte for byte).
  disableTypeChecks: 'src/**/*.ts',
  // Not copied into the sandbox: the Python package's build venv (python/.venv-build, made by
  // npm run test:python, holds a lib64 symlink to a directory that Stryker cannot copy) and its outputs.
  ignorePatterns: ['python', 'test/python-consumers', 'dist'],
  // The machine is shared: two test-runner processes at most.
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${process.env.MUTATION_AREA || 'all'}.html` },
  jsonReporter: { fileName: `reports/mutation/${process.env.MUTATION_AREA || 'all'}.json` },
  // `--incremental` (quick mode): only mutants whose code or tests changed since the area's last run are tested again.
  incrementalFile: `reports/mutation/${process.env.MUTATION_AREA || 'all'}-incremental.json`,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  thresholds: { high: 90, low: 80, break: null },
};
