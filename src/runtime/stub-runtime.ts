import { DEFAULT_JOURNAL_BYTES, DEFAULT_PRICE_STEP, MAX_LIFECYCLE_MARKETS } from '../floor/limits.js';
import type { StubLogger } from '../floor/stub-logger.js';
import { createMarketStore, type MarketStore, type PriceWalk } from '../catalog/market-store.js';
import { createStubClock, type StubClock } from '../catalog/stub-clock.js';
import { parseInstant, parseStep } from '../floor/instant.js';
import { todayUtc } from '../floor/market-rules.js';
import { createBehaviourEngine, type BehaviourEngine } from '../behaviour/behaviour.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import { planDeviations } from '../deviation/deviation-settings.js';
import { createRequestJournal, type RequestJournal } from '../journal/request-journal.js';
import { resolveProfile, type ResponseProfile } from './response-profile.js';
import { secretNames, type SecretNames } from '../floor/secret-names.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { Explanation } from '../journal/explanation.js';
import type { ResponseRecord } from '../journal/request-journal.js';

export type { RuntimeOptions } from './runtime-options.js';


/** The live state of one stub: catalog store, profile, behaviours, journal and switches. */
export interface StubRuntime {
  readonly store: MarketStore;
  readonly behaviours: BehaviourEngine;
  readonly journal: RequestJournal;
  readonly profile: ResponseProfile;
  readonly cors: boolean;
  /** The stub clock (catalog/stub-clock.ts): the core reads it once per request; every answer is computed at that instant. */
  readonly clock: StubClock;
  /** Explain every answer (the `explain` option); a request's `Prefer: explain` asks for one answer. */
  readonly explain: boolean;
  readonly admin: boolean;
  readonly adminToken: string | undefined;
  readonly allowedHosts: readonly string[];
  readonly logger: StubLogger | undefined;
  /** Logs the cause of a 500 (`where`: the request) to the error log, and to the request log when there is one. Never throws. */
  reportError(error: unknown, where: string): void;
  /** Writes a warning line to the error log (and the request log when there is one). Never throws. */
  warn(message: string): void;
  /**
   * Journals one finished exchange and writes its request-log line (adapters call it once per
   * non-admin request, when the status is known; `status` null for a reset or a network error).
   */
  recordExchange(exchange: Exchange): void;
  /**
   * Hands every exchange, once journaled, to `observer` too (one at a time: a later call replaces
   * it; undefined removes it). The in-process stub's OpenTelemetry spans (http/request-spans.ts).
   */
  observeExchanges(observer: ((exchange: Exchange) => void) | undefined): void;
}

/** The reserved admin prefix; requests under it are never journaled. */
export const ADMIN_PREFIX = '/__stub';

/** One answered (or aborted) request, as the journal and the request log record it. */
export interface Exchange {
  /** Wall-clock start, ms since the epoch. */
  timeMs: number;
  /** The stub instant the answer was computed at (StubAnswer.instantMs), epoch ms. */
  instantMs: number;
  method: string;
  /** The request target as sent (path and query), for the log line. */
  target: string;
  path: string;
  /** The query string without `?` ('' when none). */
  query: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The status sent, or null when no response was sent (reset, network error). */
  status: number | null;
  /** Time from receipt to the end of the response, ms (two decimals kept). */
  durationMs: number;
  /** What behaviours and deviations applied (`delay=200`, `deviation=string-price`). */
  labels: readonly string[];
  /** Why the answer came, when it was explained (the `explain` option or `Prefer: explain`). */
  explain?: Explanation | undefined;
  /** The response decided (its headers, and body or chunks), for the HAR export; absent: none recorded. */
  response?: ResponseRecord | undefined;
}

/**
 * Builds a runtime (its options already checked by checkRuntimeOptions or checkStubOptions);
 * `where` names the caller in errors. Platform-neutral: adapters (src/http, src/msw) turn requests
 * into StubRequests, ask answerRequest for the Reply, deliver it and call recordExchange.
 * @throws MarketStubError OPTION_INVALID for a bad profile or journal bound (BehaviourError for a bad behaviour or rule),
 *   OPTION_INVALID or MARKET_NOT_FOUND for bad deviations (a `marketIds` entry outside the catalog).
 */
