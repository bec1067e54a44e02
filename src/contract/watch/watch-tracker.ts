import type { Market } from '../../schema/generated/market-types.js';
import { MAX_WATCHED_MARKETS, WATCH_FORGET_ROUNDS, WATCH_INSTANT_ROUNDS } from '../../floor/limits.js';
import { WATCH_RULES } from '../../floor/watch-finding-codes.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT, type ListedMarkets } from '../checks/index.js';
import type { AnswerFacts } from '../crawl/index.js';
import { countTransitions, emptyStillCounts, frozenRunNeeded, stayBound, stillBin, type StillCounts } from './still-odds.js';
import { WatchFindings, type WatchEvidence, type WatchFinding } from './watch-finding.js';

/** What one round saw, gathered by its crawl's observer (watch-deployment.ts). */
export interface RoundObservations {
  /** The round's number (1 for a watch's first, counting on across runs with a state). */
  round: number;
  /** When the round started, epoch ms (this machine's clock). */
  at: number;
  /** The first list page's answer. */
  list: AnswerFacts | undefined;
  listed: ListedMarkets | undefined;
  /** Whether the crawl saw the whole list (absence means something only then). */
  complete: boolean;
  /** The single markets asked for this round. */
  items: ReadonlyMap<string, { facts: AnswerFacts; market: Market | undefined }>;
}

/**
 * What a watch keeps of one market between rounds: a few values and round numbers (about 200
 * bytes), whatever the number of rounds. `yes`/`no` are NaN where the list gave no finite price.
 */
export interface MarketTrack {
  /** First and last round the list showed it. */
  first: number;
  seen: number;
  /** First round of absence from a complete list, while it is absent. */
  absent?: number;
  status?: string;
  yes: number;
  no: number;
  /** The round its list prices last changed (or it was first seen). */
  movedAt: number;
  /** Rounds in a row, up to the last, its listed prices stayed put while it was listed and active (0 after a move, a gap or another status). */
  still: number;
  /** Its prices moved at least once while it was watched active: its transitions teach the odds of staying put (still-odds.ts). */
  moved?: boolean;
  /** prices-frozen reported and not moved since. */
  frozen?: boolean;
  /** prices-after-resolution reported in this terminal status. */
  afterTerminal?: boolean;
  /** The list's and the single market's yes_price, newest first, of consecutive rounds (WATCH_RULES.lagHistory). */
  listYes: number[];
  itemYes: number[];
  /** Rounds in a row a lag was seen, which side lags, and whether it was reported. */
  lag?: { side: 'list' | 'items'; rounds: number; behind: number; reported: boolean };
  /** Last round the single market answered, its status, validators and body hash. */
  item?: Validators & { status: number };
  /** The round its single answer was a 404 while listed, until a 200 follows. */
  item404?: number;
}

/** An answer's validators in one round: `ETag`, `Last-Modified`, the body's hash, and whether etag-kept was said of this `ETag`. */
export interface Validators {
  round: number;
  etag?: string;
  lastModified?: string;
  hash?: number;
  /** etag-kept reported while this `ETag` stays (once an episode). */
  etagKept?: boolean;
}

/** What a watch keeps of the deployment between rounds. */
export interface DeploymentTrack {
  list?: Validators;
  /** clock-skew reported and not ended since. */
  skewed?: boolean;
  /** prices-static reported (once a watch). */
  staticSaid?: boolean;
  /** What the rounds taught of prices that stay put (still-odds.ts), for prices-frozen. */
  stillCounts?: StillCounts;
}

/**
 * The order of the lifecycle's statuses (docs/lifecycle.md: generic `active → closed → resolved`,
 * kalshi `initialized → active → closed → determined → finalized`); a status not named here is
 * never judged.
 */
const RANK: Readonly<Record<string, number>> = { initialized: 0, active: 1, closed: 2, resolved: 3, determined: 3, finalized: 4 };
/** Statuses whose prices no longer trade: closed (held) and the outcome's (settled). */
const TERMINAL = new Set(['closed', 'resolved', 'determined', 'finalized']);

/**
 * Compares each round with the ones before it and returns the round's time findings
 * (docs/contract-check.md, "Watching a deployment"). It keeps per tracked market a MarketTrack and
 * for the deployment a DeploymentTrack: memory O(markets tracked), at most MAX_WATCHED_MARKETS,
 * whatever the number of rounds; a market gone from a complete list for WATCH_FORGET_ROUNDS rounds
 * is forgotten.
 */
