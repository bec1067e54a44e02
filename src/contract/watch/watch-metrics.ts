import type { Counter, Gauge, OpenMetricsContentType, PrometheusContentType, Registry, Summary } from 'prom-client';
import type * as PromClient from 'prom-client';
import type { WatchRound } from './watch-deployment.js';

/** The exposition formats: `openmetrics` (OpenMetrics 1.0 text, ending in `# EOF`) and `prometheus` (the text format 0.0.4 that node_exporter's textfile collector and promtool read). */
export type ExpositionFormat = 'openmetrics' | 'prometheus';

type Label = 'deployment' | 'outcome' | 'kind' | 'severity' | 'code' | 'endpoint';

/** The series of a watch in one registry. */
interface Series {
  rounds: Counter<Label>;
  lastRound: Gauge<Label>;
  lastSuccess: Gauge<Label>;
  roundSeconds: Gauge<Label>;
  markets: Gauge<Label>;
  findings: Gauge<Label>;
  overTime: Counter<Label>;
  answers: Summary<Label>;
  exitCode: Gauge<Label>;
}

/**
 * The series in `registry`. A counter is named with `_total` for the 0.0.4 text format (promtool's
 * rule) and without it for OpenMetrics, where the client adds it to the samples (OpenMetrics 1.0,
 * "Counter").
 */
function seriesIn(client: typeof PromClient, registry: Registry<OpenMetricsContentType> | Registry<PrometheusContentType>, total: string): Series {
  const { Counter, Gauge, Summary } = client;
  const registers = [registry as Registry];
  const gauge = (name: string, help: string, labelNames: Label[]) => new Gauge<Label>({ name, help, labelNames, registers });
  const counter = (name: string, help: string, labelNames: Label[]) => new Counter<Label>({ name: `${name}${total}`, help, labelNames, registers });
  return {
    rounds: counter('market_stub_watch_rounds', 'Rounds taken, by outcome (checked, could-not-run)', ['deployment', 'outcome']),
    lastRound: gauge('market_stub_watch_last_round_timestamp_seconds', 'When the last round started, Unix seconds', ['deployment']),
    lastSuccess: gauge('market_stub_watch_last_success_timestamp_seconds', 'When the last round that ran (the deployment answered) started, Unix seconds', ['deployment']),
    roundSeconds: gauge('market_stub_watch_round_duration_seconds', 'How long the last round took, seconds', ['deployment']),
    markets: gauge('market_stub_watch_markets', 'Markets in the last round: listed, checked one by one, tracked over time', ['deployment', 'kind']),
    findings: gauge('market_stub_watch_findings', 'Errors and warnings of the last round\'s crawl, occurrences by code', ['deployment', 'severity', 'code']),
    overTime: counter('market_stub_watch_time_findings', 'Findings over time since the watch started, occurrences by code', ['deployment', 'severity', 'code']),
    answers: new Summary<Label>({ name: 'market_stub_watch_answer_seconds', help: 'Answer times of the deployment, seconds, over the last 10 minutes', labelNames: ['deployment', 'endpoint'], percentiles: [0.5, 0.9, 0.99], maxAgeSeconds: 600, ageBuckets: 5, registers }),
    exitCode: gauge('market_stub_watch_exit_code', 'The last round\'s exit code: 0 pass, 1 failed, 2 could not run', ['deployment']),
  };
}

/**
 * A watch's metrics (prom-client registries), every series labelled with the deployment (its
 * base URL without query or credentials): rounds by outcome, the last round's and the last
 * successful round's timestamps, markets seen, the last round's errors and warnings by code,
 * findings over time by code, answer-time quantiles per endpoint, the last exit code. Written in
 * OpenMetrics (a scraper that asks for it) or the 0.0.4 text format (the textfile collector, older
 * scrapers); docs/contract-check.md ("Watching a deployment") lists the series.
 */
export class WatchMetrics {
  private readonly registries: { openmetrics: Registry<OpenMetricsContentType>; prometheus: Registry<PrometheusContentType> };
  private readonly series: Series[];
  /** Codes the last round showed, so a code that stops is set back to 0 rather than left at its last value. */
  private shown = new Set<string>();

  /**
   * The metrics of a watch of `deployment`. prom-client is loaded here, on first use: a library
   * user who never writes metrics never imports it.
   */
  static async create(deployment: string): Promise<WatchMetrics> {
    return new WatchMetrics(deployment, await import('prom-client'));
  }

  private constructor(private readonly deployment: string, client: typeof PromClient) {
    const { Registry } = client;
    this.registries = { openmetrics: new Registry<OpenMetricsContentType>(), prometheus: new Registry<PrometheusContentType>() };
    this.registries.openmetrics.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    this.series = [seriesIn(client, this.registries.openmetrics, ''), seriesIn(client, this.registries.prometheus, '_total')];
    for (const s of this.series) for (const outcome of ['checked', 'could-not-run']) s.rounds.inc({ deployment, outcome }, 0);
  }

  /** Takes a round's figures in. */
  observe(round: WatchRound): void {
    for (const s of this.series) this.observeIn(s, round);
    if (round.report) this.shown = new Set(crawlCounts(round, this.shown).keys());
  }

  private observeIn(s: Series, round: WatchRound): void {
    const deployment = this.deployment;
    const started = Date.parse(round.startedAt) / 1000;
    s.rounds.inc({ deployment, outcome: round.failure === undefined ? 'checked' : 'could-not-run' });
    s.lastRound.set({ deployment }, started);
    s.roundSeconds.set({ deployment }, round.durationMs / 1000);
    s.exitCode.set({ deployment }, round.exitCode);
    for (const ms of round.times.list) s.answers.observe({ deployment, endpoint: 'GET /markets' }, ms / 1000);
    for (const ms of round.times.item) s.answers.observe({ deployment, endpoint: 'GET /markets/{market_id}' }, ms / 1000);
    for (const finding of round.findings) s.overTime.inc({ deployment, severity: finding.severity, code: finding.code }, finding.count);
    if (!round.report) return;
    s.lastSuccess.set({ deployment }, started);
    s.markets.set({ deployment, kind: 'listed' }, round.report.summary.marketsListed);
    s.markets.set({ deployment, kind: 'checked' }, round.report.summary.marketsChecked);
    s.markets.set({ deployment, kind: 'tracked' }, round.marketsTracked);
    for (const [key, n] of crawlCounts(round, this.shown)) {
      const [severity, code] = key.split(' ') as [string, string];
      s.findings.set({ deployment, severity, code }, n);
    }
  }

  /** The exposition text in `format`. */
  async text(format: ExpositionFormat): Promise<string> {
    return this.registries[format].metrics();
  }

  /** The Content-Type of `format`. */
  contentType(format: ExpositionFormat): string {
    return this.registries[format].contentType;
  }
}

/** The round's errors and warnings by `severity code`, and 0 for a code the last round showed and this one does not. */
function crawlCounts(round: WatchRound, shown: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of round.report?.findings ?? []) if (f.severity !== 'info') counts.set(`${f.severity} ${f.code}`, (counts.get(`${f.severity} ${f.code}`) ?? 0) + f.count);
  for (const key of shown) if (!counts.has(key)) counts.set(key, 0);
  return counts;
}
