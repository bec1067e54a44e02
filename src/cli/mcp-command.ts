import { MCP_OPTIONS, type McpValues } from '../options/tables/mcp-options.js';
import type { CommandSpec } from './command-spec.js';

/** `market-stub mcp`: options as data (MCP_OPTIONS: --url and serve's rows), run loaded on use (run-mcp.ts; the MCP SDK from node_modules, the check tool with the crawl commands). */
export const mcpCommand: CommandSpec<McpValues> = {
  name: 'mcp',
  describe: 'Serve the Model Context Protocol on stdin/stdout: tools for a coding assistant to drive a stub (docs/mcp.md)',
  options: MCP_OPTIONS,
  examples: [
    ['$0 mcp --port 0 --seed 7', 'start a stub on a free port and serve its controls as MCP tools'],
    ['$0 mcp --url http://127.0.0.1:4010 --admin-token "$TOKEN"', 'the tools of a stub that runs already'],
  ],
  load: async () => ({ run: (await import('./run-mcp.js')).runMcp }),
};