export class WatchTracker {
  readonly markets = new Map<string, MarketTrack>();
  deployment: DeploymentTrack = {};
  /** Start instants (ISO 8601) of recent rounds, for evidence. */
  readonly instants = new Map<number, string>();
  /** Markets listed beyond MAX_WATCHED_MARKETS in the last round (counted, not compared). */
  untracked = 0;
  private findings = new WatchFindings();
  /** This round's lags by lagging side, and the markets whose other side moved (judgeLags). */
  private lagRound: { lagging: Record<'list' | 'items', Array<[string, MarketTrack]>>; movers: Record<'list' | 'items', number> } = { lagging: { list: [], items: [] }, movers: { list: 0, items: 0 } };
  /** Rounds in a row each side lagged for most markets that moved (not carried in the state: seen again in lagRounds rounds). */
  private lagRounds: Record<'list' | 'items', number> = { list: 0, items: 0 };

  /** The round's time findings; updates what is kept. */
  compare(round: RoundObservations): WatchFinding[] {
    this.findings = new WatchFindings();
    this.instants.set(round.round, new Date(round.at).toISOString());
    if (round.list) this.compareList(round, round.list);
    if (round.listed) this.compareListing(round, round.listed);
    this.lagRound = { lagging: { list: [], items: [] }, movers: { list: 0, items: 0 } };
    for (const [id, observed] of round.items) this.compareItem(round, id, observed.facts, observed.market);
    this.judgeLags(round.round);
    if (round.listed) this.judgeFrozen(round.round);
    this.forget(round.round);
    return this.findings.list();
  }

  private evidence(round: number, value: string): WatchEvidence {
    const at = this.instants.get(round);
    return at === undefined ? { round, value } : { round, at, value };
  }

  /** The list's validators and Date against the last round's and this machine's clock. */
  private compareList(round: RoundObservations, facts: AnswerFacts): void {
    const before = this.deployment.list;
    if (facts.status >= 200 && facts.status <= 299 && facts.bodyHash !== undefined) {
      const now = { round: round.round, ...(facts.etag ? { etag: facts.etag } : {}), ...(facts.lastModified ? { lastModified: facts.lastModified } : {}), hash: facts.bodyHash };
      if (before) this.compareValidators(LIST_ENDPOINT, undefined, before, now);
      this.deployment.list = now;
    }
    this.judgeSkew(round.round, facts);
  }

  /** etag-kept (once while the same `ETag` stays) and last-modified-backwards between two answers of the same URL. */
  private compareValidators(endpoint: typeof LIST_ENDPOINT | typeof SINGLE_ENDPOINT, marketId: string | undefined, before: Validators, now: Validators): void {
    const id = marketId === undefined ? {} : { marketId };
    const what = marketId === undefined ? 'the list' : `market ${JSON.stringify(marketId)}`;
    if (before.etag !== undefined && before.etag === now.etag && before.etagKept) now.etagKept = true;
    if (before.etag !== undefined && before.etag === now.etag && before.hash !== undefined && now.hash !== undefined && before.hash !== now.hash && !now.etagKept) {
      now.etagKept = true;
      const seen = [this.evidence(before.round, `ETag ${before.etag}`), this.evidence(now.round, `ETag ${now.etag}, another body`)];
      this.findings.add('etag-kept', endpoint, { ...id, found: `ETag ${now.etag} kept while the body changed`, seen }, `${what} kept ETag ${now.etag} from round ${before.round} to round ${now.round} while its body changed`);
    }
    const was = httpTime(before.lastModified);
    const is = httpTime(now.lastModified);
    if (was !== undefined && is !== undefined && is < was) {
      const seen = [this.evidence(before.round, `Last-Modified: ${before.lastModified ?? ''}`), this.evidence(now.round, `Last-Modified: ${now.lastModified ?? ''}`)];
      this.findings.add('last-modified-backwards', endpoint, { ...id, found: `Last-Modified went back ${seconds(was - is)}`, seen }, `${what}: Last-Modified went back from ${before.lastModified ?? ''} (round ${before.round}) to ${now.lastModified ?? ''} (round ${now.round})`);
    }
  }