export function createStubRuntime(options: RuntimeOptions, where = 'createStubRuntime'): StubRuntime {
  const seed = options.seed ?? 1;
  const clock = createStubClock(parseInstant(options.clock ?? todayUtc()) ?? Date.parse(`${todayUtc()}T00:00:00Z`), options.clockRate ?? 0, Date.now, options.lifecycle ?? 'off');
  const store = createStore(options, seed, { origin: clock.start, stepMs: parseStep(options.priceStep ?? DEFAULT_PRICE_STEP) ?? 60_000, mode: options.priceWalk ?? 'generated' }, where, () => clock.now());
  const behaviours = createBehaviourEngine({ seed, ...(options.behaviour ? { global: options.behaviour } : {}), ...(options.rules ? { rules: options.rules } : {}) });
  const journal = createRequestJournal({ capacity: options.journalSize ?? 1000, maxBytes: options.journalBytes ?? DEFAULT_JOURNAL_BYTES, headers: options.journalHeaders ?? 'redacted', redactHeaders: options.redactHeaders ?? [], redactQuery: options.redactQuery ?? [] });
  const logger = options.logger;
  const { reportError, warn } = errorChannels(options.errorLog ?? ((line: string) => console.error(line)), logger);
  const record = exchangeRecorder(journal, logger, secretNames(options.redactHeaders, options.redactQuery));
  let observer: ((exchange: Exchange) => void) | undefined;
  return {
    store, behaviours, journal, logger, reportError, warn,
    profile: resolveProfile(options.profile),
    cors: options.cors ?? true,
    clock,
    explain: options.explain ?? false,
    allowedHosts: Object.freeze([...(options.allowedHosts ?? [])]),
    admin: options.admin ?? true,
    adminToken: options.adminToken,
    recordExchange: (x) => {
      record(x);
      observer?.(x);
    },
    observeExchanges: (next) => {
      observer = next;
    },
  };
}

/** Stage: the store over the catalog, with the start-up deviations planned and their market ids checked. */
function createStore(options: RuntimeOptions, seed: number, walk: PriceWalk, where: string, now: () => number): MarketStore {
  const plan = planDeviations(options.deviations ?? [], where);
  const lifecycle = options.lifecycle ?? 'off';
  if (lifecycle !== 'off' && options.catalog.source === 'generated' && options.catalog.size > MAX_LIFECYCLE_MARKETS) {
    throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'lifecycle', expected: `a generated catalog of at most ${MAX_LIFECYCLE_MARKETS} markets for a lifecycle (lower --count, or --lifecycle off)`, found: options.catalog.size });
  }
  const store = createMarketStore(options.catalog, { seed, deviations: plan, walk, now, lifecycle });
  for (const id of plan.targeted.keys()) {
    if (!store.has(id)) throw new MarketStubError({ code: 'MARKET_NOT_FOUND', where, option: 'deviations', marketId: id, message: `${where}: deviations: no market with market_id ${JSON.stringify(id)} (marketIds name markets of the catalog)` });
  }
  return store;
}

/** The journal's `behaviour` of a request none applied to: one shared array, not one per request. */
const NO_LABELS: string[] = Object.freeze([]) as unknown as string[];

/** Journals an exchange and logs its line (one object per request: the hot path of every adapter). */
function exchangeRecorder(journal: RequestJournal, logger: StubLogger | undefined, secrets: SecretNames): (exchange: Exchange) => void {
  return (x) => {
    const labels = x.labels.length > 0 ? [...x.labels] : NO_LABELS;
    journal.record({ timeMs: x.timeMs, stubTimeMs: x.instantMs, method: x.method, path: x.path, query: x.query, headers: x.headers, status: x.status, durationMs: x.durationMs, behaviour: labels, explain: x.explain, response: x.response });
    if (!logger) return;
    // The log shows what was asked, never a secret query value (token=, api_key=…).
    const shown = x.query === '' ? x.target : `${x.path}?${secrets.redactQuery(x.query)}`;
    const line = `${x.method} ${shown} ${x.status ?? 'reset'} ${x.durationMs.toFixed(1)} ms`;
    if (labels.length > 0) logger.info({ method: x.method, path: shown, status: x.status, ms: x.durationMs, behaviour: labels }, `${line} [${labels.join(', ')}]`);
    else logger.info({ method: x.method, path: shown, status: x.status, ms: x.durationMs }, line);
  };
}

/** The cause of a 500 and start-up warnings, to the error log and the request log; never throws. */
function errorChannels(errorLog: (line: string) => void, logger: StubLogger | undefined): Pick<StubRuntime, 'reportError' | 'warn'> {
  return {
    reportError(error, at) {
      const cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
      try {
        errorLog(`market-stub: 500 on ${at}: ${cause}`);
        logger?.error({ err: error, where: at }, `500 on ${at}`);
      } catch {
        // The error log itself failed: nothing left to tell.
      }
    },
    warn(message) {
      try {
        errorLog(`market-stub: warning: ${message}`);
        logger?.warn({}, message);
      } catch {
        // as above
      }
    },
  };
}
