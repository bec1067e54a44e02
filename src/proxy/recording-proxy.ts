import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Redactor } from '../floor/redact-secrets.js';
import { showValue } from '../floor/market-stub-error.js';
import { int, readTyped } from '../floor/option-kind.js';
import { PROXY_OPTION_BOUNDS } from '../floor/limits.js';
import { listen, type RunningServer } from '../http/server.js';
import { listenFailed } from '../http/listen-failed.js';
import type { ContractReport } from '../contract/checks/index.js';
import { ContractRunError } from '../contract/http-client/index.js';
import { createOutgoingAgent, parseBaseUrl, readBaseQuery, type OutgoingAgent } from '../contract/http-client/index.js';
import { secretNames } from '../floor/secret-names.js';
import { buildReport, createProxyState } from './proxy-state.js';
import { forwardExchange, type ForwardProxy } from './forward-exchange.js';
import type { RecordingProxyOptions } from './recording-proxy-options.js';

export type { RecordingProxyOptions } from './recording-proxy-options.js';

/** A listening proxy. */
export interface RecordingProxy {
  /** `http://ADDRESS:PORT` with the address actually bound. */
  readonly url: string;
  readonly port: number;
  /** The summary so far: the same report shape as `check` (command `proxy`), credentials redacted. */
  report(): ContractReport;
  /** The ids listed so far, in list order (record order for the spool). */
  listedIds(): string[];
  /** Redacts every credential the proxy has seen (for the caller's own sinks: log lines, files). */
  redactor(): Redactor;
  /** Stops accepting, lets in-flight exchanges finish (up to graceMs), then closes; idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a pass-through proxy in front of a real deployment for a client's own test run.
 *
 * Every request is forwarded with its method, path, query, headers (minus hop-by-hop ones and
 * `Host`) and body, to the upstream's origin only; the answer's status, headers (minus hop-by-hop)
 * and body bytes are passed back unchanged, with backpressure per exchange. Answers to
 * `GET /markets` and `GET /markets/{market_id}` are checked while they stream with the checks of
 * `market-stub check` (exchange-checker.ts); other paths pass through unchecked. An upstream that
 * gives no answer gets the client a 502/504 (http/error-reply.ts) and counts as a `request-failed`
 * error finding. Credentials the clients send are redacted from every finding, log callback and
 * report. The proxy listens through server.ts's listen() (one lifecycle with the stub).
 * @throws ContractRunError OPTION_INVALID for a bad upstream URL or option; MarketStubError
 *   LISTEN_FAILED (http/listen-failed.ts, as startMarketStub) when the port or host cannot be bound.
 */
export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const upstream = parseBaseUrl(options.upstream, '--upstream', 'proxy');
  const timeoutMs = integerOption(options.timeoutMs, 'timeoutMs', '--timeout-ms');
  const graceMs = integerOption(options.graceMs, 'graceMs', '--grace-ms');
  const maxBodyBytes = integerOption(options.maxBodyMb, 'maxBodyMb', '--max-body-mb') * 1_048_576;
  // A key in the upstream URL (`?api_key=K`) goes on every forwarded request, and is redacted everywhere from the start.
  const baseQuery = readBaseQuery(upstream, options.redactQuery);
  const state = createProxyState(options, baseQuery.secretValues);
  const network = createOutgoingAgent(options.network);
  const agent = upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, ...network.tls }) : new HttpAgent({ keepAlive: true });
  const via = await forwardProxyFor(network, upstream, timeoutMs);
  let closing = false;
  const ctx = {
    options, state, upstream, baseQuery, basePath: upstream.pathname.replace(/\/+$/, ''), names: secretNames(options.redactHeaders, options.redactQuery),
    timeoutMs, maxBodyBytes, via, send: upstream.protocol === 'https:' ? httpsRequest : httpRequest, agent, tls: network.tls, closing: () => closing,
  };
  const port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  const server: RunningServer = await listen((req, res) => forwardExchange(ctx, req, res), { port, host, graceMs }).catch(async (error: unknown) => {
    agent.destroy();
    await via?.dispatcher.close();
    throw listenFailed(error, 'startRecordingProxy', port, host);
  });
  let stopped: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    report: () => state.book.redactor().redactValue(buildReport(state, upstream)),
    listedIds: () => state.listed.ids(),
    redactor: () => state.book.redactor(),
    close() {
      closing = true;
      stopped ??= server.close().then(async () => {
        agent.destroy();
        await via?.dispatcher.close();
        await state.spoolWrites;
      });
      return stopped;
    },
  };
}

/** The forward proxy the upstream is reached through, with undici loaded for it; undefined for a direct upstream (undici then stays unloaded). */
async function forwardProxyFor(network: OutgoingAgent, upstream: URL, timeoutMs: number): Promise<ForwardProxy | undefined> {
  const proxy = network.proxyFor(upstream);
  if (!proxy) return undefined;
  const module = await import('undici');
  // CommonJS: the exports are the default export in the CLI bundle (as in contract/http-client/deployment-client.ts).
  const undici = (module.default ?? module) as unknown as ForwardProxy['undici'];
  return { proxy, undici, dispatcher: network.dispatcher(undici, { connectTimeoutMs: timeoutMs }) };
}

/** A numeric option within its PROXY_OPTION_BOUNDS (floor/limits.ts), or its default. @throws ContractRunError OPTION_INVALID naming the option and its flag. */
function integerOption(value: number | undefined, name: keyof typeof PROXY_OPTION_BOUNDS, flag: string): number {
  const bounds = PROXY_OPTION_BOUNDS[name];
  if (value === undefined) return bounds.default;
  const read = readTyped(int(bounds.min, bounds.max), value);
  if (!read.ok) throw new ContractRunError('OPTION_INVALID', `${name} (${flag}): expected ${read.expected}, found ${showValue(value)}.`, 'startRecordingProxy');
  return value;
}