  /** clock-skew: the list's Date outside [sent − 1 s − skewMs, received + skewMs]; once, until it ends. */
  private judgeSkew(round: number, facts: AnswerFacts): void {
    const date = httpTime(facts.date);
    if (date === undefined) return;
    const ahead = date - facts.receivedAt;
    const behind = facts.sentAt - 1000 - date;
    const skew = ahead > WATCH_RULES.skewMs ? ahead : behind > WATCH_RULES.skewMs ? -behind : 0;
    if (skew === 0) {
      this.deployment.skewed = false;
      return;
    }
    if (this.deployment.skewed) return;
    this.deployment.skewed = true;
    const found = `Date ${seconds(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'} this machine's clock`;
    const seen = [this.evidence(round, `Date: ${facts.date ?? ''}; this machine: ${new Date(facts.receivedAt).toUTCString()}`)];
    this.findings.add('clock-skew', LIST_ENDPOINT, { found, seen }, `the list's ${found} (more than ${seconds(WATCH_RULES.skewMs)} off; RFC 9110 §6.6.1)`);
  }

  /** Every listed market against its track: comes back, status regression, prices after a terminal status, lag history. */
  private compareListing(round: RoundObservations, listed: ListedMarkets): void {
    const r = round.round;
    this.untracked = 0;
    for (let k = 0; k < listed.size; k++) {
      const id = listed.idAt(k);
      const now = listed.get(id);
      if (!now) continue;
      const status = now.status?.complete ? now.status.shown : undefined;
      const yes = now.yes_price ?? Number.NaN;
      const no = now.no_price ?? Number.NaN;
      const track = this.markets.get(id);
      if (!track) {
        if (this.markets.size >= MAX_WATCHED_MARKETS) this.untracked++;
        else this.markets.set(id, { first: r, seen: r, ...(status === undefined ? {} : { status }), yes, no, movedAt: r, still: 0, listYes: [yes], itemYes: [] });
        continue;
      }
      if (track.seen === r) continue;
      this.comeBack(id, track, r);
      this.judgeStatus(id, track, r, status, yes, no);
      const moved = !samePrice(track.yes, yes) || !samePrice(track.no, no);
      this.learnStill(track, r, status, yes, moved);
      if (moved) {
        track.movedAt = r;
        track.frozen = false;
      }
      track.listYes = track.seen === r - 1 ? [yes, ...track.listYes].slice(0, WATCH_RULES.lagHistory) : [yes];
      if (status === undefined) delete track.status;
      else track.status = status;
      track.yes = yes;
      track.no = no;
      track.seen = r;
    }
    if (round.complete) this.noteAbsences(r);
  }

  /**
   * One round-to-round transition of a market's listed prices: counted in what the watch learns of
   * moving markets (still-odds.ts) when it was listed and active in both rounds, and its run of
   * unchanged rounds carried on or ended. A market's transitions count from its first move on (the
   * run before that too, once it moved): a market stale from the start teaches nothing. A run that
   * reached K rounds is counted only once it ends: a market under judgement never vouches for itself.
   */
  private learnStill(track: MarketTrack, r: number, status: string | undefined, yes: number, moved: boolean): void {
    const consecutive = track.seen === r - 1 && track.status === 'active' && status === 'active' && Number.isFinite(track.yes) && Number.isFinite(yes);
    if (!consecutive) {
      track.still = 0;
      return;
    }
    const counts = (this.deployment.stillCounts ??= emptyStillCounts());
    const [bin, run, k] = [stillBin(track.yes), track.still, WATCH_RULES.frozenRounds];
    if (!track.moved) {
      if (moved) countTransitions(counts, bin, run, false, false);
    } else if (moved) {
      // The deferred part of a long run (its transitions from K − 1 to `run` unchanged rounds), then the move.
      if (run >= k) countTransitions(counts, bin, run - k, true, true);
      countTransitions(counts, bin, 0, false, run > 0);
    } else if (run + 1 < k) countTransitions(counts, bin, 0, true, run > 0);
    if (moved) track.moved = true;
    track.still = moved ? 0 : run + 1;
  }

