// market-stub/fetch served by Deno's own server (Deno.serve) on 127.0.0.1, with no permission but
// the network on loopback and the two variables below: the handler needs no file system. Bundled
// with the package by scripts/test-runtimes.mjs, which sets PORT and MARKET_STUB_FETCH_OPTIONS (JSON:
// the options of createFetchHandler) and compares what this answers with `market-stub serve`.
import { createFetchHandler } from 'market-stub/fetch';

const stub = createFetchHandler(JSON.parse(Deno.env.get('MARKET_STUB_FETCH_OPTIONS') ?? '{}'));
Deno.serve({ hostname: '127.0.0.1', port: Number(Deno.env.get('PORT')), onListen: ({ hostname, port }) => console.log(`market-stub/fetch on Deno ${Deno.version.deno} listening on http://${hostname}:${port}`) }, (request) => stub.fetch(request));
