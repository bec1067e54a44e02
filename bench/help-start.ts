// `market-stub --help` against `node -e 0`, whole processes, interleaved (the goal: under 2×).
import { median } from './bench-stats.js';
import { spawnTracked, stopChild } from './tracked-children.js';

export interface HelpStartResult {
  /** Each `node -e 0`, spawn to exit, ms. */
  nodeMs: number[];
  /** Each `node dist/cli.cjs --help`, spawn to exit, ms. */
  helpMs: number[];
  nodeMedianMs: number;
  helpMedianMs: number;
  /** helpMedianMs ÷ nodeMedianMs. */
  ratio: number;
}

/** Spawn to exit of one command, stdout discarded. @throws on a non-zero exit or after `timeoutMs`. */
async function timeProcess(node: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  const child = spawnTracked(node, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const timer = setTimeout(() => void stopChild(child, 0), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim()}`);
  return performance.now() - t0;
}

/** `samples` interleaved pairs of `node -e 0` and `node <cli> --help`; medians and their ratio. */
export async function timeHelp(options: { node: string; cliPath: string; cwd: string; samples: number; timeoutMs: number }): Promise<HelpStartResult> {
  const nodeMs: number[] = [];
  const helpMs: number[] = [];
  for (let i = 0; i < options.samples; i++) {
    nodeMs.push(await timeProcess(options.node, ['-e', '0'], options.cwd, options.timeoutMs));
    helpMs.push(await timeProcess(options.node, [options.cliPath, '--help'], options.cwd, options.timeoutMs));
  }
  const nodeMedianMs = median(nodeMs);
  const helpMedianMs = median(helpMs);
  return { nodeMs, helpMs, nodeMedianMs, helpMedianMs, ratio: helpMedianMs / nodeMedianMs };
}
