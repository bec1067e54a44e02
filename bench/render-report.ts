// Renders a run's results: a plain-text table for the terminal and bench/RESULTS.md.
import { ENDPOINTS, SERVER_NAMES, STUB_NAMES, type AbsoluteGoal, type BenchResults, type EndpointName, type Figure, type RatioGoal } from './bench-results.js';

/** A figure's value for people: thousands separators for rates, two decimals for small values. */
export function formatValue(value: number | null, unit: string): string {
  if (value === null) return '—';
  if (unit === 'req/s' || unit === 'markets/s') return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function formatRatio(ratio: number | null): string {
  return ratio === null ? '—' : `${ratio.toFixed(2)}×`;
}

function mark(pass: boolean | null): string {
  return pass === null ? 'n/a' : pass ? 'pass' : 'MISS';
}

function goalText(goal: RatioGoal | null): string {
  return goal ? `${goal.op === '>=' ? '≥' : '≤'} ${goal.limit}×` : '';
}

function figureGoal(f: Figure): string {
  const texts: string[] = [];
  for (const name of STUB_NAMES) {
    const goal = f.stubs[name].goal;
    if (!goal) continue;
    const text = goalText(goal);
    if (!texts.some((t) => t.startsWith(text))) texts.push(text);
  }
  if (texts.length === 0) return '—';
  // One limit for every stub reads as is; different limits name the stubs they apply to.
  if (texts.length === 1 && STUB_NAMES.every((name) => f.stubs[name].goal)) return texts[0] as string;
  return STUB_NAMES.filter((name) => f.stubs[name].goal).map((name) => `${goalText(f.stubs[name].goal)} (${name})`).join(', ');
}

/** The figure table: each figure, the baseline, each stub configuration with its ratio and verdict, the goals. */
function figureRows(figures: readonly Figure[], first: string): string[][] {
  const rows: string[][] = [[first, 'unit', 'baseline', ...STUB_NAMES.flatMap((name) => [name, 'ratio']), 'goal']];
  for (const f of figures) {
    rows.push([f.label, f.unit, formatValue(f.baseline, f.unit), ...STUB_NAMES.flatMap((name) => {
      const cell = stubCell(f, name);
      return [cell.value, cell.ratio];
    }), figureGoal(f)]);
  }
  return rows;
}

function stubCell(f: Figure, stub: (typeof STUB_NAMES)[number]): { value: string; ratio: string } {
  const s = f.stubs[stub];
  const paired = s.pairedRatio === null ? '' : ` (paired ${formatRatio(s.pairedRatio)})`;
  return { value: formatValue(s.value, f.unit), ratio: `${formatRatio(s.ratio)}${paired}${s.goal ? ` ${mark(s.goal.pass)}` : ''}` };
}

function pad(rows: string[][], rightAlign: (col: number) => boolean): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length))) ?? [];
  return rows
    .map((r) => r.map((cell, c) => (rightAlign(c) ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

/** The terminal table: each figure, the baseline, each stub with its ratio and pass/MISS, the goal; then the absolute goals. */
export function renderTable(results: BenchResults): string {
  const m = results.machine;
  const s = results.settings;
  const lines: string[] = [];
  lines.push(`market-stub bench (${results.mode}) ${results.startedAt} · ${m.cpuCount} × ${m.cpuModel}, ${m.totalMemoryGb.toFixed(1)} GB, Node ${m.node} · commit ${m.commit ?? 'unknown'}`);
  if (results.figures.length > 0) {
    lines.push(`${s.count} markets · ${s.rounds} interleaved round(s) × ${s.durationS} s per server and endpoint · ${s.connections} connections, pipelining ${s.pipelining} · medians over rounds · ratio = stub ÷ baseline; (paired …) = median of per-round ratios, which load verdicts use`);
    lines.push('');
    lines.push(pad(figureRows(results.figures, 'figure'), (c) => c >= 2 && c <= 2 + 2 * STUB_NAMES.length));
  }
  lines.push('');
  const goalRows: string[][] = [['goal', 'measured', 'target', '']];
  for (const g of results.goals) goalRows.push([g.label, g.display, g.target, mark(g.pass)]);
  lines.push(pad(goalRows, () => false));
  if (results.micro) {
    const mi = results.micro;
    lines.push('');
    lines.push(
      `micro: generation ${formatValue(mi.generation.marketsPerSecond, 'markets/s')} markets/s (${mi.generation.count}, fresh process) · ` +
        `validation isMarket ${formatValue(mi.validation.isMarketPerSecond, 'markets/s')} markets/s, market() ${formatValue(mi.validation.marketPerSecond, 'markets/s')} markets/s (${mi.validation.count}; first call ${formatValue(mi.validation.compileMs, 'ms')} ms) · ` +
        `startMarketStub warm ${formatValue(mi.startStub.warmReadyMedianMs, 'ms')} ms`,
    );
  }
  for (const note of loadNotes(results)) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}

/** Spread of the baseline's CPU per request across rounds (max ÷ min) past which a run is flagged: the same code doing the same work should vary far less. */
const SPEED_SWING = 1.25;

/** Warnings a reader needs to trust (or not) the ratios. */
function loadNotes(results: BenchResults): string[] {
  const notes: string[] = [];
  for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
    const baseline = results.load[endpoint]?.baseline;
    const pct = baseline?.median.serverCpuPct;
    if (pct !== null && pct !== undefined && pct < 85) {
      notes.push(`the baseline used ${pct.toFixed(0)}% of a core on ${ENDPOINTS[endpoint]}: the load generator, not the server, set its pace, so req/s ratios there understate the gap; compare server CPU/req.`);
    }
    const cpus = (baseline?.rounds ?? []).map((r) => r.cpuUsPerReq).filter((c): c is number => c !== null && c > 0);
    const [low, high] = [Math.min(...cpus), Math.max(...cpus)];
    if (cpus.length >= 2 && high / low > SPEED_SWING) {
      notes.push(`the baseline's server CPU per request on ${ENDPOINTS[endpoint]} ranged ${low.toFixed(1)}–${high.toFixed(1)} µs across rounds (${(high / low).toFixed(2)}×): the machine's speed changed during the run (other work on shared cores), so a median may come from a fast round for one server and a slow one for another (the per-round table shows which): the ratio of medians is then less reliable than the paired ratio the verdicts use.`);
    }
  }
  if (results.machine.loadAverage1m > 0.5) notes.push(`load average was ${results.machine.loadAverage1m.toFixed(2)} when the run began: other work on the machine skews absolute figures (ratios less so).`);
  return notes;
}

function mdTable(rows: string[][]): string {
  const [head, ...body] = rows;
  if (!head) return '';
  const line = (r: string[]) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(head), `|${head.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`, ...body.map(line)].join('\n');
}

function goalRow(g: AbsoluteGoal): string[] {
  return [g.label, g.display, g.target, mark(g.pass)];
}

/** bench/RESULTS.md: machine, method, every figure with its ratio, goals, per-round data. */
export function renderResultsMarkdown(results: BenchResults, command: string): string {
  const out: string[] = [];
  out.push('# Benchmark results');
  out.push('');
  out.push(`<!-- Generated by \`${command}\` (bench/run-bench.ts). Do not edit by hand: re-run the command. -->`);
  out.push('');
  out.push(`Generated by \`${command}\` on ${results.startedAt} (${results.mode} run, ${results.elapsedS.toFixed(0)} s). How to read it: [README.md](README.md).`);
  out.push('');
  out.push(...machineSection(results), ...methodSection(results), ...goalSections(results), ...microSection(results), ...scaleSection(results));
  if (Object.keys(results.load).length > 0) out.push(...roundsSection(results), ...logsSection(results));
  return `${out.join('\n')}`.replace(/\n*$/, '\n');
}

/** The machine and the code measured. */
function machineSection(results: BenchResults): string[] {
  const out: string[] = [];
  const m = results.machine;
  out.push('## Machine');
  out.push('');
  out.push(mdTable([
    ['', ''],
    ['CPU', `${m.cpuCount} × ${m.cpuModel}`],
    ['Memory', `${m.totalMemoryGb.toFixed(1)} GB`],
    ['Node', m.node],
    ['OS', m.platform],
    ['Load average (1 min) at start', m.loadAverage1m.toFixed(2)],
    ['Code', `commit ${m.commit ?? 'unknown'}; dist/ ${results.build}`],
  ]));
  out.push('');
  return out;
}

/** How each figure was measured: servers, load, latency, cold start, RSS, the other phases. */
function methodSection(results: BenchResults): string[] {
  const out: string[] = [];
  const s = results.settings;
  out.push('## Method');
  out.push('');
  const cmd = (name: string) => `\`${results.servers[name as keyof typeof results.servers]?.command ?? 'not started'}\``;
  out.push(`- Servers, each a separate child process on 127.0.0.1, port 0, all serving the same ${s.count} markets (seed ${s.seed}, clock ${s.clock}); before loading, the harness checks that all of them answer \`GET /markets\` and \`GET /markets/{id}\` with byte-identical bodies:`);
  out.push(`  - **baseline**: ${cmd('baseline')}: bare \`node:http\`, bodies serialised once at start, one Map lookup per request (the physical limit).`);
  out.push(`  - **stub-generated**: ${cmd('stub-generated')}.`);
  out.push(`  - **stub-fixtures**: ${cmd('stub-fixtures')}, the file written by \`market-stub generate --count ${s.count} --seed ${s.seed} --clock ${s.clock}\`.`);
  out.push(`  - **stub-quiet**: ${cmd('stub-quiet')}: no request log.`);
  const sampleLine = results.servers['stub-generated']?.sampleLogLine ?? null;
  const format = sampleLine === null ? 'unknown' : sampleLine.startsWith('{') ? 'JSON' : 'text';
  out.push(`  - Default options otherwise: request logging on, in the format the stub picks by default for a stdout that is not a terminal (${format}; sample line below).` + ' Each server\'s stdout (ready line and request log) was appended to a file in the run\'s temp dir, as `serve > file` would; the harness read it only for the ready line and, after the server stopped, to count its lines (table below). The load generator never reads it.');
  out.push(`- Load: ${s.loadGenerator}, ${s.connections} connections, pipelining ${s.pipelining}. \`GET /markets/{id}\`: each connection cycles through all ${s.count} ids; \`GET /markets\`: the whole list. ${s.warmupS > 0 ? `${s.warmupS} s unmeasured warm-up per server and endpoint, then ` : ''}${s.rounds} round(s); each round runs every endpoint on every server for ${s.durationS} s, the server order rotating each round. Figures are medians over rounds; a load figure's ratio is the ratio of those medians, and \`(paired …)\` is the median over rounds of the stub's value ÷ the baseline's in the same round: the servers of one round run back to back, so a change of the machine's speed between rounds cancels out of it, and the load goals' pass/MISS is judged on it. A run with any error, timeout or non-2xx response aborts the benchmark.`);
  out.push(`- Latency: ${s.loadGenerator.startsWith('wrk') ? "wrk's latency distribution (µs resolution), p50/p99 per run" : 'every 2xx response time (autocannon `response` event, sub-millisecond), nearest-rank p50/p99 per run'}. Server CPU/req: the server process's user + system CPU time during the run (/proc/PID/stat) over the responses counted; it does not depend on how fast the load generator is.`);
  out.push(`- Cold start: spawn \`node …\` to the first complete 200 on \`GET /markets\`, polled on fresh connections every ${s.coldStartPollMs} ms, ${s.coldStartSamples} start(s) per server interleaved, median; the baseline's start includes reading and serialising the fixtures file. stdout of these starts is discarded.`);
  out.push('- RSS after load: VmRSS of each server process (/proc/PID/status) after all its load runs, while still running; peak RSS: its VmHWM then (the most it ever held).');
  out.push('- `--help`: spawn to exit of `node dist/cli.cjs --help` and of `node -e 0`, interleaved, medians. `serve --count 100000`: spawn to the last byte of its first `GET /markets` (polled like a cold start). `serve --count 1000000`: one whole `GET /markets` after `/healthz` answers, request to last byte. Checker: bench/check-bench.ts, each `check` a process of its own.');
  out.push('');
  return out;
}

/** The figures with their ratios and the absolute goals, with the load notes. */
function goalSections(results: BenchResults): string[] {
  const out: string[] = [];
  if (results.figures.length > 0) {
    out.push('## Figures and goals (ratio = stub ÷ baseline, same run)');
    out.push('');
    out.push(mdTable(figureRows(results.figures, 'Figure')));
    out.push('');
  }
  out.push('## Absolute goals');
  out.push('');
  out.push(mdTable([['Goal', 'Measured', 'Target', ''], ...results.goals.map(goalRow)]));
  out.push('');
  const notes = loadNotes(results);
  if (notes.length > 0) {
    out.push(...notes.map((n) => `> Note: ${n}`));
    out.push('');
  }
  return out;
}

/** The micro-benchmarks, when they ran. */
function microSection(results: BenchResults): string[] {
  const out: string[] = [];
  if (results.micro) {
    const mi = results.micro;
    out.push('## Micro-benchmarks (fresh Node process each)');
    out.push('');
    out.push(mdTable([
      ['Benchmark', 'Result'],
      ['Generation: `generateMarkets(n)` in a fresh process (value pools drawn inside the timing)', `${formatValue(mi.generation.marketsPerSecond, 'markets/s')} markets/s (n = ${mi.generation.count}, ${mi.generation.ms.toFixed(0)} ms)`],
      ['Validation: `getMarketValidator().isMarket`', `${formatValue(mi.validation.isMarketPerSecond, 'markets/s')} markets/s (${mi.validation.count} generated markets)`],
      ['Validation: `getMarketValidator().market` (findings)', `${formatValue(mi.validation.marketPerSecond, 'markets/s')} markets/s`],
      ['First `getMarketValidator()` (standalone code, compiled at build time)', `${formatValue(mi.validation.compileMs, 'ms')} ms`],
      [`\`startMarketStub({ count: ${mi.startStub.count} })\` first call after import`, `median ${formatValue(mi.startStub.firstReadyMedianMs, 'ms')} ms; samples ${mi.startStub.firstReadyMs.map((v) => v.toFixed(1)).join(', ')} ms`],
      ['`startMarketStub` later calls in the same process', mi.startStub.warmReadyMedianMs === null ? '—' : `median ${formatValue(mi.startStub.warmReadyMedianMs, 'ms')} ms`],
      [`\`await import('${mi.entry}')\` in a fresh process`, `median ${formatValue(mi.importTime.medianMs, 'ms')} ms; samples ${mi.importTime.samplesMs.map((v) => v.toFixed(1)).join(', ')} ms`],
    ]));
    out.push('');
  }
  return out;
}

/** The scale check, when it ran. */
function scaleSection(results: BenchResults): string[] {
  const out: string[] = [];
  const s = results.settings;
  if (results.scale) {
    const sc = results.scale;
    out.push(`## Scale check: \`serve --count ${sc.count.toLocaleString('en-US')}\``);
    out.push('');
    out.push(`Bounded at ${s.scaleTimeoutS} s. Start: ${sc.startMs === null ? `**${sc.failure ?? 'did not start'}**` : `${sc.startMs.toFixed(0)} ms to the first 200`}. RSS after the answers: ${sc.rssMb === null ? '—' : `${sc.rssMb.toFixed(1)} MB (peak ${sc.peakRssMb?.toFixed(1) ?? '—'} MB)`}.`);
    if (sc.answers.length > 0) {
      out.push('');
      out.push(mdTable([['Market index', 'market_id', 'Status', 'Right market', 'ms'], ...sc.answers.map((a) => [String(a.index), `\`${a.marketId}\``, String(a.status), a.idMatches ? 'yes' : 'no', a.ms.toFixed(1)])]));
    }
    out.push('');
  }
  return out;
}

/** Every round of every server, per endpoint. */
function roundsSection(results: BenchResults): string[] {
  const out: string[] = [];
  out.push('## Per-round data');
  out.push('');
  for (const endpoint of Object.keys(ENDPOINTS) as EndpointName[]) {
    const rows: string[][] = [['Server', 'Round', 'req/s', 'p50 ms', 'p99 ms', 'mean ms', 'CPU µs/req', 'server CPU %', '2xx']];
    for (const server of SERVER_NAMES) {
      for (const r of results.load[endpoint]?.[server]?.rounds ?? []) {
        rows.push([server, String(r.round), formatValue(r.reqPerSec, 'req/s'), r.p50Ms.toFixed(3), r.p99Ms.toFixed(3), r.meanMs.toFixed(3), formatValue(r.cpuUsPerReq, 'µs'), formatValue(r.serverCpuPct, '%'), String(r.requests)]);
      }
    }
    out.push(`### ${ENDPOINTS[endpoint]}`);
    out.push('');
    out.push(mdTable(rows));
    out.push('');
  }
  return out;
}

/** Cold starts, RSS and logs per server, with a request log line as written. */
function logsSection(results: BenchResults): string[] {
  const out: string[] = [];
  out.push('### Cold starts, RSS and logs');
  out.push('');
  const rows: string[][] = [['Server', 'Cold starts ms', 'RSS after load MB', 'Peak RSS MB', 'stdout lines', 'Requests answered']];
  for (const server of SERVER_NAMES) {
    const c = results.coldStart[server];
    const r = results.rssAfterLoad[server];
    const rec = results.servers[server];
    rows.push([
      server,
      c ? (c.samplesMs.map((v) => v.toFixed(0)).join(', ') || `failed: ${c.failure ?? ''}`) : '—',
      r ? r.rssMb.toFixed(1) : '—',
      r?.peakRssMb ? r.peakRssMb.toFixed(1) : '—',
      rec?.logLines === null || rec?.logLines === undefined ? '—' : rec.logLines.toLocaleString('en-US'),
      rec ? rec.requestsAnswered.toLocaleString('en-US') : '—',
    ]);
  }
  out.push(mdTable(rows));
  const sample = results.servers['stub-generated']?.sampleLogLine;
  if (sample) {
    out.push('');
    out.push(`A request log line as the stub wrote it: \`${sample}\``);
  }
  out.push('');
  return out;
}
