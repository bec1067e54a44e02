// market-stub/fetch: the stub as a Fetch handler `(Request) => Promise<Response>` for Bun
// (`Bun.serve({ fetch })`), Deno (`Deno.serve`), Workers-style runtimes (`export default { fetch }`)
// and Fetch-API framework routes (docs/fetch.md). Web-standard values only; no side effects at import.
export { createFetchHandler, type MarketStubFetchHandler } from './fetch/fetch-handler.js';
export type { FetchHandlerOptions } from './fetch/fetch-options.js';
export * from './handler-exports.js';
