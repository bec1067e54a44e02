import { checkBehaviour, type Behaviour, type BehaviourRule, type BehaviourRuleInput } from '../behaviour/behaviour.js';
import { MAX_EDITABLE, MAX_JOURNAL_READ, MAX_MARKETS_PER_CALL, MAX_TICKS_PER_CALL } from '../floor/limits.js';
import { MarketStubError, optionError, relocate } from '../floor/market-stub-error.js';
import { type JournalEntry, type JournalFilter } from '../journal/request-journal.js';
import { traceIdOf } from '../journal/trace-context.js';
import { harChunks } from '../journal/har.js';
import type { StubRuntime } from './stub-runtime.js';
import { reachWarnings, type DeviationReach } from '../catalog/deviation-reach.js';
import type { ClockReading } from '../catalog/stub-clock.js';
import type { Market } from '../schema/generated/market-types.js';
import { describeCatalogue, type DeviationDescription } from '../deviation/describe-catalogue.js';
import { describePlan, marketDeviations, planDeviations, refuseConflicts, type DeviationSetting } from '../deviation/deviation-settings.js';

/**
 * The runtime controls of one stub as plain synchronous calls: the single definition behind the
 * in-process handle (`startMarketStub`) and the admin API (`/__stub`). Each call validates its
 * arguments and throws a MarketStubError worded for `where`, the surface the caller used
 * (`stub.tick`, `POST /__stub/tick`); nothing changes when it throws.
 */
export interface StubControls {
  catalog(where: string): Market[];
  /** One market as stored (before deviations). */
  market(where: string, marketId: string): Market;
  /** Whether the catalog holds this market_id. */
  hasMarket(marketId: string): boolean;
  setMarkets(where: string, markets: unknown): void;
  putMarket(where: string, market: unknown): 'created' | 'replaced';
  patchMarket(where: string, marketId: string, patch: unknown): Market;
  removeMarket(where: string, marketId: string): void;
  /** Replaces every deviation in force: DeviationSetting[] (`[]` clears them all). */
  setDeviations(where: string, settings: unknown): void;
  /** Sets the deviations of one market (names of market deviations; `[]` clears). @returns them as now in force. */
  setMarketDeviations(where: string, marketId: string, names: unknown): string[];
  /** The catalogue (every deviation, its class, endpoints, description and findings), the deviations in force, and which markets each reaches now (counted in catalogs up to MAX_EDITABLE, the size the console lists whole). */
  deviations(where: string): { catalogue: DeviationDescription[]; active: DeviationSetting[]; reach: DeviationReach[] };
  tick(where: string, n: unknown): number;
  /** The stub clock: its instant now, rate and start. */
  clock(where: string): ClockReading;
  /** Moves the stub clock (`{to, advance, rate}`, catalog/stub-clock.ts); forward only. @returns the reading after. */
  setClock(where: string, change: unknown): ClockReading;
  /** Start-up markets, deviations, behaviours, and the clock back at its start instant and rate. */
  reset(where: string): void;
  /** The behaviours in force: global and rules (with the applications left of rules with `times`). */
  behaviours(where: string): { global: Behaviour; rules: BehaviourRule[] };
  /** Start-up global behaviour and rules again (full counts); markets and journal untouched. */
  resetBehaviours(where: string): void;
  setBehaviour(where: string, behaviour: unknown): Behaviour;
  addRule(where: string, rule: unknown): BehaviourRule;
  removeRule(where: string, ruleId: string): void;
  requests(where: string, filter: unknown): JournalEntry[];
  /** The matching entries as an HTTP Archive (HAR 1.2: journal/har.ts), JSON text in pieces, one entry at a time. */
  har(where: string, filter: unknown): Iterable<string>;
  requestCount(where: string, filter: unknown): number;
  /** How full the journal is: requests seen, entries and bytes held, and its bounds. */
  journalStats(where: string): JournalStats;
  clearRequests(where: string): void;
}

/** The journal's counters, as `GET /__stub/requests` reports them next to the entries. */
export interface JournalStats {
  total: number;
  size: number;
  capacity: number;
  bytes: number;
  maxBytes: number;
}



/** Creates the controls over a runtime: the market, deviation, behaviour and journal controls, each a named part. */
export function createStubControls(runtime: StubRuntime): StubControls {
  const { store, behaviours, journal, clock } = runtime;
  return {
    ...marketControls(store, runtime.warn, clock),
    clock: () => clock.read(),
    setClock: (where, change) => clock.set(change, where),
    reset() {
      // The clock goes back first: the catalog's reset is a change at the start instant (Last-Modified).
      const before = clock.now();
      clock.reset();
      store.reset(before);
      behaviours.reset();
    },
    ...behaviourControls(behaviours),
    ...journalControls(journal),
  };
}

