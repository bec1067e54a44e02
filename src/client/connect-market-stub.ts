import { DEFAULT_CLIENT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES, MAX_CLIENT_RESPONSE_BYTES, MAX_CLIENT_TIMEOUT_MS, MIN_CLIENT_RESPONSE_BYTES } from '../floor/limits.js';
import { readHttpUrl } from '../floor/http-url.js';
import { optionError } from '../floor/market-stub-error.js';
import { checkFields, type FieldRule } from '../floor/option-fields.js';
import { int } from '../floor/option-kind.js';
import { LIBRARY_CONTROLS, type MarketStubClient } from '../runtime/control-table.js';
import { createAdminTransport, type AdminTransport } from './admin-transport.js';

/** Options of connectMarketStub; all optional. */
export interface ConnectMarketStubOptions {
  /**
   * The stub's admin token (`--admin-token`, `MARKET_STUB_ADMIN_TOKEN`): sent as
   * `Authorization: Bearer <token>` (RFC 6750 §2.1) to the stub's URL only, never shown in errors.
   */
  adminToken?: string;
  /** Longest wait for one call, ms (connect, answer and body). @default 10000 */
  timeoutMs?: number;
  /** Largest answer read, bytes (a catalog of a million markets is about 200 MB). @default 268435456 (256 MiB) */
  maxResponseBytes?: number;
}


/**
 * connectMarketStub's fields, one check each, held to the interface (`satisfies`). adminToken's kind
 * (`token`) refuses what a header cannot carry unchanged (RFC 9110 §5.5), which fetch would refuse
 * later with a message that shows it; checkFields never shows its value.
 */
const CONNECT_FIELDS = {
  adminToken: { type: 'token' },
  timeoutMs: int(1, MAX_CLIENT_TIMEOUT_MS),
  maxResponseBytes: int(MIN_CLIENT_RESPONSE_BYTES, MAX_CLIENT_RESPONSE_BYTES),
} satisfies Record<keyof ConnectMarketStubOptions, FieldRule>;

/**
 * A client for a stub running elsewhere (another process, a container, a CI service), with the
 * same methods, types and errors as the handle of `startMarketStub` (MarketStubClient), over the
 * admin API under `${url}/__stub` with `fetch`. Nothing is sent until a method is called, so a
 * stub that is not up yet fails the first call, not this one (as WireMock's client does).
 *
 * `url` is the stub's base URL (`http://127.0.0.1:4010`, a container's mapped `http://HOST:PORT`,
 * or a path prefix behind a proxy): http or https, without credentials, query or fragment.
 * @throws MarketStubError OPTION_INVALID (where `connectMarketStub`) for a bad URL or option.
 */
export function connectMarketStub(url: string, options: ConnectMarketStubOptions = {}): MarketStubClient {
  const { base, send } = connectAdminApi(url, options);
  return Object.freeze(remoteMethods(base, send));
}

/**
 * What connectMarketStub is made of: the stub's base URL and the transport to its admin API, after
 * the same checks (URL, options). The MCP server (src/mcp/) sends every control-table row through it,
 * the rows that are no MarketStubClient method too.
 * @throws MarketStubError OPTION_INVALID (where `connectMarketStub`) for a bad URL or option.
 */
export function connectAdminApi(url: string, options: ConnectMarketStubOptions = {}): { base: string; send: AdminTransport } {
  const base = checkBaseUrl(url);
  checkConnectOptions(options);
  const send = createAdminTransport({
    base,
    adminToken: options.adminToken,
    timeoutMs: options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  });
  return { base, send };
}

/** The MarketStubClient methods over the transport: one per library row of the control table, each named `stub.<method>` in errors like the in-process handle's. */
function remoteMethods(base: string, send: AdminTransport): MarketStubClient {
  const methods: Record<string, unknown> = { url: base };
  for (const { name, library } of LIBRARY_CONTROLS) {
    const where = `stub.${name}`;
    methods[name] = async (...args: unknown[]): Promise<unknown> => library.read(where, await send(where, library.send(where, ...args)));
  }
  return methods as unknown as MarketStubClient;
}

/** The base URL without a trailing slash. @throws MarketStubError OPTION_INVALID */
function checkBaseUrl(url: unknown): string {
  const read = readHttpUrl(typeof url === 'string' ? url : undefined);
  if (!read.ok) {
    const expected = `the base URL of a stub: ${read.expected}, such as http://127.0.0.1:4010`;
    throw optionError('connectMarketStub', 'url', read.secret ? `${expected}; pass the token as adminToken` : expected, read.secret ? '(a URL with credentials, not shown)' : url);
  }
  const parsed = read.url;
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** @throws MarketStubError OPTION_INVALID naming the option (floor/option-fields.ts checkFields); never shows the token. */
function checkConnectOptions(options: unknown): void {
  checkFields(options, CONNECT_FIELDS, 'connectMarketStub');
}
