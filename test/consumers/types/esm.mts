// Uses the documented surface with its types, as an ESM consumer (import condition).
import { buildCatalog, createApp, MarketStubError, startMarketStub, type JournalEntry, type Market, type MarketStub, type MarketStubOptions } from 'market-stub';

const options: MarketStubOptions = { seed: 7, count: 5, clock: '2026-01-01', logger: console };
const stub: MarketStub = await startMarketStub(options);
await stub.setBehaviour({ status: 503, retryAfter: 2 });
await stub.addRule({ match: { route: 'item' }, behaviour: { status: 503 } });
const entries: JournalEntry[] = await stub.requests({ path: '/markets', limit: 10 });
const count: number = await stub.requestCount({ status: 503 });
const markets: Market[] = await stub.catalog();
await stub.close();

// createApp gives a request listener: anything taking (req, res) accepts it.
const listener: (req: never, res: never) => void = createApp({ catalog: await buildCatalog({ seed: 1, count: 2, clock: '2026-01-01' }) });

try {
  await startMarketStub({ clock: '2026-13-01' });
} catch (error) {
  if (error instanceof MarketStubError) console.log(error.code, error.option, error.expected, error.found);
}

// @ts-expect-error route is 'list' or 'item'
await stub.addRule({ match: { route: 'items' }, behaviour: { status: 503 } });

export { entries, count, markets, listener };
