// market-stub/fetch served by Bun's own server (Bun.serve) on 127.0.0.1. Bundled with the package
// by scripts/test-runtimes.mjs, which sets PORT and MARKET_STUB_FETCH_OPTIONS (JSON: the options of
// createFetchHandler) and compares what this answers with `market-stub serve`.
import { createFetchHandler } from 'market-stub/fetch';

const stub = createFetchHandler(JSON.parse(Bun.env.MARKET_STUB_FETCH_OPTIONS ?? '{}'));
const server = Bun.serve({ hostname: '127.0.0.1', port: Number(Bun.env.PORT), fetch: (request) => stub.fetch(request) });
console.log(`market-stub/fetch on Bun ${Bun.version} listening on ${server.url}`);
