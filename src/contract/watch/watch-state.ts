import { MAX_WATCHED_MARKETS } from '../../floor/limits.js';
import { packageVersion } from '../../floor/package-info.js';
import { ContractRunError } from '../http-client/index.js';
import { emptyStillCounts, type StillCounts } from './still-odds.js';
import { WatchTracker, type DeploymentTrack, type MarketTrack, type Validators } from './watch-tracker.js';

/** The `format` member of every watch state file. */
export const WATCH_STATE_FORMAT = 'market-stub watch state';
/** The version of the state's layout; a state of another version is ignored (the watch starts afresh), never read. */
export const WATCH_STATE_VERSION = 1;

/**
 * A watch's state as carried between runs (`check --watch … --state FILE`, `watchDeployment`'s
 * `state`): JSON text. `deployment` names the deployment it was made against (its base URL
 * without query, user or password: displayBase), so a state is never compared with another
 * deployment's rounds.
 */
export interface WatchStateFile {
  format: typeof WATCH_STATE_FORMAT;
  version: typeof WATCH_STATE_VERSION;
  deployment: string;
  /** `market-stub/0.5.0`: for people; the version above decides. */
  writtenBy: string;
  savedAt: string;
  /** The last round taken. */
  round: number;
  instants: Array<[number, string]>;
  track: DeploymentTrack;
  markets: Array<[string, MarketTrack]>;
}

/** A watch's state as JSON text (NaN prices written as null). */
export function saveWatchState(tracker: WatchTracker, deployment: string, round: number, now = new Date()): string {
  const file: WatchStateFile = {
    format: WATCH_STATE_FORMAT, version: WATCH_STATE_VERSION, deployment, writtenBy: `market-stub/${packageVersion()}`, savedAt: now.toISOString(), round,
    instants: [...tracker.instants], track: tracker.deployment, markets: [...tracker.markets],
  };
  return `${JSON.stringify(file, (_key, value: unknown) => (typeof value === 'number' && Number.isNaN(value) ? null : value))}\n`;
}

/** A state restored, or why it was set aside (another version: the watch starts afresh and says so). */
export type LoadedWatchState = { tracker: WatchTracker; round: number } | { ignored: string };

/**
 * Reads a state written by saveWatchState for `deployment`. A state of another layout version is
 * set aside (`ignored`, with the sentence to say); anything else that is not a state of this
 * deployment is refused.
 * @param where how the caller names the state (`--state watch.json`).
 * @throws ContractRunError OPTION_INVALID: not JSON, not a watch state, another deployment's, or a
 *   member of the wrong shape (named by its JSON pointer); what to do is in the message.
 */
