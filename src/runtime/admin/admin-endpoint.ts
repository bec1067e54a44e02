import type { StubRequest } from '../answer-request.js';
import type { Reply } from '../reply.js';

/** A request the admin API hands an AdminEndpoint once it passed the admin API's access checks. */
export interface AdminEndpointRequest {
  /** Upper-case method (`POST`). */
  method: string;
  /** Lower-case header names, one value each (a repeated singleton field was refused before); never Authorization or Cookie. */
  headers: Readonly<Record<string, string>>;
  /** The body, read within AdminEndpoint.bodyBytes (POST only; undefined for other methods). */
  body: Uint8Array | undefined;
}

/**
 * The stub's own admin API as a function: a StubRequest whose target is under `/__stub` (with the
 * headers any admin client sends: Authorization when a token is set), answered by the very same
 * routes and checks, without a network round trip. Never rejects.
 */
export type AdminDispatch = (request: StubRequest) => Promise<Reply>;

/**
 * One path under `/__stub` answered by code the edges supply instead of a control-table route
 * (the MCP Streamable HTTP transport, src/mcp/mcp-http.ts, when `serve --mcp-http on`): the
 * platform-neutral core cannot load it (it needs the MCP SDK), so it is injected
 * (StubCoreOptions.adminEndpoint). The admin API applies its access checks first (one of each
 * singleton field, Host, Sec-Fetch-Site, the token, no preflight, no foreign Origin), counts the
 * request among those in flight while its body is read, reads a POST body within `bodyBytes`
 * (413 past it), then calls `answer`, whose Reply it sends with the admin API's headers.
 */
export interface AdminEndpoint {
  /** The path under `/__stub`, such as `/mcp`. */
  path: string;
  /** What `GET /__stub` says of it (its `endpoint` member: `{method, path, describe}`, the method a client starts with). */
  describe: string;
  /** Largest POST body read for it, bytes. */
  bodyBytes: number;
  /**
   * Answers one request. `admin` reaches the stub's own admin routes in process. Rejecting is a bug
   * (answered as any admin bug: a logged 500).
   */
  answer(request: AdminEndpointRequest, admin: AdminDispatch): Promise<Reply>;
}
