// The checker's figures, each a budget checked in the same run:
//   1. `check --all` on 10,000 markets of a local stub (serve --fixtures), under 5 s, and the
//      same at concurrency 1, 4, 8 (default), 16 and 32, as ratios to the default;
//   2. `check` of a 200,000-market list of a local stub, under 2 s;
//   3. peak RSS of `check` on a 500 MiB list (synthetic deployment), under 2× the body;
//   4. peak RSS of `check` on a 1 GiB list over the default --max-body-mb (exit 2), under 2× the limit.
// Every check runs as its own `node dist/cli.cjs` process against a server in another process;
// peak RSS is the kernel's (process.resourceUsage().maxRSS, via bench/max-rss-probe.cjs). The
// memory budgets hold for what the body costs: the peak minus the peak of the same command
// checking a 10-market list (node, undici, yargs, ajv: about 120 MiB), both printed.
//   npx tsx bench/check-bench.ts [--quick]     (also part of `npm run bench`, not of --smoke)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTracked } from './tracked-children.js';

/** One budgeted figure. */
export interface CheckerFigure {
  name: string;
  command: string;
  value: number;
  unit: 'ms' | 'MiB' | '× body' | '× limit';
  budget: number;
  met: boolean;
  detail: string;
}

/** Sizes of a run: full (the budgets' sizes) or quick. */
export interface CheckerBenchOptions {
  root: string;
  quick: boolean;
  log: (line: string) => void;
}

const MiB = 1_048_576;

/**
 * Runs the checker benchmark and returns its figures (budgets met or not; a missed budget is a
 * result, not a failure). @throws when a server cannot start or a check does not run at all.
 */
export async function runCheckerBench(options: CheckerBenchOptions): Promise<CheckerFigure[]> {
  const { root, quick, log } = options;
  const cli = path.join(root, 'dist/cli.cjs');
  const probe = path.join(root, 'bench/max-rss-probe.cjs');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'market-stub-check-bench-'));
  const figures: CheckerFigure[] = [];
  const bench: CheckerBench = { root, cli, probe, tmp, log };
  try {
    const allCount = quick ? 2_000 : 10_000;
    const listCount = quick ? 50_000 : 200_000;
    const bigCount = quick ? 700_000 : 3_500_000;
    const overCount = quick ? 1_400_000 : 7_000_000;

    figures.push(await checkAllFigure(bench, allCount));
    figures.push(await listFigure(bench, listCount));
    figures.push(...(await rssFigures(bench, bigCount, overCount)));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return figures;
}

/** A table of the figures, for stdout. */
export function renderCheckerFigures(figures: readonly CheckerFigure[]): string {
  const lines = ['', 'Checker: budgets', ''];
  for (const f of figures) {
    const value = f.unit === 'ms' ? `${f.value.toFixed(0)} ms` : `${f.value.toFixed(2)} ${f.unit}`;
    const budget = f.unit === 'ms' ? `< ${f.budget} ms` : `< ${f.budget} ${f.unit}`;
    lines.push(`  ${f.met ? 'met   ' : 'MISSED'} ${f.name}: ${value} (budget ${budget}); ${f.detail}`);
  }
  return `${lines.join('\n')}\n`;
}

interface Started {
  url: string;
  listBytes: number;
  stop(): Promise<void>;
}

/** `market-stub serve --fixtures FILE` with `count` conforming synthetic markets. */
async function startStub(root: string, cli: string, tmp: string, count: number): Promise<Started> {
  const file = path.join(tmp, `markets-${count}.json`);
  const markets = Array.from({ length: count }, (_, k) => {
    const i = k + 1;
    const cents = 1 + ((i * 37) % 99);
    return { market_id: `BENCH-${String(i).padStart(7, '0')}`, title: `Will benchmark market number ${i} resolve yes by the end of the quarter?`, status: 'active', yes_price: cents / 100, no_price: (100 - cents) / 100, resolution_date: '2099-12-31' };
  });
  writeFileSync(file, JSON.stringify(markets));
  return startProcess(root, [cli, 'serve', '--fixtures', file, '--port', '0', '--quiet'], /listening on (http:\/\/\S+)/, 0);
}

async function startSynthetic(root: string, count: number): Promise<Started> {
  return startProcess(root, [path.join(root, 'bench/synthetic-deployment.mjs'), '--count', String(count)], /listening on (http:\/\/\S+)/, 0);
}

