import { buildCatalog } from './catalog/build-catalog.js';
import { todayUtc } from './core/market-rules.js';
import { createMemoryCatalog, type MarketCatalog } from './catalog/market-catalog.js';
import type { GeneratedCatalog } from './catalog/generated-catalog.js';
import { formatFixtureProblems } from './catalog/load-fixtures.js';
import type { DomainFault } from './catalog/market-store.js';
import { watchFixtures } from './catalog/watch-fixtures.js';
import type { Behaviour, BehaviourRule, BehaviourRuleInput } from './behaviour/behaviour.js';
import type { JournalEntry, JournalFilter } from './journal/request-journal.js';
import { createApp } from './http/create-app.js';
import { createStubRuntime, type RuntimeOptions, type StubRuntime } from './http/stub-runtime.js';
import type { Market } from './schema/market-types.js';
import { createRequestHandler, listen } from './server.js';

/**
 * Options of startMarketStub; every field is optional. Besides these, the runtime options apply
 * (see RuntimeOptions): `profile`, `behaviour`, `rules`, `globalFaults`, `journalSize`, `cors`,
 * `admin`, `adminToken`, `logger`, `seed` (which also seeds the generated catalog).
 */
export interface MarketStubOptions extends Omit<RuntimeOptions, 'catalog'> {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Number of generated markets. @default 100 */
  count?: number;
  /** Clock date YYYY-MM-DD (UTC). @default today (UTC) */
  clock?: string;
  /** Serve this fixture file or directory instead of generated markets. */
  fixtures?: string;
  /** With `fixtures`: reload on change; keep the old data (and log findings) when the new is invalid. */
  watch?: boolean;
  /** Serve these markets (validated like fixtures) instead of generated ones. */
  markets?: readonly unknown[];
}

/** A running stub and its runtime controls (the admin API, as methods). */
export interface MarketStub {
  /** Base URL with the address actually bound, e.g. `http://127.0.0.1:53111` (never `localhost`). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** What the endpoints serve right now. */
  readonly catalog: MarketCatalog;
  readonly runtime: StubRuntime;
  /** Replaces every market. @throws FixtureError (nothing changes) when any is invalid. */
  setMarkets(markets: readonly unknown[]): void;
  /** Adds or replaces one market. @throws FixtureError when invalid. */
  putMarket(market: unknown): 'created' | 'replaced';
  /** RFC 7396 merge patch of one market. @returns undefined for an unknown id. @throws FixtureError */
  patchMarket(marketId: string, patch: Record<string, unknown>): Market | undefined;
  removeMarket(marketId: string): boolean;
  /** Domain faults of one market (`[]` clears). */
  setMarketFaults(marketId: string, faults: readonly DomainFault[]): void;
  /** Moves prices `n` ticks. @returns the tick count. */
  tick(n?: number): number;
  /** Start-up markets and behaviours again (the journal is kept). */
  reset(): void;
  /** Behaviour for every market request. @throws BehaviourError */
  setBehaviour(behaviour: Behaviour): void;
  /** @throws BehaviourError */
  addRule(rule: BehaviourRuleInput): BehaviourRule;
  removeRule(id: string): boolean;
  /** Journal entries matching `filter`, oldest first (WireMock's verify). */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  requestCount(filter?: JournalFilter): number;
  clearRequests(): void;
  /** Stops the server (in-flight requests finish) and any watcher; idempotent. */
  close(): Promise<void>;
}

/**
 * Builds the catalog, then listens; resolves when the stub answers requests.
 * @throws FixtureError when `fixtures` or `markets` are invalid (nothing is bound then);
 *   RangeError/BehaviourError for a bad profile or behaviour; a Node system error (EADDRINUSE,
 *   EACCES) when the port cannot be bound.
 */
export async function startMarketStub(options: MarketStubOptions = {}): Promise<MarketStub> {
  const seed = options.seed ?? 1;
  const { port, host, count, clock, fixtures, watch, markets, ...runtimeOptions } = options;
  const catalog = await buildCatalog({ fixtures, markets, seed, count: count ?? 100, clock: clock ?? todayUtc() });
  const runtime = createStubRuntime({ ...runtimeOptions, catalog, seed });
  const running = await listen(createRequestHandler({ createApp: () => createApp({ runtime }), runtime }), { port: port ?? 0, host: host ?? '127.0.0.1' });
  // Generate the rest of a generated catalog between requests, so later requests find it ready.
  const warming = new AbortController();
  if ('warm' in catalog && typeof catalog.warm === 'function') void (catalog as GeneratedCatalog).warm(warming.signal);
  let unwatch: (() => void) | undefined;
  if (watch && fixtures !== undefined) {
    const location = fixtures;
    unwatch = watchFixtures(location, {
      onValid: (markets) => {
        runtime.store.setBase(createMemoryCatalog(markets, 'fixtures', `fixtures: ${markets.length} markets from ${location}`));
        options.logger?.info({ count: markets.length }, `fixtures reloaded: ${markets.length} markets from ${location}`);
      },
      onInvalid: (problems) => options.logger?.warn({ problems: problems.length }, `fixtures changed but are invalid; still serving the previous data. ${formatFixtureProblems(problems, location)}`),
    });
  }
  const store = runtime.store;
  return {
    url: running.url, port: running.port, host: running.host, runtime,
    get catalog() {
      return store.current();
    },
    setMarkets: (markets) => store.replace(markets),
    putMarket: (market) => store.put(market),
    patchMarket: (id, patch) => store.patch(id, patch),
    removeMarket: (id) => store.remove(id),
    setMarketFaults: (id, faults) => store.setFaults(id, faults),
    tick: (n) => store.tick(n),
    reset: () => {
      store.reset();
      runtime.behaviours.reset();
    },
    setBehaviour: (b) => runtime.behaviours.setGlobal(b),
    addRule: (rule) => runtime.behaviours.addRule(rule),
    removeRule: (id) => runtime.behaviours.removeRule(id),
    requests: (filter) => Promise.resolve(runtime.journal.list(filter)),
    requestCount: (filter) => runtime.journal.count(filter),
    clearRequests: () => runtime.journal.clear(),
    close: async () => {
      warming.abort();
      unwatch?.();
      await running.close();
    },
  };
}
