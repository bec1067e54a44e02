import { buildCatalog } from './file-system/build-catalog.js';
import { todayUtc } from './floor/market-rules.js';
import { createMemoryCatalogInSlices } from './catalog/memory-catalog-in-slices.js';
import type { GeneratedCatalog } from './catalog/generated-catalog.js';
import { formatWatchRefusal } from './file-system/load-fixtures.js';
import { watchFixtures, type FixtureWatch } from './file-system/watch-fixtures.js';
import { createStubRuntime, type StubRuntime } from './runtime/stub-runtime.js';
import type { StubCoreOptions } from './runtime/stub-core.js';
import { checkStubOptions, type MarketStubOptions } from './stub-options.js';
import type { MarketStubClient } from './runtime/control-table.js';
import { createStubControls } from './runtime/stub-controls.js';
import { createHandle } from './runtime/stub-handle.js';
import { createRequestHandler, listen } from './http/server.js';
import { listenFailed } from './http/listen-failed.js';
import { reachWarnings } from './catalog/deviation-reach.js';
import { isIP } from 'node:net';
import { loadRequestSpans } from './http/request-spans.js';
import { secretNames } from './floor/secret-names.js';
import { packageVersion } from './floor/package-info.js';

export type { MarketStubOptions } from './stub-options.js';


/**
 * A running stub: its address, `close()`, and the runtime controls every stub shares
 * (MarketStubClient: the same methods, types and errors as `connectMarketStub` to a stub in
 * another process or a container).
 */
export interface MarketStub extends MarketStubClient {
  /** Base URL with the address actually bound, e.g. `http://127.0.0.1:53111` (never `localhost`). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /**
   * Stops gracefully and any watcher; idempotent: stops accepting, lets requests already received
   * finish for `shutdownGraceMs` (5 s), answers those still waiting 503, then resolves.
   */
  close(): Promise<void>;
}

/**
 * Checks every option, builds the catalog, then listens; resolves when the stub answers requests.
 * Nothing is bound and nothing runs in the background when it rejects, and nothing started in
 * the background (warm-up, watch) can throw past the stub later.
 * @throws MarketStubError: OPTION_INVALID for a bad option (`startMarketStub: clock: expected a
 *   YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-13-01"`; unknown options too); MARKETS_INVALID or
 *   FIXTURES_UNREADABLE (a FixtureError with every problem) for bad `fixtures` or `markets`;
 *   LISTEN_FAILED when the port or host cannot be bound (the system error is its `cause`).
 */
export async function startMarketStub(options: MarketStubOptions = {}): Promise<MarketStub> {
  return (await launchStub(options)).stub;
}

/** A started stub and its runtime (for the CLI's ready line and log; not part of the public API). */
export interface LaunchedStub {
  stub: MarketStub;
  runtime: StubRuntime;
}

/**
 * startMarketStub, also returning the runtime. Same errors. `serving`: what the CLI adds to the
 * server besides the library's options (an admin endpoint: `serve --mcp-http on`).
 */
export async function launchStub(options: MarketStubOptions = {}, where = 'startMarketStub', serving: Pick<StubCoreOptions, 'adminEndpoint'> = {}): Promise<LaunchedStub> {
  checkStubOptions(options, where);
  const seed = options.seed ?? 1;
  const { port, host = '127.0.0.1', count, clock, fixtures, watch, markets, shutdownGraceMs, ...runtimeOptions } = options;
  const catalog = await buildCatalog({ fixtures, markets, seed, count: count ?? 100, clock: clock ?? todayUtc() });
  // A stub bound to a host name answers the admin API under that name too.
  const allowedHosts = isIP(host) === 0 ? [...(runtimeOptions.allowedHosts ?? []), host] : runtimeOptions.allowedHosts;
  const runtime = createStubRuntime({ ...runtimeOptions, ...(allowedHosts ? { allowedHosts } : {}), ...(clock === undefined ? {} : { clock }), catalog, seed }, where);
  runtime.observeExchanges(await loadRequestSpans(secretNames(options.redactHeaders, options.redactQuery), packageVersion(), runtime.warn));
  const running = await listen(createRequestHandler(runtime, serving), {
    port: port ?? 0,
    host,
    ...(shutdownGraceMs === undefined ? {} : { graceMs: shutdownGraceMs }),
    errorShape: runtime.profile.errors,
    onError: runtime.reportError,
  }).catch((error: unknown) => {
    throw listenFailed(error, where, port ?? 0, host);
  });
  if (runtime.admin && runtime.adminToken === undefined && !isLoopback(running.host)) {
    runtime.warn(`the admin API (/__stub) is on without a token and ${running.url} is reachable beyond this machine: anyone who can reach it can replace the markets, inject faults, reset the stub and read the journal. Set an admin token (--admin-token or MARKET_STUB_ADMIN_TOKEN; adminToken in code) or turn the admin API off (--admin off).`);
  }
  for (const warning of reachWarnings(runtime.store.deviationReach())) runtime.warn(warning);
  // Generate the rest of a generated catalog between requests, so later requests find it ready.
  const warming = new AbortController();
  // Warming is an optimisation: a failure is logged and never escapes as an unhandled rejection.
  if ('warm' in catalog && typeof catalog.warm === 'function') {
    (catalog as GeneratedCatalog).warm(warming.signal).catch((error: unknown) => options.logger?.error({ err: error }, 'warming the generated catalog failed; markets are generated on first request instead'));
  }
  let watching: FixtureWatch | undefined;
  if (watch && fixtures !== undefined) {
    const location = fixtures;
    try {
      watching = await watchFixtures(location, {
        onValid: async (loaded) => {
          runtime.store.setBase(await createMemoryCatalogInSlices(loaded, 'fixtures', `fixtures: ${loaded.length} markets from ${location}`));
          options.logger?.info({ count: loaded.length }, `fixtures reloaded: ${loaded.length} markets from ${location}`);
        },
        // A refusal is worth a line even without a request log: the served data is not what is on disk.
        onInvalid: (problems) => runtime.warn(formatWatchRefusal(problems, location)),
      });
    } catch (error) {
      await running.close();
      throw error;
    }
  }
  const stub = createHandle(createStubControls(runtime), running.url);
  let closing: Promise<void> | undefined;
  return {
    stub: Object.freeze({
      ...stub,
      port: running.port,
      host: running.host,
      close: () => {
        closing ??= (async () => {
          warming.abort();
          await watching?.close();
          await running.close();
        })();
        return closing;
      },
    }),
    runtime,
  };
}

/** Whether a bound address is loopback only (127.0.0.0/8, ::1, ::ffff:127.x). */
function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