function startProcess(root: string, args: string[], ready: RegExp, listBytes: number): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start within 120 s: ${out}`)), 120_000);
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const m = ready.exec(out);
      if (!m?.[1]) return;
      clearTimeout(timer);
      const bytes = Number(/list bytes (\d+)/.exec(out)?.[1] ?? listBytes);
      resolve({
        url: m[1],
        listBytes: bytes,
        stop: () => new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

/** Runs `node -r max-rss-probe dist/cli.cjs check --base-url URL …` and measures it. */
function runCheck(cli: string, probe: string, [url, ...args]: string[]): Promise<{ code: number | null; ms: number; maxRssMiB: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawnTracked(process.execPath, ['-r', probe, cli, 'check', '--base-url', url as string, '--format', 'json', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      const kb = Number(/max-rss-kb (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      if (!Number.isFinite(kb)) reject(new Error(`check did not report its peak memory (exit ${code}): ${stderr.slice(-500)}`));
      else resolve({ code, ms, maxRssMiB: kb / 1024 });
    });
  });
}

const invoked = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
  const figures = await runCheckerBench({ root, quick: process.argv.includes('--quick'), log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(renderCheckerFigures(figures));
}

/** What every figure's run needs: the CLI, the RSS probe, a temporary directory, the progress log. */
interface CheckerBench {
  root: string;
  cli: string;
  probe: string;
  tmp: string;
  log: (line: string) => void;
}

/** `check --all` on a local stub at concurrencies 1–32 (best of each; budget 5 s at the default 8). */
async function checkAllFigure(bench: CheckerBench, allCount: number): Promise<CheckerFigure> {
  const { root, cli, probe, tmp, log } = bench;
  log(`check-bench: check --all on ${allCount} markets of a local stub…`);
  const small = await startStub(root, cli, tmp, allCount);
  try {
    const runs: Record<number, number> = {};
    for (const concurrency of [8, 1, 4, 16, 32, 8]) {
      const run = await runCheck(cli, probe, [small.url, '--all', '--concurrency', String(concurrency)]);
      runs[concurrency] = Math.min(runs[concurrency] ?? Infinity, run.ms);
    }
    const ratios = Object.entries(runs).map(([c, ms]) => `${c}: ${(ms / (runs[8] as number)).toFixed(2)}`).join(', ');
    return { name: `check --all, ${allCount} markets`, command: `market-stub check --base-url STUB --all`, value: runs[8] as number, unit: 'ms', budget: 5_000, met: (runs[8] as number) < 5_000, detail: `time per concurrency as a ratio to the default 8: ${ratios}` };
  } finally {
    await small.stop();
  }
}

/** `check` of a large list of a local stub, best of 3 process runs (budget 2 s). */
async function listFigure(bench: CheckerBench, listCount: number): Promise<CheckerFigure> {
  const { root, cli, probe, tmp, log } = bench;
  log(`check-bench: check of a ${listCount}-market list of a local stub…`);
  const large = await startStub(root, cli, tmp, listCount);
  try {
    let best = Infinity;
    let rss = 0;
    for (let k = 0; k < 3; k++) {
      const run = await runCheck(cli, probe, [large.url]);
      best = Math.min(best, run.ms);
      rss = Math.max(rss, run.maxRssMiB);
    }
    return { name: `check, ${listCount}-market list (+ 50 markets)`, command: 'market-stub check --base-url STUB', value: best, unit: 'ms', budget: 2_000, met: best < 2_000, detail: `best of 3 process runs; peak RSS ${rss.toFixed(0)} MiB` };
  } finally {
    await large.stop();
  }
}

/** Peak RSS of `check` on a huge synthetic list, within and over --max-body-mb, above a 10-market baseline (budget 2× the body or the limit). */
async function rssFigures(bench: CheckerBench, bigCount: number, overCount: number): Promise<CheckerFigure[]> {
  const { root, cli, probe, log } = bench;
  const figures: CheckerFigure[] = [];
  const tiny = await startSynthetic(root, 10);
  const baseline = await runCheck(cli, probe, [tiny.url]).then((run) => run.maxRssMiB).finally(() => tiny.stop());

  log(`check-bench: peak RSS of check on a ${bigCount}-market list (synthetic deployment)…`);
  const big = await startSynthetic(root, bigCount);
  try {
    const run = await runCheck(cli, probe, [big.url, '--max-body-mb', String(Math.ceil(big.listBytes / MiB) + 1), '--timeout-ms', '600000']);
    const body = big.listBytes / MiB;
    const ratio = (run.maxRssMiB - baseline) / body;
    figures.push({ name: `peak RSS, ${body.toFixed(0)} MiB list`, command: 'market-stub check --base-url SYNTHETIC --max-body-mb N', value: ratio, unit: '× body', budget: 2, met: ratio < 2 && run.code === 0, detail: `${run.maxRssMiB.toFixed(0)} MiB peak (${(run.maxRssMiB / body).toFixed(2)}× the body absolute; ${baseline.toFixed(0)} MiB for a 10-market list) for a ${body.toFixed(0)} MiB body in ${(run.ms / 1000).toFixed(1)} s, exit ${run.code}` });
  } finally {
    await big.stop();
  }

  log(`check-bench: peak RSS of check on a ${overCount}-market list over the default --max-body-mb…`);
  const over = await startSynthetic(root, overCount);
  try {
    const run = await runCheck(cli, probe, [over.url]);
    const ratio = (run.maxRssMiB - baseline) / 64;
    figures.push({ name: `peak RSS, ${(over.listBytes / MiB).toFixed(0)} MiB list over the 64 MiB limit`, command: 'market-stub check --base-url SYNTHETIC', value: ratio, unit: '× limit', budget: 2, met: ratio < 2 && run.code === 2, detail: `${run.maxRssMiB.toFixed(0)} MiB peak (${baseline.toFixed(0)} MiB for a 10-market list), exit ${run.code} after ${(run.ms / 1000).toFixed(1)} s` });
  } finally {
    await over.stop();
  }
  return figures;
}
