/**
 * Every documented limit and default of market-stub, on the floor: option tables, checks and
 * adapters read their bounds here (none imports another room to learn one). Grouped by the room
 * that enforces each (the file named above each group); test/library/one-home.test.ts keeps every exported MAX_/DEFAULT_ here.
 */

// Enforced in behaviour/behaviour.ts
/**
 * Longest a response is held, ms: delay + jitter (after every layer is merged), plus the dribble of
 * a slow body. Each knob is capped on its own too; this caps what they add up to.
 */
export const MAX_HOLD_MS = 600_000;
/**
 * Most behaviour rules in force at once (the start-up rules, `--behaviours`, the config file's
 * `rules`, and rules added at run time): every market request is matched against each rule in
 * turn, so their number bounds the work of every request. More is OPTION_INVALID at start and
 * LIMIT_EXCEEDED for `addRule`.
 */
export const MAX_RULES = 10_000;
/** Largest status a behaviour may answer with (RFC 9110 §15: 599 is the last final status; MIN_STATUS in behaviour.ts is 200). */
export const MAX_STATUS = 599;

// Enforced in catalog/catalog-options.ts
/** Largest generated catalog (markets are made on demand, so a large count costs nothing at start). */
export const MAX_COUNT = 100_000_000;

// Enforced in catalog/generate-markets.ts
/** Largest resolution horizon in days: within two calendar years of the clock date. */
export const MAX_HORIZON_DAYS = 730;

// Enforced in catalog/market-problems.ts
/** Most problems a message lists one per line; the rest are counted in a closing line. */
export const MAX_LISTED_PROBLEMS = 100;

// Enforced in runtime/stub-runtime.ts
/**
 * Largest generated catalog a lifecycle (`--lifecycle generic|kalshi`) runs on: the catalogs whose
 * markets are kept once made (MEMO_LIMIT, catalog/generated-catalog.ts). The list's index
 * (catalog/lifecycle-index.ts) keeps four instants per market (32 bytes), built on the first list
 * read from the markets made, and each new step of the clock counts size/1,024 blocks. Above it
 * the start is refused.
 */
export const MAX_LIFECYCLE_MARKETS = 250_000;

// Enforced in catalog/store-limits.ts
/**
 * Largest catalog whose order can be rebuilt at run time: removing a market visits the whole
 * catalog once, so it is refused above this size (LIMIT_EXCEEDED). Adding, replacing,
 * patching and faulting one market work on any catalog.
 */
export const MAX_EDITABLE = 250_000;
/**
 * Largest catalog whose markets are counted, one by one, for each deviation given to a share of
 * markets (`--deviation NAME=RATE`: the start-up line, `GET /__stub/deviations`): a count visits
 * every market's id once. Above it the count is the rate times the catalog size, marked estimated.
 */
export const MAX_REACH_COUNTED = 10_000;
/** Largest number of markets added at run time on top of the start-up (or last replaced) catalog. */
export const MAX_ADDED_MARKETS = 100_000;

// Enforced in floor/option-kind.ts
/**
 * Longest admin token, characters: it travels in one `Authorization: Bearer …` header, and Node's
 * servers take at most 16 KiB of headers in all (a longer token could never be sent: every admin
 * call would be 431). 1,024 leaves room for the other headers of a call.
 */
export const MAX_TOKEN_LENGTH = 1024;

// Enforced in cli/network-flags.ts
/** Largest certificate, key or CA bundle file read, in bytes (a CA bundle of a few hundred certificates is about 250 KiB). */
export const MAX_TLS_FILE_BYTES = 1_048_576;

// Enforced in client/connect-market-stub.ts
/** Default time limit of one remote call, ms. */
export const DEFAULT_CLIENT_TIMEOUT_MS = 10_000;
/** Default largest answer the remote client reads, bytes (256 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/** Longest `timeoutMs` the remote client takes, ms (one hour). */
export const MAX_CLIENT_TIMEOUT_MS = 3_600_000;
/** Smallest and largest `maxResponseBytes` the remote client takes, bytes (1 KiB, 4 GiB). */
export const MIN_CLIENT_RESPONSE_BYTES = 1024;
export const MAX_CLIENT_RESPONSE_BYTES = 4 * 1024 * 1024 * 1024;

