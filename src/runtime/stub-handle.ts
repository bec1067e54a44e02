import type { Behaviour, BehaviourRuleInput } from '../behaviour/behaviour.js';
import type { DeviationSetting } from '../deviation/deviation-settings.js';
import type { JournalFilter } from '../journal/request-journal.js';
import type { MarketStubClient } from './market-stub-client.js';
import type { StubControls } from './stub-controls.js';

/**
 * The handle of a stub in this process (startMarketStub's, the MSW adapter's) at `url`: its control methods, each one the matching StubControls call, named `stub.<method>`
 * in errors and asynchronous like the remote client's (a throw becomes a rejection).
 */
export function createHandle(controls: StubControls, url: string): MarketStubClient {
  const call = <A extends unknown[], R>(method: string, fn: (where: string, ...args: A) => R) =>
    (...args: A): Promise<R> => {
      try {
        return Promise.resolve(fn(`stub.${method}`, ...args));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    };
  return {
    url,
    catalog: call('catalog', (where) => controls.catalog(where)),
    setMarkets: call('setMarkets', (where, markets: readonly unknown[]) => controls.setMarkets(where, markets)),
    putMarket: call('putMarket', (where, market: unknown) => controls.putMarket(where, market)),
    patchMarket: call('patchMarket', (where, marketId: string, patch: Record<string, unknown>) => controls.patchMarket(where, marketId, patch)),
    removeMarket: call('removeMarket', (where, marketId: string) => controls.removeMarket(where, marketId)),
    setDeviations: call('setDeviations', (where, settings: readonly DeviationSetting[]) => controls.setDeviations(where, settings)),
    tick: call('tick', (where, n?: number) => controls.tick(where, n)),
    reset: call('reset', (where) => controls.reset(where)),
    setBehaviour: call('setBehaviour', (where, behaviour: Behaviour) => {
      controls.setBehaviour(where, behaviour);
    }),
    addRule: call('addRule', (where, rule: BehaviourRuleInput) => controls.addRule(where, rule)),
    removeRule: call('removeRule', (where, ruleId: string) => controls.removeRule(where, ruleId)),
    requests: call('requests', (where, filter?: JournalFilter) => controls.requests(where, filter)),
    requestCount: call('requestCount', (where, filter?: JournalFilter) => controls.requestCount(where, filter)),
    clearRequests: call('clearRequests', (where) => controls.clearRequests(where)),
  };
}
