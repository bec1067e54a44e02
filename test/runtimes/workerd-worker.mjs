// market-stub/fetch as a module worker for workerd (Cloudflare's Workers runtime), with no Node
// compatibility flag: web-standard values only. scripts/test-runtimes.mjs bundles it with the
// package, writes the workerd config (a socket on 127.0.0.1 and the text binding
// MARKET_STUB_FETCH_OPTIONS, JSON: the options of createFetchHandler) and compares what it answers
// with `market-stub serve`. The handler is made on the first request: a worker's global scope may
// not generate random values or start timers.
import { createFetchHandler } from 'market-stub/fetch';

let stub;
export default {
  fetch(request, env) {
    stub ??= createFetchHandler(JSON.parse(env.MARKET_STUB_FETCH_OPTIONS));
    return stub.fetch(request);
  },
};
