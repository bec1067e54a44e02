import type { Behaviour, BehaviourRule, BehaviourRuleInput } from '../behaviour/behaviour.js';
import type { DeviationSetting } from '../deviation/deviation-settings.js';
import type { JournalEntry, JournalFilter } from '../journal/request-journal.js';
import type { Market } from '../schema/generated/market-types.js';

/**
 * The runtime controls of a stub, one interface for every way to reach it: the in-process handle
 * of `startMarketStub` and the remote client of `connectMarketStub` (a stub in another process or
 * a container, over the admin API under `/__stub`). Every method is asynchronous on both, so a
 * test written against one runs unchanged against the other.
 *
 * Errors: every method rejects with a `MarketStubError` for a problem the caller can fix:
 * `OPTION_INVALID` (a bad argument: `option`, `expected`, `found`), `MARKETS_INVALID` (markets
 * fail `$defs/Market`: `findings`, nothing changed), `MARKET_NOT_FOUND` / `RULE_NOT_FOUND` (an
 * unknown id), `LIMIT_EXCEEDED` (a documented limit), and on the remote client `UNAUTHORIZED`
 * (missing or wrong admin token) and `STUB_UNREACHABLE`.
 */
export interface MarketStubClient {
  /** Base URL of the stub, e.g. `http://127.0.0.1:53111`: the market routes are `${url}/markets`. */
  readonly url: string;
  /** Every market served now, in catalog order (as `GET /__stub/markets` answers). */
  catalog(): Promise<Market[]>;
  /** Replaces every market; validated like fixtures, all or nothing. */
  setMarkets(markets: readonly unknown[]): Promise<void>;
  /** Adds or replaces one market (validated). */
  putMarket(market: unknown): Promise<'created' | 'replaced'>;
  /**
   * Applies an RFC 7396 JSON merge patch to one market (nested objects merge, `null` removes a
   * member); the result is validated before it replaces anything. `market_id` cannot change.
   * @returns the market as served after the patch.
   */
  patchMarket(marketId: string, patch: Record<string, unknown>): Promise<Market>;
  /** Removes one market. */
  removeMarket(marketId: string): Promise<void>;
  /**
   * Replaces every deviation in force (`[]` clears them all; `reset()` restores the start-up ones).
   * Each setting serves one deviation of the catalogue (`GET /__stub/deviations`, the README) to
   * every market (`{ name }`), a seeded share (`{ name, rate: 0.1 }`: the same markets on every
   * run for the same seed) or named markets (`{ name, marketIds: [id] }`); a list deviation
   * (`list-500`) takes neither. List and item stay one record except where the deviation is the
   * inconsistency. Rejects with OPTION_INVALID (unknown name, bad rate), MARKET_NOT_FOUND (a
   * marketIds entry outside the catalog) or LIMIT_EXCEEDED (over 200 settings or 10,000 ids);
   * nothing changes then.
   */
  setDeviations(settings: readonly DeviationSetting[]): Promise<void>;
  /** Moves prices `n` ticks (default 1). @returns the tick count since start or reset. */
  tick(n?: number): Promise<number>;
  /** Back to the start-up markets, behaviours and rules (rules with `times` get their full count again); the journal is kept. */
  reset(): Promise<void>;
  /** Replaces the global behaviour applied to every market request. */
  setBehaviour(behaviour: Behaviour): Promise<void>;
  /** Adds (or, with the same `id`, replaces) a behaviour rule. @returns the rule as stored. */
  addRule(rule: BehaviourRuleInput): Promise<BehaviourRule>;
  /** Removes a behaviour rule by id. */
  removeRule(ruleId: string): Promise<void>;
  /** Journal entries matching `filter`, oldest first; `filter.limit` keeps the newest N. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** How many journal entries match `filter` (the entries the ring still holds). */
  requestCount(filter?: JournalFilter): Promise<number>;
  /** Empties the journal. */
  clearRequests(): Promise<void>;
}