  /** market-flapped: a market absent from a complete list in an earlier round is listed again. */
  private comeBack(id: string, track: MarketTrack, r: number): void {
    if (track.absent === undefined) return;
    const seen = [this.evidence(track.seen, 'listed'), this.evidence(track.absent, 'not listed'), this.evidence(r, 'listed again')];
    this.findings.add('market-flapped', LIST_ENDPOINT, { marketId: id, found: `left the list in round ${track.absent} and came back in round ${r}`, seen }, `market ${JSON.stringify(id)} left the list in round ${track.absent} (last listed in round ${track.seen}) and came back in round ${r}`);
    delete track.absent;
  }

  /** status-regression (a status that goes back) and prices-after-resolution (prices that move while the terminal status stays). */
  private judgeStatus(id: string, track: MarketTrack, r: number, status: string | undefined, yes: number, no: number): void {
    const was = track.status;
    if (was === undefined || status === undefined) return;
    const from = RANK[was];
    const to = RANK[status];
    if (from !== undefined && to !== undefined && to < from) {
      const seen = [this.evidence(track.seen, was), this.evidence(r, status)];
      this.findings.add('status-regression', LIST_ENDPOINT, { marketId: id, found: `${was} → ${status}`, seen }, `market ${JSON.stringify(id)} went back from ${was} (round ${track.seen}) to ${status} (round ${r})`);
    }
    if (status !== was) {
      delete track.afterTerminal;
      return;
    }
    if (!TERMINAL.has(status) || track.afterTerminal || (samePrice(track.yes, yes) && samePrice(track.no, no))) return;
    track.afterTerminal = true;
    const seen = [this.evidence(track.seen, `${status}, yes ${price(track.yes)} no ${price(track.no)}`), this.evidence(r, `${status}, yes ${price(yes)} no ${price(no)}`)];
    this.findings.add('prices-after-resolution', LIST_ENDPOINT, { marketId: id, found: `prices moved while ${status}: yes ${price(track.yes)} → ${price(yes)}`, seen }, `market ${JSON.stringify(id)} stayed ${status} from round ${track.seen} to round ${r} while its prices moved (yes ${price(track.yes)} → ${price(yes)})`);
  }

  /** Marks the tracked markets a complete list no longer shows. */
  private noteAbsences(r: number): void {
    for (const track of this.markets.values()) {
      if (track.seen !== r && track.absent === undefined) track.absent = r;
    }
  }

  /** One single answer against the market's last: item-flapped, validators, and the lag between list and item prices. */
  private compareItem(round: RoundObservations, id: string, facts: AnswerFacts, market: Market | undefined): void {
    const track = this.markets.get(id);
    if (!track) return;
    const r = round.round;
    const listedNow = track.seen === r;
    if (facts.status === 404 && listedNow) track.item404 ??= r;
    if (facts.status >= 200 && facts.status <= 299 && track.item404 !== undefined) {
      const seen = [this.evidence(track.item404, '404'), this.evidence(r, String(facts.status))];
      this.findings.add('item-flapped', SINGLE_ENDPOINT, { marketId: id, found: `404 in round ${track.item404}, ${facts.status} in round ${r}`, seen }, `market ${JSON.stringify(id)} answered 404 in round ${track.item404} while listed, and ${facts.status} in round ${r}`);
      delete track.item404;
    }
    const now = { round: r, status: facts.status, ...(facts.etag ? { etag: facts.etag } : {}), ...(facts.lastModified ? { lastModified: facts.lastModified } : {}), ...(facts.bodyHash === undefined ? {} : { hash: facts.bodyHash }) };
    if (track.item && track.item.status === facts.status && facts.status >= 200 && facts.status <= 299) this.compareValidators(SINGLE_ENDPOINT, id, track.item, now);
    const consecutive = track.item?.round === r - 1;
    track.item = now;
    const yes = market ? market.yes_price : Number.NaN;
    track.itemYes = consecutive ? [yes, ...track.itemYes].slice(0, WATCH_RULES.lagHistory) : [yes];
    if (listedNow) this.judgeLag(id, track);
  }