type MarketControls = Pick<StubControls, 'catalog' | 'market' | 'hasMarket' | 'setMarkets' | 'putMarket' | 'patchMarket' | 'removeMarket' | 'setDeviations' | 'setMarketDeviations' | 'deviations' | 'tick'>;

/** The controls over the catalog and its deviations (each checks its arguments, then edits the store); reads and patches see markets at the clock's instant. */
function marketControls(store: StubRuntime['store'], warn: StubRuntime['warn'], clock: StubRuntime['clock']): MarketControls {
  const notFound = (where: string, marketId: string) => new MarketStubError({ code: 'MARKET_NOT_FOUND', where, marketId, message: `${where}: no market with market_id ${JSON.stringify(marketId)}` });
  const requireMarket = (where: string, marketId: unknown): string => {
    if (typeof marketId !== 'string' || marketId === '') throw optionError(where, 'marketId', 'a non-empty string', marketId);
    if (!store.has(marketId)) throw notFound(where, marketId);
    return marketId;
  };
  return {
    catalog: (where) => wholeCatalog(store, where, clock.now()),
    market(where, marketId) {
      const market = store.market(requireMarket(where, marketId));
      if (!market) throw notFound(where, marketId);
      return store.walked(market, clock.now());
    },
    hasMarket: (marketId) => store.has(marketId),
    setMarkets(where, markets) {
      if (!Array.isArray(markets)) throw optionError(where, 'markets', 'an array of markets', markets);
      if (markets.length > MAX_MARKETS_PER_CALL) {
        throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'markets', expected: `at most ${MAX_MARKETS_PER_CALL} markets per call (serve larger catalogs from fixtures or the generator)`, found: markets.length });
      }
      guarded(where, () => store.replace(markets, where));
    },
    putMarket(where, market) {
      return guarded(where, () => store.put(market, where));
    },
    patchMarket(where, marketId, patch) {
      requireMarket(where, marketId);
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw optionError(where, 'patch', 'a JSON object (RFC 7396 merge patch)', patch);
      const market = guarded(where, () => store.patch(marketId, patch as Record<string, unknown>, where, clock.now()));
      if (!market) throw notFound(where, marketId);
      return market;
    },
    removeMarket(where, marketId) {
      requireMarket(where, marketId);
      guarded(where, () => store.remove(marketId, where));
    },
    setDeviations(where, settings) {
      const plan = planDeviations(settings, where);
      guarded(where, () => store.setDeviations(plan, where));
      for (const warning of reachWarnings(store.deviationReach())) warn(warning);
    },
    setMarketDeviations(where, marketId, names) {
      requireMarket(where, marketId);
      const deviations = marketDeviations(names, where);
      // With the shares in force, the market must be able to serve them all (deviation-settings.ts conflictBetween).
      refuseConflicts({ shares: store.deviations().shares, targeted: new Map([[marketId, deviations]]), list: [] }, where);
      store.setMarketDeviations(marketId, deviations);
      return deviations.map((d) => d.name);
    },
    deviations: () => ({ catalogue: describeCatalogue(), active: describePlan(store.deviations()), reach: store.deviationReach(MAX_EDITABLE) }),
    tick(where, n) {
      const count = n === undefined ? 1 : n;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_TICKS_PER_CALL) throw optionError(where, 'n', `an integer from 1 to ${MAX_TICKS_PER_CALL}`, n);
      // A tick is n steps of the price walk: the clock moves n price steps forward (O(1) at any catalog size).
      clock.forward(count * store.stepMs(), where, 'n');
      return store.stepAt(clock.now());
    },
  };
}

/** Every market as stored, at stub instant `t` (prices walked), in catalog order. @throws MarketStubError LIMIT_EXCEEDED above MAX_EDITABLE markets. */
function wholeCatalog(store: StubRuntime['store'], where: string, t: number): Market[] {
  const current = store.current();
  if (current.size > MAX_EDITABLE) {
    throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'catalog', expected: `a catalog of at most ${MAX_EDITABLE} markets to list whole`, found: current.size });
  }
  const markets: Market[] = [];
  for (let i = 0; i < current.size; i++) {
    const market = store.marketAt(i);
    if (market) markets.push(store.walked(market, t));
  }
  return markets;
}

