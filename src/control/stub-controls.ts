import { checkBehaviour, type Behaviour, type BehaviourRule, type BehaviourRuleInput } from '../behaviour/behaviour.js';
import { DOMAIN_FAULTS, MAX_EDITABLE, type DomainFault } from '../catalog/market-store.js';
import { MarketStubError, optionError, relocate } from '../core/market-stub-error.js';
import type { JournalEntry, JournalFilter } from '../journal/request-journal.js';
import type { StubRuntime } from '../http/stub-runtime.js';
import type { Market } from '../schema/market-types.js';

/**
 * The runtime controls of one stub as plain synchronous calls: the single definition behind the
 * in-process handle (`startMarketStub`) and the admin API (`/__stub`). Each call validates its
 * arguments and throws a MarketStubError worded for `where`, the surface the caller used
 * (`stub.tick`, `POST /__stub/tick`); nothing changes when it throws.
 */
export interface StubControls {
  catalog(where: string): Market[];
  setMarkets(where: string, markets: unknown): void;
  putMarket(where: string, market: unknown): 'created' | 'replaced';
  patchMarket(where: string, marketId: string, patch: unknown): Market;
  removeMarket(where: string, marketId: string): void;
  setMarketFaults(where: string, marketId: string, faults: unknown): void;
  tick(where: string, n: unknown): number;
  reset(where: string): void;
  setBehaviour(where: string, behaviour: unknown): Behaviour;
  addRule(where: string, rule: unknown): BehaviourRule;
  removeRule(where: string, ruleId: string): void;
  requests(where: string, filter: unknown): JournalEntry[];
  requestCount(where: string, filter: unknown): number;
  clearRequests(where: string): void;
}

/** Largest `n` of one tick call (each tick visits every market). */
export const MAX_TICKS_PER_CALL = 10_000;

/** Creates the controls over a runtime. */
export function createStubControls(runtime: StubRuntime): StubControls {
  const { store, behaviours, journal } = runtime;
  const requireMarket = (where: string, marketId: unknown): string => {
    if (typeof marketId !== 'string' || marketId === '') throw optionError(where, 'marketId', 'a non-empty string', marketId);
    if (!store.has(marketId)) throw new MarketStubError({ code: 'MARKET_NOT_FOUND', where, marketId, message: `${where}: no market with market_id ${JSON.stringify(marketId)}` });
    return marketId;
  };
  return {
    catalog(where) {
      const current = store.current();
      if (current.size > MAX_EDITABLE) {
        throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: 'catalog', expected: `a catalog of at most ${MAX_EDITABLE} markets to list whole`, found: current.size });
      }
      return Array.from({ length: current.size }, (_, i) => current.entryAt(i)?.market).filter((m): m is Market => m !== undefined);
    },
    setMarkets(where, markets) {
      if (!Array.isArray(markets)) throw optionError(where, 'markets', 'an array of markets', markets);
      guarded(where, () => store.replace(markets, where));
    },
    putMarket(where, market) {
      return guarded(where, () => store.put(market, where));
    },
    patchMarket(where, marketId, patch) {
      requireMarket(where, marketId);
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw optionError(where, 'patch', 'a JSON object (RFC 7396 merge patch)', patch);
      const market = guarded(where, () => store.patch(marketId, patch as Record<string, unknown>, where));
      if (!market) throw new MarketStubError({ code: 'MARKET_NOT_FOUND', where, marketId, message: `${where}: no market with market_id ${JSON.stringify(marketId)}` });
      return market;
    },
    removeMarket(where, marketId) {
      requireMarket(where, marketId);
      guarded(where, () => store.remove(marketId));
    },
    setMarketFaults(where, marketId, faults) {
      requireMarket(where, marketId);
      if (!Array.isArray(faults) || !faults.every((f) => DOMAIN_FAULTS.includes(f as DomainFault))) {
        throw optionError(where, 'faults', `an array of ${DOMAIN_FAULTS.join(', ')}`, faults);
      }
      guarded(where, () => store.setFaults(marketId, faults as DomainFault[]));
    },
    tick(where, n) {
      const count = n === undefined ? 1 : n;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_TICKS_PER_CALL) throw optionError(where, 'n', `an integer from 1 to ${MAX_TICKS_PER_CALL}`, n);
      return guarded(where, () => store.tick(count));
    },
    reset() {
      store.reset();
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
      if (!behaviours.removeRule(ruleId)) throw new MarketStubError({ code: 'RULE_NOT_FOUND', where, option: 'ruleId', expected: `the id of a rule (${behaviours.rules().map((r) => r.id).join(', ') || 'there are none'})`, found: ruleId });
    },
    requests(where, filter) {
      return journal.list(checkFilter(where, filter));
    },
    requestCount(where, filter) {
      return journal.count(checkFilter(where, filter));
    },
    clearRequests() {
      journal.clear();
    },
  };
}

const FILTER_FIELDS: Record<keyof JournalFilter, 'string' | 'status' | 'count'> = { method: 'string', path: 'string', pathPrefix: 'string', status: 'status', limit: 'count' };

/**
 * Checks a journal filter: only known fields, strings where strings go, `status` an HTTP status
 * (100–599) and `limit` an integer ≥ 0.
 * @throws MarketStubError OPTION_INVALID naming the field (`filter.limit`).
 */
export function checkFilter(where: string, filter: unknown): JournalFilter {
  if (filter === undefined) return {};
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw optionError(where, 'filter', 'an object such as {"path":"/markets"}', filter);
  for (const [key, value] of Object.entries(filter)) {
    const kind = FILTER_FIELDS[key as keyof JournalFilter];
    if (!kind) throw optionError(where, `filter.${key}`, `a known field (${Object.keys(FILTER_FIELDS).join(', ')})`, key);
    if (value === undefined) continue;
    if (kind === 'string' && typeof value !== 'string') throw optionError(where, `filter.${key}`, 'a string', value);
    if (kind === 'status' && !(Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599)) throw optionError(where, `filter.${key}`, 'an HTTP status from 100 to 599', value);
    if (kind === 'count' && !(Number.isSafeInteger(value) && (value as number) >= 0)) throw optionError(where, `filter.${key}`, 'an integer ≥ 0', value);
  }
  return filter as JournalFilter;
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
