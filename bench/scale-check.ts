// Scale: `serve --count N` for a very large N must start fast and answer any market by id with
// bounded memory (the goal: 10,000,000 markets, under 1 s, RSS under 200 MB).
import { timeColdStart } from './cold-start.js';
import { freePort, httpGet, keepAliveAgent } from './http-get.js';
import { readProcessMemory } from './process-usage.js';
import { stopChild } from './tracked-children.js';

/** One market the check asks for: its 0-based index and the id the generator gives it. */
export interface ExpectedMarket {
  index: number;
  marketId: string;
}

export interface ScaleCheckPlan {
  /** `node` and the path of dist/cli.cjs. */
  node: string;
  cliPath: string;
  cwd: string;
  count: number;
  seed: number;
  clock: string;
  /** Markets to fetch; the first is the one polled for the start. */
  markets: readonly ExpectedMarket[];
  timeoutMs: number;
}

export interface ScaleCheckResult {
  count: number;
  /** Spawn to the first 200 on GET /markets/{first id}; null when it did not start. */
  startMs: number | null;
  /** RSS after answering every market of the plan, MB; null when it did not start. */
  rssMb: number | null;
  peakRssMb: number | null;
  /** Each market asked for: the HTTP status and whether the body carried the expected id. */
  answers: { index: number; marketId: string; status: number; idMatches: boolean; ms: number }[];
  /** Why the check failed, e.g. `did not answer 200 … within 20 s`. */
  failure?: string;
}

/**
 * Starts `market-stub serve --count N` (request log discarded), times spawn → first 200 on
 * GET /markets/{id of market k} for the plan's first market, GETs the others, then reads its RSS.
 * Bounded by `timeoutMs`; the server is always stopped before this resolves.
 */
export async function runScaleCheck(plan: ScaleCheckPlan): Promise<ScaleCheckResult> {
  const first = plan.markets[0];
  if (!first) throw new Error('scale check needs at least one market to ask for');
  const port = await freePort();
  const args = [plan.cliPath, 'serve', '--port', String(port), '--count', String(plan.count), '--seed', String(plan.seed), '--clock', plan.clock];
  const outcome = await timeColdStart({ command: plan.node, args, cwd: plan.cwd, port, path: `/markets/${encodeURIComponent(first.marketId)}` }, plan.timeoutMs);
  const result: ScaleCheckResult = { count: plan.count, startMs: null, rssMb: null, peakRssMb: null, answers: [] };
  if (!outcome.ok) {
    result.failure = outcome.reason;
    return result;
  }
  result.startMs = outcome.ms;
  const agent = keepAliveAgent();
  try {
    for (const market of plan.markets) {
      const t = performance.now();
      const res = await httpGet(`http://127.0.0.1:${port}/markets/${encodeURIComponent(market.marketId)}`, { timeoutMs: plan.timeoutMs, agent });
      const ms = performance.now() - t;
      let idMatches = false;
      try {
        idMatches = (JSON.parse(res.body.toString('utf8')) as { market_id?: unknown }).market_id === market.marketId;
      } catch {
        idMatches = false;
      }
      result.answers.push({ index: market.index, marketId: market.marketId, status: res.status, idMatches, ms });
    }
    const memory = readProcessMemory(outcome.pid);
    result.rssMb = memory.rssMb;
    result.peakRssMb = memory.peakRssMb;
    const wrong = result.answers.filter((a) => a.status !== 200 || !a.idMatches);
    if (wrong.length > 0) result.failure = `wrong answers: ${wrong.map((a) => `market ${a.index} → ${a.status}${a.status === 200 ? ' with another market_id' : ''}`).join(', ')}`;
  } catch (error) {
    result.failure = `after starting: ${(error as Error).message}`;
  } finally {
    agent.destroy();
    await stopChild(outcome.child, 0);
  }
  return result;
}