export function loadWatchState(text: string, deployment: string, where: string): LoadedWatchState {
  const refuse = (why: string) => new ContractRunError('OPTION_INVALID', `${where}: ${why}. Give another --state file, or delete this one to start the watch afresh.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refuse('not a watch state (not JSON)');
  }
  if (!isObject(parsed) || parsed['format'] !== WATCH_STATE_FORMAT) throw refuse(`not a watch state (no "format": ${JSON.stringify(WATCH_STATE_FORMAT)})`);
  if (parsed['version'] !== WATCH_STATE_VERSION) {
    return { ignored: `${where} is a watch state of version ${JSON.stringify(parsed['version'])}, not ${WATCH_STATE_VERSION} (written by ${String(parsed['writtenBy'])}): set aside, the watch starts afresh and overwrites it` };
  }
  if (parsed['deployment'] !== deployment) throw refuse(`the state of another deployment (${JSON.stringify(parsed['deployment'])}, not ${JSON.stringify(deployment)}); give each deployment its own state file`);
  return { tracker: restore(parsed, refuse), round: checkedInteger(parsed['round'], '/round', refuse) };
}

function restore(file: Record<string, unknown>, refuse: (why: string) => ContractRunError): WatchTracker {
  const tracker = new WatchTracker();
  const instants = file['instants'];
  if (!Array.isArray(instants)) throw refuse('/instants is not an array');
  instants.forEach((pair: unknown, k) => {
    if (!Array.isArray(pair) || typeof pair[1] !== 'string') throw refuse(`/instants/${k} is not [round, instant]`);
    tracker.instants.set(checkedInteger(pair[0], `/instants/${k}/0`, refuse), pair[1]);
  });
  const track = file['track'];
  if (!isObject(track)) throw refuse('/track is not an object');
  tracker.deployment = restoreDeployment(track, refuse);
  const markets = file['markets'];
  if (!Array.isArray(markets)) throw refuse('/markets is not an array');
  if (markets.length > MAX_WATCHED_MARKETS) throw refuse(`/markets holds ${markets.length} markets, more than a watch tracks (${MAX_WATCHED_MARKETS})`);
  markets.forEach((pair: unknown, k) => {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || !isObject(pair[1])) throw refuse(`/markets/${k} is not [market_id, track]`);
    tracker.markets.set(pair[0], restoreMarket(pair[1], `/markets/${k}/1`, refuse));
  });
  return tracker;
}

function restoreDeployment(track: Record<string, unknown>, refuse: (why: string) => ContractRunError): DeploymentTrack {
  const out: DeploymentTrack = {};
  if (track['list'] !== undefined) {
    const list = track['list'];
    if (!isObject(list)) throw refuse('/track/list is not an object');
    out.list = { round: checkedInteger(list['round'], '/track/list/round', refuse), ...validators(list, '/track/list', refuse) };
  }
  if (track['skewed'] === true) out.skewed = true;
  if (track['staticSaid'] === true) out.staticSaid = true;
  if (track['stillCounts'] !== undefined) out.stillCounts = stillCounts(track['stillCounts'], refuse);
  return out;
}

function restoreMarket(raw: Record<string, unknown>, at: string, refuse: (why: string) => ContractRunError): MarketTrack {
  const int = (name: string) => checkedInteger(raw[name], `${at}/${name}`, refuse);
  const track: MarketTrack = {
    first: int('first'), seen: int('seen'), yes: checkedPrice(raw['yes'], `${at}/yes`, refuse), no: checkedPrice(raw['no'], `${at}/no`, refuse), movedAt: int('movedAt'),
    // A state written before runs were counted starts each run afresh.
    still: raw['still'] === undefined ? 0 : int('still'),
    listYes: prices(raw['listYes'], `${at}/listYes`, refuse), itemYes: prices(raw['itemYes'], `${at}/itemYes`, refuse),
  };
  if (raw['absent'] !== undefined) track.absent = int('absent');
  if (raw['item404'] !== undefined) track.item404 = int('item404');
  if (raw['status'] !== undefined) {
    if (typeof raw['status'] !== 'string' || raw['status'].length > 256) throw refuse(`${at}/status is not a short string`);
    track.status = raw['status'];
  }
  if (raw['frozen'] === true) track.frozen = true;
  if (raw['moved'] === true) track.moved = true;
  if (raw['afterTerminal'] === true) track.afterTerminal = true;
  const item = raw['item'];
  if (item !== undefined) {
    if (!isObject(item)) throw refuse(`${at}/item is not an object`);
    track.item = { round: checkedInteger(item['round'], `${at}/item/round`, refuse), status: checkedInteger(item['status'], `${at}/item/status`, refuse), ...validators(item, `${at}/item`, refuse) };
  }
  // A lag in progress is not carried over: it is seen again in lagRounds rounds.
  return track;
}

function validators(raw: Record<string, unknown>, at: string, refuse: (why: string) => ContractRunError): Omit<Validators, 'round'> {
  const out: Omit<Validators, 'round'> = {};
  if (raw['etagKept'] === true) out.etagKept = true;
  for (const name of ['etag', 'lastModified'] as const) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > 1024) throw refuse(`${at}/${name} is not a header value`);
    out[name] = value;
  }
  if (raw['hash'] !== undefined) out.hash = checkedInteger(raw['hash'], `${at}/hash`, refuse);
  return out;
}

/** The counts of still-odds.ts: STILL_BINS × 4 whole numbers. */
function stillCounts(raw: unknown, refuse: (why: string) => ContractRunError): StillCounts {
  if (!Array.isArray(raw) || raw.length !== emptyStillCounts().length) throw refuse(`/track/stillCounts is not an array of ${emptyStillCounts().length} counts`);
  return raw.map((value, k) => checkedInteger(value, `/track/stillCounts/${k}`, refuse));
}

function prices(raw: unknown, at: string, refuse: (why: string) => ContractRunError): number[] {
  if (!Array.isArray(raw) || raw.length > 16) throw refuse(`${at} is not a short array of prices`);
  return raw.map((value, k) => checkedPrice(value, `${at}/${k}`, refuse));
}

function checkedPrice(value: unknown, at: string, refuse: (why: string) => ContractRunError): number {
  if (value === null) return Number.NaN;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw refuse(`${at} is not a price or null`);
  return value;
}

function checkedInteger(value: unknown, at: string, refuse: (why: string) => ContractRunError): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw refuse(`${at} is not a whole number`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
