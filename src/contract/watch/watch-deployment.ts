import { setTimeout as sleep } from 'node:timers/promises';
import type { Market } from '../../schema/generated/market-types.js';
import { MAX_WATCH_INTERVAL_MS, MIN_WATCH_INTERVAL_MS } from '../../floor/limits.js';
import type { ContractReport, ListedMarkets } from '../checks/index.js';
import { crawlDeployment, type AnswerFacts, type CrawlOptions, type CrawlObserver } from '../crawl/index.js';
import { ContractRunError, displayBase, parseBaseUrl } from '../http-client/index.js';
import { DeploymentRefusal } from '../reports/index.js';
import type { WatchFinding } from './watch-finding.js';
import { loadWatchState, saveWatchState } from './watch-state.js';
import { WatchTracker, type RoundObservations } from './watch-tracker.js';

/** Options of a watch: those of a crawl (each round is one, with the same settings), plus its pace, bounds and state. */
export interface WatchOptions extends Omit<CrawlOptions, 'collectMarkets' | 'collectInvalid' | 'command' | 'spool' | 'observer'> {
  /** Time from one round's start to the next one's, ms (a round that takes longer is followed at once). @default 60000 */
  intervalMs?: number;
  /** Rounds to take in this run; unbounded when absent (until `signal` or `forMs`). */
  rounds?: number;
  /** No round starts once this long has passed since the first one started, ms. */
  forMs?: number;
  /**
   * The state a previous watch of the same deployment saved (`WatchRound.state()`): its rounds are
   * compared with this run's. A state of another deployment throws; of another layout version is
   * set aside (said in the first round's `notes`).
   */
  state?: string;
  /** How messages name the state (`--state watch.json`). @default 'the watch state' */
  stateName?: string;
}

/** One round of a watch: the crawl's report, the findings over time, and the state after it. */
export interface WatchRound {
  /** 1 for a watch's first round; a watch restored from a state counts on. */
  round: number;
  startedAt: string;
  durationMs: number;
  /** The round's one-crawl report (as `check` gives it); absent when the round could not run. */
  report?: ContractReport;
  /** Why the round could not run (`check` would exit 2): unreachable, refused, a limit. */
  failure?: string;
  /** The findings over time this round showed (docs/contract-check.md, "Watching a deployment"). */
  findings: WatchFinding[];
  /** Markets tracked after this round, and listed markets beyond the tracking limit. */
  marketsTracked: number;
  marketsUntracked: number;
  /** 2 the round could not run, 1 an error (or a warning under `strict`), else 0: over the report and the findings over time. */
  exitCode: 0 | 1 | 2;
  /** Sentences about the watch itself (a state set aside). */
  notes: string[];
  /** Answer times of this round, ms: every list page, every single market (for latency quantiles). */
  times: { list: number[]; item: number[] };
  /** yes_price of up to 8 markets (the first ones the watch tracks), for a timeline's chart. */
  prices: Array<[string, number]>;
  /** The watch's state after this round, to carry to the next run (JSON text). */
  state(): string;
}

/** The identity of a deployment a state is tied to: its base URL without query, fragment or credentials. */
export function deploymentIdentity(baseUrl: string | URL): string {
  const url = parseBaseUrl(baseUrl);
  url.search = '';
  url.hash = '';
  return displayBase(url);
}

/**
 * Watches a deployment: crawls it every `intervalMs` with the same settings (each round a
 * `checkDeployment`) and compares each round with the ones before it (WatchTracker), yielding
 * each round as it ends. Memory stays O(markets tracked) whatever the number of rounds. The
 * iteration ends after `rounds` rounds, once `forMs` has passed, or when `signal` aborts (the round
 * in progress is dropped; the rounds yielded stand). A round the deployment does not answer is
 * yielded with its `failure` and compared with nothing; the watch goes on.
 * @throws ContractRunError OPTION_INVALID for a bad option or state (before any round), and what
 *   checkDeployment throws for a bad option.
 */