/** The controls over the behaviour engine (global behaviour and rules). */
function behaviourControls(behaviours: StubRuntime['behaviours']): Pick<StubControls, 'behaviours' | 'resetBehaviours' | 'setBehaviour' | 'addRule' | 'removeRule'> {
  return {
    behaviours: () => ({ global: behaviours.global(), rules: behaviours.rules() }),
    resetBehaviours() {
      behaviours.reset();
    },
    setBehaviour(where, behaviour) {
      const checked = guarded(where, () => checkBehaviour(behaviour, 'behaviour'));
      behaviours.setGlobal(checked);
      return behaviours.global();
    },
    addRule(where, rule) {
      if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) throw optionError(where, 'rule', 'an object {match, behaviour, times?, id?}', rule);
      return guarded(where, () => behaviours.addRule(rule as BehaviourRuleInput));
    },
    removeRule(where, ruleId) {
      if (!behaviours.removeRule(ruleId)) throw new MarketStubError({ code: 'RULE_NOT_FOUND', where, option: 'ruleId', expected: `the id of a rule (${behaviours.rules().map((r) => r.id).slice(0, 20).join(', ') || 'there are none'})`, found: ruleId });
    },
  };
}

/** The controls over the request journal (filters checked). */
function journalControls(journal: StubRuntime['journal']): Pick<StubControls, 'requests' | 'har' | 'requestCount' | 'journalStats' | 'clearRequests'> {
  return {
    requests(where, filter) {
      return journal.list(checkFilter(where, filter));
    },
    har(where, filter) {
      return harChunks(journal.exchanges(checkFilter(where, filter)));
    },
    requestCount(where, filter) {
      return journal.count(checkFilter(where, filter));
    },
    journalStats: () => ({ total: journal.total(), size: journal.size(), capacity: journal.capacity, bytes: journal.bytes(), maxBytes: journal.maxBytes }),
    clearRequests() {
      journal.clear();
    },
  };
}

/** The fields of a journal filter and what each holds (checkFilter reads them; the MCP tools describe them: src/mcp/tool-schemas.ts). */
export const FILTER_FIELDS: Readonly<Record<keyof JournalFilter, 'string' | 'status' | 'count' | 'traceId'>> = { method: 'string', path: 'string', pathPrefix: 'string', status: 'status', traceId: 'traceId', requestId: 'string', limit: 'count' };

/**
 * Checks a journal filter: only known fields, strings where strings go, `status` an HTTP status
 * (100–599), `traceId` a W3C trace-id (32 hex digits) or a whole `traceparent` (its trace-id is
 * used; W3C Trace Context §3.2) and `limit` an integer from 0 to MAX_JOURNAL_READ (a read returns
 * at most that many). Returns the filter with `traceId` as the 32 lower-case digits.
 * @throws MarketStubError OPTION_INVALID naming the field (`filter.limit`).
 */
export function checkFilter(where: string, filter: unknown): JournalFilter {
  if (filter === undefined) return {};
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw optionError(where, 'filter', 'an object such as {"path":"/markets"}', filter);
  const checked = withTraceId(where, filter);
  for (const [key, value] of Object.entries(checked)) {
    const kind = FILTER_FIELDS[key as keyof JournalFilter];
    if (!kind) throw optionError(where, `filter.${key}`, `a known field (${Object.keys(FILTER_FIELDS).join(', ')})`, key);
    if (value === undefined) continue;
    if ((kind === 'string' || kind === 'traceId') && typeof value !== 'string') throw optionError(where, `filter.${key}`, 'a string', value);
    if (kind === 'status' && !(Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599)) throw optionError(where, `filter.${key}`, 'an HTTP status from 100 to 599', value);
    if (kind === 'count' && !(Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_JOURNAL_READ)) throw optionError(where, `filter.${key}`, `an integer from 0 to ${MAX_JOURNAL_READ}`, value);
  }
  return checked as JournalFilter;
}

/** A filter whose `traceId` (a trace-id or a whole traceparent) is read into the 32 lower-case hex digits entries are matched by. */
function withTraceId(where: string, filter: object): object {
  const { traceId } = filter as { traceId?: unknown };
  if (traceId === undefined) return filter;
  const id = typeof traceId === 'string' ? traceIdOf(traceId) : undefined;
  if (id === undefined) throw optionError(where, 'filter.traceId', 'a W3C trace-id (32 hex digits, not all zero) or a traceparent such as 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', traceId);
  return { ...filter, traceId: id };
}

/** Runs a store or engine call: its MarketStubErrors name `where`; its size RangeError becomes LIMIT_EXCEEDED. */
function guarded<T>(where: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof MarketStubError) throw error.where === where ? error : relocate(error, where);
    if (error instanceof RangeError) throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, message: `${where}: ${error.message}` });
    throw error;
  }
}
