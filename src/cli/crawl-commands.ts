// The commands that reach a deployment (check, record, proxy, and the MCP check tool) in one module. The build makes it a
// file of its own, dist/cli-crawl.cjs (scripts/build.mjs), so `serve` and `generate` never compile
// the crawl, the checks, the report formats or the recording proxy: a quarter of the CLI's code.
export { runCheck } from './run-watch.js';
export { runRecord } from './run-record.js';
export { runProxy } from './run-proxy.js';
export { boundedCheck } from '../mcp/bounded-check.js';