export async function* watchDeployment(options: WatchOptions): AsyncGenerator<WatchRound, void, undefined> {
  const interval = checkedInterval(options.intervalMs ?? 60_000);
  const identity = deploymentIdentity(options.baseUrl);
  const { tracker, round: last, notes } = restored(options, identity);
  const started = Date.now();
  let round = last;
  for (let taken = 0; options.rounds === undefined || taken < options.rounds; taken++) {
    if (taken > 0 && !(await waitUntil(started + taken * interval, options.signal))) return;
    if (options.forMs !== undefined && taken > 0 && Date.now() - started >= options.forMs) return;
    if (options.signal?.aborted) return;
    round++;
    const result = await oneRound(options, tracker, round);
    if (result === 'interrupted') return;
    yield { ...result, notes: taken === 0 ? notes : [], state: () => saveWatchState(tracker, identity, round) };
  }
}

function restored(options: WatchOptions, identity: string): { tracker: WatchTracker; round: number; notes: string[] } {
  if (options.state === undefined) return { tracker: new WatchTracker(), round: 0, notes: [] };
  const loaded = loadWatchState(options.state, identity, options.stateName ?? 'the watch state');
  if ('ignored' in loaded) return { tracker: new WatchTracker(), round: 0, notes: [loaded.ignored] };
  return { ...loaded, notes: [] };
}

/** One crawl with an observer, then the comparison; a crawl that could not run is a failed round. */
async function oneRound(options: WatchOptions, tracker: WatchTracker, round: number): Promise<Omit<WatchRound, 'notes' | 'state'> | 'interrupted'> {
  const at = Date.now();
  const observed = observeRound(round, at);
  let report: ContractReport;
  try {
    report = (await crawlDeployment({ ...options, observer: observed.observer })).report;
  } catch (error) {
    if (error instanceof ContractRunError && error.code === 'INTERRUPTED') return 'interrupted';
    if (options.signal?.aborted) return 'interrupted';
    if (!(error instanceof DeploymentRefusal) && !(error instanceof ContractRunError && (error.code === 'DEPLOYMENT_UNREACHABLE' || error.code === 'LIMIT_EXCEEDED' || error.code === 'UNAUTHORIZED'))) throw error;
    return { round, startedAt: new Date(at).toISOString(), durationMs: Date.now() - at, failure: error.message, findings: [], marketsTracked: tracker.markets.size, marketsUntracked: tracker.untracked, exitCode: 2, prices: [], times: observed.times };
  }
  const findings = tracker.compare(observed.observations);
  const failing = findings.some((f) => f.severity === 'error' || (options.strict === true && f.severity === 'warning'));
  const exitCode = Math.max(report.exitCode, failing ? 1 : 0) as 0 | 1 | 2;
  return { round, startedAt: new Date(at).toISOString(), durationMs: Date.now() - at, report, findings, marketsTracked: tracker.markets.size, marketsUntracked: tracker.untracked, exitCode, prices: samplePrices(tracker), times: observed.times };
}

/** An observer gathering a round's observations (the first list page, the listing, the single answers). */
function observeRound(round: number, at: number): { observer: CrawlObserver; observations: RoundObservations; times: WatchRound['times'] } {
  const items = new Map<string, { facts: AnswerFacts; market: Market | undefined }>();
  const times: WatchRound['times'] = { list: [], item: [] };
  const observations: RoundObservations = { round, at, list: undefined, listed: undefined, complete: false, items };
  const observer: CrawlObserver = {
    listPage(page, facts) {
      times.list.push(facts.ms);
      if (page === 1) observations.list = facts;
    },
    listed(listed: ListedMarkets, complete) {
      observations.listed = listed;
      observations.complete = complete;
    },
    market(id, facts, market) {
      times.item.push(facts.ms);
      items.set(id, { facts, market });
    },
  };
  return { observer, observations, times };
}

function samplePrices(tracker: WatchTracker): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const [id, track] of tracker.markets) {
    if (out.length >= 8) break;
    if (!Number.isNaN(track.yes)) out.push([id, track.yes]);
  }
  return out;
}

/** Waits until `when` (epoch ms); false when `signal` aborted first. */
async function waitUntil(when: number, signal: AbortSignal | undefined): Promise<boolean> {
  const ms = when - Date.now();
  if (signal?.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, signal ? { signal } : {});
    return true;
  } catch {
    return false;
  }
}

function checkedInterval(ms: number): number {
  if (!Number.isFinite(ms) || ms < MIN_WATCH_INTERVAL_MS || ms > MAX_WATCH_INTERVAL_MS) {
    throw new ContractRunError('OPTION_INVALID', `intervalMs: expected a time between rounds from ${MIN_WATCH_INTERVAL_MS} ms to 24 h, found ${String(ms)}.`);
  }
  return ms;
}