// Enforced in config-file/load-config-file.ts
/** Largest config file read, bytes (1 MiB); a larger one is refused before parsing. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

// Enforced in contract/checks/finding-aggregator.ts
/** How many concrete occurrences an aggregated finding keeps. */
export const MAX_EXAMPLES = 3;

/**
 * Distinct member names one finding counts by name (`undocumented-field`: one finding per endpoint
 * and place, whatever the number of names), each name kept to MAX_FINDING_NAME_CHARS. Occurrences
 * of further names are counted, not named. Reports other than JSON show NAME_SAMPLE of them.
 */
export const MAX_FINDING_NAMES = 100_000;
export const MAX_FINDING_NAME_CHARS = 200;
export const NAME_SAMPLE = 10;

// Enforced in floor/bounded-json.ts
/**
 * Deepest nesting of any JSON document market-stub reads (the outermost array or object is level
 * 1). 64 is far above any real market (a market is 1 level, its documented fields 2) and far below
 * where the recursive code a market meets overflows the stack (JSON.stringify with an indent and
 * structuredClone fail near 5,000 levels on Node 20; ajv, json-merge-patch and pino recurse too).
 */
export const MAX_JSON_DEPTH = 64;
/**
 * Deepest nesting of one market, wherever it comes from (fixture, code, admin API, deployment):
 * MAX_JSON_DEPTH less the two containers a market travels in at most (a list envelope's object and
 * its array, a fixture file's array), so a market accepted anywhere fits every document that
 * carries it: it can be served, listed, exported, journaled, patched and recorded.
 */
export const MAX_MARKET_DEPTH = MAX_JSON_DEPTH - 2;

// Enforced in floor/secret-names.ts
/**
 * Request header fields that carry credentials: RFC 9110 §11.6.2 `Authorization`, §11.7.2
 * `Proxy-Authorization`, RFC 6265 §5.4 `Cookie`, and the API-key and token fields APIs commonly
 * use instead (`X-Api-Key`, `Api-Key`, `X-Auth-Token`, …).
 */
export const DEFAULT_SECRET_HEADERS: readonly string[] = [
  'authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key', 'apikey', 'x-auth-token', 'x-access-token', 'x-amz-security-token', 'x-csrf-token',
];
/**
 * Query parameters that carry credentials: OAuth 2.0 tokens (RFC 6750 §2.3 `access_token`,
 * RFC 6749 `refresh_token`, `client_secret`), API keys (`api_key`, `key`, `auth`, and Azure API
 * Management's `subscription-key`), and signed-URL parameters (AWS SigV4 `X-Amz-Signature`,
 * `X-Amz-Credential`, `X-Amz-Security-Token`; `signature`, `sig`).
 */
export const DEFAULT_SECRET_QUERY: readonly string[] = [
  'token', 'access_token', 'refresh_token', 'id_token', 'api_key', 'apikey', 'api-key', 'key', 'client_secret', 'secret', 'password',
  'signature', 'sig', 'x-amz-signature', 'x-amz-credential', 'x-amz-security-token', 'auth', 'subscription-key',
];

// Enforced in deviation/deviation-settings.ts
/** Most settings one call takes. */
export const MAX_DEVIATION_SETTINGS = 200;
/** Most market ids the settings of one call name in total. */
export const MAX_DEVIATED_MARKET_IDS = 10_000;

// Enforced in file-system/load-fixtures.ts
/** Most `*.json` files a fixture directory may hold. */
export const MAX_FIXTURE_FILES = 10_000;
/** Largest fixture file, bytes; `generate` keeps to it too (validate and serve --fixtures read no larger file). */
export const MAX_FIXTURE_FILE_BYTES = 64 * 1024 * 1024;