  /**
   * A lag of one market this round: the list and the single market disagree, and one shows what
   * the other showed 1 to lagHistory − 1 rounds earlier. Counted per side among the markets whose
   * leading side moved this round (judgeLags decides); a market's episode ends when the lag does.
   */
  private judgeLag(id: string, track: MarketTrack): void {
    const [list, item] = [track.listYes[0] ?? Number.NaN, track.itemYes[0] ?? Number.NaN];
    // Markets where a lag would show: for the list (two rounds behind), the single market moved from
    // two rounds ago both by the last round and by this one; for the single market, the list moved this round.
    const [now, last, before] = [track.itemYes[0] ?? Number.NaN, track.itemYes[1] ?? Number.NaN, track.itemYes[2] ?? Number.NaN];
    if (track.itemYes.length > 2 && !samePrice(last, before) && !samePrice(now, before)) this.lagRound.movers.list++;
    if (track.listYes.length > 1 && !samePrice(track.listYes[0] ?? Number.NaN, track.listYes[1] ?? Number.NaN)) this.lagRound.movers.items++;
    const lag = Number.isNaN(list) || Number.isNaN(item) || samePrice(list, item) ? undefined : lagOf(track);
    if (!lag) {
      delete track.lag;
      return;
    }
    // The same side, the same number of rounds behind: a revisited price of a walk matches at a distance that changes.
    const same = track.lag?.side === lag.side && track.lag.behind === lag.behind;
    const rounds = same && track.lag ? track.lag.rounds + 1 : 1;
    track.lag = { ...lag, rounds, reported: same && track.lag ? track.lag.reported : false };
    this.lagRound.lagging[lag.side].push([id, track]);
  }

  /**
   * list-lags-items and items-lag-list: a cache in front of one endpoint lags every market that
   * moves, while a price that moved between the list request and the single request of a round
   * (or went back and forth) shows a lag for a few. So a side lags when more than half of the
   * markets whose other side moved show its lag, WATCH_RULES.lagRounds rounds in a row; then the
   * markets that showed it that long, the same number of rounds behind, are reported, once an
   * episode.
   */
  private judgeLags(r: number): void {
    for (const side of ['list', 'items'] as const) {
      const lagging = this.lagRound.lagging[side];
      const movers = this.lagRound.movers[side];
      const held = movers > 0 && lagging.length * 2 > movers ? (this.lagRounds[side] += 1) : (this.lagRounds[side] = 0);
      if (held < WATCH_RULES.lagRounds) continue;
      for (const [id, track] of lagging) if ((track.lag?.rounds ?? 0) >= WATCH_RULES.lagRounds) this.reportLag(id, track, r, held, `${lagging.length} of ${movers} markets that moved`);
    }
  }

  private reportLag(id: string, track: MarketTrack, r: number, held: number, share: string): void {
    const lag = track.lag;
    if (!lag || lag.reported) return;
    lag.reported = true;
    const [list, item] = [track.listYes[0] ?? Number.NaN, track.itemYes[0] ?? Number.NaN];
    const code = lag.side === 'list' ? 'list-lags-items' : 'items-lag-list';
    const [lagging, leading] = lag.side === 'list' ? ['the list', 'the single market'] : ['the single market', 'the list'];
    const earlier = lag.side === 'list' ? (track.itemYes[lag.behind] ?? Number.NaN) : (track.listYes[lag.behind] ?? Number.NaN);
    const seen = [this.evidence(r - lag.behind, `${lag.side === 'list' ? 'single market' : 'list'} yes ${price(earlier)}`), this.evidence(r, `list yes ${price(list)}, single market yes ${price(item)}`)];
    const rounds = `${lag.behind} round${lag.behind === 1 ? '' : 's'}`;
    this.findings.add(code, lag.side === 'list' ? LIST_ENDPOINT : SINGLE_ENDPOINT, { marketId: id, found: `${lagging} shows what ${leading} showed ${rounds} earlier`, seen }, `market ${JSON.stringify(id)}: ${lagging} showed what ${leading} showed ${rounds} earlier (yes ${price(list)} listed, ${price(item)} single), as ${share} did, ${held} rounds in a row`);
  }

