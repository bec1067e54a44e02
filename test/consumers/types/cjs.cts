// The same surface as a CommonJS consumer (require condition: index.d.cts).
import { startMarketStub, type MarketStub } from 'market-stub';
import marketStub = require('market-stub');

export async function start(): Promise<MarketStub> {
  const stub = await startMarketStub({ seed: 1, count: 3 });
  await stub.setBehaviour({ status: 503 });
  return stub;
}

export const startThroughRequire: typeof marketStub.startMarketStub = marketStub.startMarketStub;