// Enforced in http/admin/console-assets.ts
/** Largest console asset served, bytes; a bigger file in dist/console is refused, never read whole. */
export const MAX_CONSOLE_ASSET_BYTES = 256 * 1024;

// Enforced in http/server.ts
/** Default time close() gives requests already received (delayed ones included) before answering them 503, ms. */
export const DEFAULT_GRACE_MS = 5_000;
/** Longest grace a caller may ask for, ms. */
export const MAX_GRACE_MS = 600_000;

// Enforced in journal/request-journal.ts
/** Largest journal, in entries (`journalSize`, `--journal-size`): a full scan of it stays a few milliseconds, so reads never stall the server. */
export const MAX_JOURNAL_ENTRIES = 100_000;
/** Default and largest bound of the bytes a journal holds (entries are dropped oldest first past it). */
export const DEFAULT_JOURNAL_BYTES = 32 * 1024 * 1024;
export const MAX_JOURNAL_BYTES = 1024 * 1024 * 1024;
/** Header bytes (names + values) kept per entry; headers past it are dropped and counted in `headersDropped`. */
export const MAX_ENTRY_HEADER_BYTES = 8 * 1024;
/** Most entries one read returns (`limit` defaults to it and may not exceed it). */
export const MAX_JOURNAL_READ = 1_000;
/**
 * Response body bytes an entry keeps for the HAR export (`GET /__stub/requests.har`); a larger
 * body, or a list sent in chunks, is exported with its size and without its text. Counted in
 * the journal's bytes.
 */
export const MAX_JOURNAL_BODY_BYTES = 64 * 1024;

// Enforced in options/tables/serve-options.ts
/** Largest delay or jitter, ms (10 minutes). */
export const MAX_DELAY_MS = 600_000;

// Enforced in proxy/recording-proxy.ts
/** The recording proxy's numeric options: default and inclusive bounds of each (startRecordingProxy and `market-stub proxy`'s rows read them here). */
export const PROXY_OPTION_BOUNDS = {
  timeoutMs: { default: 30_000, min: 1, max: 600_000 },
  graceMs: { default: 10_000, min: 0, max: 600_000 },
  maxBodyMb: { default: 64, min: 1, max: 4096 },
} as const;

// Enforced in runtime/admin/admin-api.ts
/** Admin requests being read or waiting for their turn at once; more are answered 503 at once. */
export const MAX_ADMIN_IN_FLIGHT = 8;

// Enforced in runtime/admin/admin-body.ts
/**
 * Largest admin request body, bytes (about 1,400 markets); refused with 413 while it is read. Kept
 * small so that parsing and validating one body stays a few milliseconds: the market routes and
 * /healthz keep answering within 50 ms p99 while the admin API is abused (README, reliability).
 */
export const MAX_ADMIN_BODY_BYTES = 256 * 1024;

// Enforced in runtime/stub-controls.ts
/** Most markets one setMarkets call (or `PUT /__stub/markets`) takes: it is validated and swapped in at once. */
export const MAX_MARKETS_PER_CALL = 10_000;
/** Largest `n` of one tick call (n price steps of the clock; a tick visits no market). */
export const MAX_TICKS_PER_CALL = 10_000;

// Enforced in mcp/ (mcp-input.ts, mcp-server.ts, bounded-check.ts): market-stub mcp, docs/mcp.md
/**
 * Largest JSON-RPC message `market-stub mcp` reads, bytes (one line on stdin): twice the admin body
 * (MAX_ADMIN_BODY_BYTES) for the envelope and JSON escaping. A longer line is answered with a JSON-RPC
 * error (-32600, id null) and skipped while it is read; the server goes on.
 */
export const MAX_MCP_MESSAGE_BYTES = 512 * 1024;
/** Largest answer one MCP tool call or resource read takes from the stub, bytes; more is a tool error saying to ask for less (a journal filter's limit). */
export const MAX_MCP_RESULT_BYTES = 1024 * 1024;
/** The MCP `check` tool's bounds: list pages followed, markets requested one by one, time per request and for the whole check, ms. */
export const MAX_MCP_CHECK = { pages: 5, markets: 20, requestTimeoutMs: 5_000, totalMs: 30_000 } as const;
/** Time the MCP server waits for one admin API answer of the stub, ms. */
export const MAX_MCP_CALL_MS = 10_000;

