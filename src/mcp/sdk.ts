// The parts of the official MCP SDK (@modelcontextprotocol/sdk) market-stub uses, in one module that
// only `market-stub mcp` and `serve --mcp-http on` load, with import() (mcp-server.ts, mcp-http.ts,
// cli/run-mcp.ts, cli/run-serve.ts): the built CLI requires
// the SDK from node_modules then (scripts/build.mjs LAZY_CLI_DEPENDENCIES), and the Python package's
// CLI carries it as one file of its own, deps/mcp-sdk.cjs (scripts/build-python.mjs).
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, ErrorCode, JSONRPCMessageSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
