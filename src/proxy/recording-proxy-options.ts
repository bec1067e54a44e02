import type { ContractFinding } from '../contract/checks/index.js';
import type { MarketSpool } from '../contract/fixture-sets/index.js';
import type { OutgoingNetwork } from '../contract/http-client/index.js';

/** Options of the recording proxy; only `upstream` is required. */
export interface RecordingProxyOptions {
  /** The real deployment's base URL; a request for `/x` is forwarded to `{upstream}/x`. */
  upstream: string | URL;
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Time limit for the upstream's answer, in ms; past it the client gets a 504. @default 30000 */
  timeoutMs?: number;
  /** How long close() lets exchanges in flight finish, in ms (SIGTERM). @default 10000 */
  graceMs?: number;
  /** Largest body checked, decompressed, in MiB; a larger one is passed on unchecked with an error finding. @default 64 */
  maxBodyMb?: number;
  /** Warnings fail the summary too. @default false */
  strict?: boolean;
  /** Today's date YYYY-MM-DD (UTC) for the past-resolution-date rule. @default today */
  today?: string;
  /**
   * Where valid markets seen on `GET /markets/{market_id}` are kept (the latest answer per id), for
   * `--record`; without it the proxy keeps no market at all. Typically a fixture set's staging spool.
   */
  spool?: MarketSpool;
  /**
   * Called for each finding of each checked response, as it happens (credentials redacted): errors
   * and warnings every time, information the first time it is seen.
   */
  onFinding?: (finding: ContractFinding) => void;
  /** Called once per forwarded request, after the answer was passed on. */
  onExchange?: (exchange: { method: string; path: string; status: number; ms: number; checked: boolean }) => void;
  /** Called when the upstream gives no answer (the client gets 502 or 504). */
  onUpstreamError?: (error: { method: string; path: string; reason: string }) => void;
  /** Called when a kept market cannot be written to `spool` (the report is still written). */
  onSpoolError?: (error: unknown) => void;
  /** Request header names whose values are redacted besides the defaults (floor/secret-names.ts, and any name saying auth, token, key…). */
  redactHeaders?: readonly string[];
  /** Query parameter names whose values are redacted besides the defaults (token, api_key, signature…). */
  redactQuery?: readonly string[];
  /** Forward proxy (or `proxyEnv`'s HTTP_PROXY/HTTPS_PROXY/NO_PROXY) and client certificate for the upstream (docs/networks.md). @default direct */
  network?: OutgoingNetwork;
}
