// `npm run test:reliability [-- --quick]`: the standing reliability suite against
// the built CLI: hostile requests, an RSS soak with the journal full, admin abuse latency, the
// security cases, hot reload loops, and generate's flat memory (2,000,000 markets quick,
// 10,000,000 full, heap capped at 32 MiB). --quick (CI) takes a few minutes: 10,000 hostile requests,
// a 20 s soak, 10 s of abuse, 10 rounds per save pattern; the full run: 30,000, 60 s, 30 s, 100.
// Prints the figures, then `N passed, N failed`; exits 0 only when every test passed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const quick = process.argv.includes('--quick');
if (!existsSync(path.join(root, 'dist/cli.cjs'))) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const out = mkdtempSync(path.join(tmpdir(), 'ms-reliability-'));
const figures = path.join(out, 'figures.txt');
const results = path.join(out, 'results.json');
const run = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', '-c', 'vitest.reliability.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, MARKET_STUB_RELIABILITY: quick ? 'quick' : 'full', MARKET_STUB_RELIABILITY_FIGURES: figures, MARKET_STUB_WATCH_ROUNDS: quick ? '10' : '100' },
});
/** Passed and failed counts from vitest's JSON report; a missing report counts as one failure. */
function counts(): [number, number] {
  try {
    const report = JSON.parse(readFileSync(results, 'utf8')) as { numPassedTests: number; numTotalTests: number };
    return [report.numPassedTests, report.numTotalTests - report.numPassedTests];
  } catch {
    return [0, 1];
  }
}
const [passed, counted] = counts();
let failed = counted;
if (run.status !== 0 && failed === 0) failed = 1;
console.log(`\nreliability (${quick ? 'quick' : 'full'}) figures:`);
if (existsSync(figures)) console.log(readFileSync(figures, 'utf8').trim().split('\n').map((l) => `  ${l}`).join('\n'));
rmSync(out, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