// Enforced in mcp/mcp-http.ts: serve --mcp-http on, docs/mcp.md "Over HTTP"
/**
 * MCP sessions one stub holds at once over Streamable HTTP (`POST /__stub/mcp`): an `initialize`
 * past them is answered 503 with a JSON-RPC error and Retry-After; a session ends with DELETE or
 * after MCP_HTTP_IDLE_MS without a request.
 */
export const MAX_MCP_HTTP_SESSIONS = 16;
/** An MCP session over Streamable HTTP with no request for this long is closed (its id then answers 404), ms. */
export const MCP_HTTP_IDLE_MS = 10 * 60_000;

// Enforced in runtime/lagging-list.ts
/** Most list request targets (path and query) `list-lags-items` keeps a rendering of, per stub; all are forgotten when one more comes. */
export const LAGGING_LIST_TARGETS = 64;

// Enforced in catalog/stub-clock.ts and floor/instant.ts
/** The earliest instant a stub clock takes: 1970-01-01T00:00:00Z (epoch ms). */
export const MIN_INSTANT_MS = 0;
/** The latest instant a stub clock takes: 9999-12-31T23:59:59.999Z (epoch ms), the last a four-digit year writes. */
export const MAX_INSTANT_MS = 253_402_300_799_999;
/** Stub time per step of the price walk unless `--price-step` says otherwise: a minute, so real time (`--clock-rate 1`) moves prices about as often as a live venue's. */
export const DEFAULT_PRICE_STEP = 'PT1M';
/** Largest clock rate, stub seconds per real second: a 365-day year a second. */
export const MAX_CLOCK_RATE = 31_536_000;

// Enforced in testcontainers.ts
/** The image started when none is given: what `docker build -f docker/Dockerfile -t market-stub .` tags. */
export const DEFAULT_MARKET_STUB_IMAGE = 'market-stub:latest';
/** Default time for the container to answer GET /healthz, ms. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;

// Enforced in contract/watch/ (watch-tracker.ts, watch-state.ts) and cli/run-watch.ts
/** Markets a watch tracks at most (list order; later ones are counted, not compared): its memory and its state file stay O(this). */
export const MAX_WATCHED_MARKETS = 100_000;
/** Rounds a market absent from a complete list is still remembered, to tell a market that comes back (market-flapped). */
export const WATCH_FORGET_ROUNDS = 20;
/** Rounds whose start instant a watch keeps for evidence (a frozen market's run starts this far back at most with an instant; older evidence carries its round only). */
export const WATCH_INSTANT_ROUNDS = 256;
/** Largest --state file read, bytes (100,000 markets take about 20 MiB). */
export const MAX_WATCH_STATE_BYTES = 64 * 1024 * 1024;
/** Rounds the summary of a watch keeps for its timeline (the HTML report, --format json): the last ones. */
export const MAX_TIMELINE_ROUNDS = 500;
/** Time findings the summary of a watch keeps as examples (the first ones); every one is counted. */
export const MAX_WATCH_FINDINGS_KEPT = 200;
/** Shortest and longest --watch interval, ms. */
export const MIN_WATCH_INTERVAL_MS = 100;
export const MAX_WATCH_INTERVAL_MS = 86_400_000;
// Enforced in contract/http-client/run-cookies.ts (docs/networks.md, "Cookies")
/** Cookies kept at most (RFC 6265 §6.1: a user agent supports at least 50 per domain). */
export const MAX_RUN_COOKIES = 50;
/** Bytes of one `Set-Cookie` field kept at most (RFC 6265 §6.1: at least 4096 per cookie). */
export const MAX_COOKIE_BYTES = 4096;
/** Distinct cookie values redacted at most: the latest ones (a load balancer may rotate its cookie on every answer). */
export const MAX_COOKIE_VALUES = 256;