  /**
   * prices-frozen: an active market tracked K + 1 rounds or more whose listed prices stayed put
   * for L rounds in a row, L the run chance no longer explains (still-odds.ts frozenRunNeeded: at
   * least K), while more than half of such markets moved in the last K rounds; when none moved at
   * all, prices-static once (information: a deployment whose prices do not move, not a stale market).
   */
  private judgeFrozen(r: number): void {
    const k = WATCH_RULES.frozenRounds;
    let moving = 0;
    const still: Array<[string, MarketTrack]> = [];
    for (const [id, track] of this.markets) {
      if (track.seen !== r || track.status !== 'active' || r - track.first < k) continue;
      if (r - track.movedAt < k) moving++;
      else still.push([id, track]);
    }
    const judged = moving + still.length;
    if (judged === 0) return;
    if (moving === 0) {
      if (this.deployment.staticSaid) return;
      this.deployment.staticSaid = true;
      this.findings.add('prices-static', 'deployment', { found: `no price moved in ${k} rounds`, seen: [this.evidence(r - k, `${judged} active markets`), this.evidence(r, 'same prices')] }, `no listed price moved in the last ${k} rounds (${judged} active markets): a deployment whose prices do not move, or a watch too short to see them move`);
      return;
    }
    if (moving / judged <= WATCH_RULES.movingShare) return;
    const counts = this.deployment.stillCounts ?? emptyStillCounts();
    for (const [id, track] of still) {
      if (track.frozen || track.still < k) continue;
      const q = stayBound(counts, stillBin(track.yes));
      const needed = frozenRunNeeded(q, judged, r);
      if (track.still < needed) continue;
      track.frozen = true;
      const since = r - track.still;
      const odds = `a moving market here stays put a round with probability ${q.toFixed(3)} at most: ${needed} rounds in a row happen by chance with probability under ${WATCH_RULES.frozenAlpha} over the watch`;
      const seen = [this.evidence(since, `yes ${price(track.yes)} no ${price(track.no)}`), this.evidence(r, `the same, ${track.still} rounds later`)];
      this.findings.add('prices-frozen', LIST_ENDPOINT, { marketId: id, found: `yes ${price(track.yes)} for ${track.still} rounds (since round ${since}), while ${moving} of ${judged} active markets moved`, seen }, `market ${JSON.stringify(id)} kept yes ${price(track.yes)} no ${price(track.no)} from round ${since} to round ${r} while ${moving} of ${judged} active markets moved (${odds})`);
    }
  }

  /** Drops markets absent WATCH_FORGET_ROUNDS rounds and instants older than any evidence needs. */
  private forget(r: number): void {
    for (const [id, track] of this.markets) if (track.absent !== undefined && r - track.absent >= WATCH_FORGET_ROUNDS) this.markets.delete(id);
    const keep = WATCH_INSTANT_ROUNDS;
    for (const round of this.instants.keys()) if (r - round > keep) this.instants.delete(round);
  }
}

/**
 * Which side lags and by how many rounds, when the disagreeing value is one the other side showed
 * earlier than the last answer read before it. A round reads the list first, then the single
 * markets: a single market read after the list that shows an older list price lags (1 round or
 * more); a list that shows what the single market showed a round earlier may only be a price that
 * moved between the list request and the single request, so the list lags only when it shows what
 * the single market showed 2 rounds earlier or more, and not what it showed in the round before
 * (read before this list). A price that went back and forth can fit both sides at the same
 * distance: that says nothing of which side lags, so no lag.
 */
function lagOf(track: MarketTrack): { side: 'list' | 'items'; behind: number } | undefined {
  const [list, item] = [track.listYes[0] as number, track.itemYes[0] as number];
  for (let behind = 1; behind < WATCH_RULES.lagHistory; behind++) {
    const listed = track.listYes[behind];
    const single = track.itemYes[behind];
    const itemsLag = listed !== undefined && samePrice(listed, item) && !samePrice(listed, list);
    const listLags = behind >= 2 && single !== undefined && samePrice(single, list) && !samePrice(single, item) && !samePrice(track.itemYes[1] ?? Number.NaN, list);
    if (itemsLag && listLags) return undefined;
    if (itemsLag) return { side: 'items', behind };
    if (listLags) return { side: 'list', behind };
  }
  return undefined;
}

/** Two prices as the same value (both NaN: both missing). */
function samePrice(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

function price(value: number): string {
  return Number.isNaN(value) ? 'none' : String(value);
}

/** An HTTP-date (RFC 9110 §5.6.7) as epoch ms; undefined when absent or not a date. */
export function httpTime(text: string | undefined): number | undefined {
  if (text === undefined || text.length > 64) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** A duration in whole seconds, minutes or hours: `90 s`, `3 h 2 min`. */
function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
