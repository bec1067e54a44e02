import type { Logger } from 'pino';
import { buildCatalog } from './catalog/build-catalog.js';
import { todayUtc } from './catalog/market-rules.js';
import type { MarketCatalog } from './catalog/market-catalog.js';
import { createApp } from './http/create-app.js';
import { createRequestHandler, listen } from './server.js';

/** Options of startMarketStub; every field is optional. */
export interface MarketStubOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Seed of the generated catalog. @default 1 */
  seed?: number;
  /** Number of generated markets. @default 100 */
  count?: number;
  /** Clock date YYYY-MM-DD (UTC). @default today (UTC) */
  clock?: string;
  /** Serve this fixture file or directory instead of generated markets. */
  fixtures?: string;
  /** Serve these markets (validated like fixtures) instead of generated ones. */
  markets?: readonly unknown[];
  /** Request log; none when omitted. */
  logger?: Logger;
}

/** A running stub. */
export interface MarketStub {
  /** Base URL with the address actually bound, e.g. `http://127.0.0.1:53111`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** What it serves. */
  readonly catalog: MarketCatalog;
  /** Stops the server; awaits in-flight requests; idempotent. */
  close(): Promise<void>;
}

/**
 * Builds the catalog, then listens; resolves when the stub answers requests.
 * @throws FixtureError when `fixtures` or `markets` are invalid (nothing is bound then);
 *   a Node system error (EADDRINUSE, EACCES) when the port cannot be bound.
 */
export async function startMarketStub(options: MarketStubOptions = {}): Promise<MarketStub> {
  const catalog = await buildCatalog({
    fixtures: options.fixtures,
    markets: options.markets,
    seed: options.seed ?? 1,
    count: options.count ?? 100,
    clock: options.clock ?? todayUtc(),
  });
  const app = createApp({ catalog });
  const handler = createRequestHandler({ app, catalog, ...(options.logger ? { logger: options.logger } : {}) });
  const running = await listen(handler, { port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  return { url: running.url, port: running.port, host: running.host, catalog, close: () => running.close() };
}
