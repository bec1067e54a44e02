import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { todayUtc } from '../core/market-rules.js';
import { createRedactor, type Redactor } from '../core/redact-secrets.js';
import { errorReply } from '../runtime/error-reply.js';
import { writeReply } from '../http/write-reply.js';
import { listen, type RunningServer } from '../http/server.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT, type ContractEndpoint, type ContractFinding, type Observation } from '../contract/index.js';
import { buildContractReport, type ContractReport, type ListSummary } from '../contract/index.js';
import { ContractRunError } from '../contract/index.js';
import { parseBaseUrl } from '../contract/index.js';
import { displayBase, displayUrl } from '../contract/index.js';
import { createFindingAggregator, type FindingAggregator } from '../contract/index.js';
import { fixtureText } from '../contract/index.js';
import { findNextPage } from '../contract/index.js';
import { ListedMarkets } from '../contract/index.js';
import type { MarketSpool } from '../contract/index.js';
import { buildDistributions, ResponseTimeRecorder } from '../contract/index.js';
import { createExchangeCheck, type CheckOutcome } from './exchange-checker.js';
import { credentialValues, SecretBook } from './proxy-secrets.js';
import { directCall, ProxiedUpstreamRequest, proxiedCall } from './proxied-upstream.js';
import { createOutgoingAgent, type ChosenProxy, type OutgoingAgent, type OutgoingNetwork } from '../contract/index.js';
import type * as UndiciModule from 'undici';
import type { Dispatcher } from 'undici';
import { secretNames } from '../core/secret-names.js';

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
  /** Request header names whose values are redacted besides the defaults (core/secret-names.ts, and any name saying auth, token, key…). */
  redactHeaders?: readonly string[];
  /** Query parameter names whose values are redacted besides the defaults (token, api_key, signature…). */
  redactQuery?: readonly string[];
  /** Forward proxy (or `proxyEnv`'s HTTP_PROXY/HTTPS_PROXY/NO_PROXY) and client certificate for the upstream (docs/networks.md). @default direct */
  network?: OutgoingNetwork;
}

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

/** Hop-by-hop fields a proxy must not forward (RFC 9110 §7.6.1), plus those named in Connection. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authenticate', 'proxy-authorization']);

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
 * @throws ContractRunError OPTION_INVALID for a bad upstream URL or option; a Node system error
 *   (EADDRINUSE) when the port cannot be bound.
 */
export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const upstream = parseBaseUrl(options.upstream, '--upstream');
  const timeoutMs = integerOption(options.timeoutMs, 30_000, 1, 600_000, 'timeoutMs (--timeout-ms)');
  const graceMs = integerOption(options.graceMs, 10_000, 0, 600_000, 'graceMs (--grace-ms)');
  const maxBodyBytes = integerOption(options.maxBodyMb, 64, 1, 4096, 'maxBodyMb (--max-body-mb)') * 1_048_576;
  const state = createProxyState(options);
  const names = secretNames(options.redactHeaders, options.redactQuery);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const network = createOutgoingAgent(options.network);
  const agent = upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, ...network.tls }) : new HttpAgent({ keepAlive: true });
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const via = await forwardProxyFor(network, upstream, timeoutMs);
  let closing = false;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const method = req.method ?? 'GET';
    const checked = method === 'GET' && isMarketsPath(path);
    const endpoint: ContractEndpoint = !isMarketsPath(path) ? 'deployment' : singleMarketId(path) === undefined ? LIST_ENDPOINT : SINGLE_ENDPOINT;
    const credentials = credentialValues(req.rawHeaders, rawUrl, names);
    state.book.add(credentials);
    const exchange = exchangeSink(state, credentials);
    let failedOnce = false;
    const failed = (reason: string) => {
      if (failedOnce) return;
      failedOnce = true;
      upstreamFailed(state, exchange, method, rawUrl, endpoint, reason);
    };
    const target = new URL(`${basePath}${path}${q === -1 ? '' : rawUrl.slice(q)}`, upstream.origin);
    const headers = forwardHeaders(req.rawHeaders, target.host);
    const outgoing = via ? proxiedCall(new ProxiedUpstreamRequest(via.undici, via.dispatcher, target, method, headers, via.proxy)) : directCall(send(target, { method, headers, agent }));
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms (--timeout-ms)`), { code: 'ETIMEDOUT' })));
    res.once('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    outgoing.onError((error: NodeJS.ErrnoException) => {
      const timedOut = error.code === 'ETIMEDOUT';
      const reason = timedOut ? error.message : `${error.message}${error.code && !error.message.includes(error.code) ? ` (${error.code})` : ''}`;
      failed(reason);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const reply = errorReply('default', timedOut ? 504 : 502, timedOut ? 'upstream_timeout' : 'upstream_unreachable', `market-stub proxy: ${displayUrl(upstream)} gave no answer (${reason}).`);
      if (closing) reply.headers['connection'] = 'close';
      writeReply(res, reply);
    });
    outgoing.onResponse((answer) => {
      const status = answer.statusCode ?? 502;
      const headers = withoutHopByHop(answer.rawHeaders);
      if (closing) headers.push('Connection', 'close');
      res.writeHead(status, answer.statusMessage, headers);
      const check = checked ? createExchangeCheck({
        request: rawUrl, marketId: singleMarketId(path), status, contentType: answer.headers['content-type'], contentEncoding: answer.headers['content-encoding'],
      }, { sink: exchange.sink, today: state.today }, state.listed, maxBodyBytes, exchange.redactor) : undefined;
      answer.on('data', (chunk: Buffer) => {
        check?.write(chunk);
        if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.once('aborted', () => {
        check?.abort();
        failed('the upstream closed the connection before the body was complete');
        res.destroy();
      });
      answer.once('end', () => {
        res.end();
        const ms = performance.now() - started;
        if (!check) {
          options.onExchange?.({ method, path: rawUrl, status, ms, checked });
          return;
        }
        void check.end().then((outcome) => {
          recordOutcome(state, outcome, path, rawUrl, answer.headers['link'], ms);
          exchange.flush();
          options.onExchange?.({ method, path: rawUrl, status, ms, checked });
        }).catch((error: unknown) => options.onSpoolError?.(error));
      });
    });
    req.pipe(outgoing.sink);
  };

  const server: RunningServer = await listen(handle, { port: options.port ?? 0, host: options.host ?? '127.0.0.1', graceMs });
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

/** What the proxy keeps between exchanges: the aggregated findings, the compact listing, counters. */
interface ProxyState {
  options: RecordingProxyOptions;
  today: string;
  sink: FindingAggregator;
  listed: ListedMarkets;
  book: SecretBook;
  loggedInfo: Set<string>;
  list: ListSummary;
  singles: number;
  responses: number;
  listMs: number;
  marketsMs: number;
  times: ResponseTimeRecorder;
  startedAt: Date;
  start: number;
  /** Writes to the spool not yet done (awaited by close). */
  spoolWrites: Promise<void>;
}

function createProxyState(options: RecordingProxyOptions): ProxyState {
  return {
    options, today: options.today ?? todayUtc(), sink: createFindingAggregator(), listed: new ListedMarkets(), book: new SecretBook(), loggedInfo: new Set(),
    list: { shape: 'unavailable', pages: 0, paging: 'none', complete: true }, singles: 0, responses: 0, listMs: 0, marketsMs: 0, times: new ResponseTimeRecorder(),
    startedAt: new Date(), start: performance.now(), spoolWrites: Promise.resolve(),
  };
}

/**
 * The findings of one exchange: redacted with that request's own credentials before they reach
 * the proxy's findings, then passed to onFinding (errors and warnings each time, information once).
 */
function exchangeSink(state: ProxyState, credentials: readonly string[]): { sink: FindingAggregator; redactor: Redactor; flush(): void } {
  const redactor = createRedactor(credentials);
  const local = createFindingAggregator();
  const sink: FindingAggregator = {
    add(observation: Observation, count?: number) {
      const clean = redactor.active ? redactor.redactValue(observation) : observation;
      state.sink.add(clean, count);
      local.add(clean, count);
    },
    merge(finding) {
      const clean = redactor.active ? redactor.redactValue(finding) : finding;
      state.sink.merge(clean);
      local.merge(clean);
    },
    get size() {
      return local.size;
    },
    findings: () => local.findings(),
  };
  return {
    sink,
    redactor,
    flush() {
      const book = state.book.redactor();
      for (const finding of local.findings()) {
        if (finding.severity === 'info') {
          const key = `${finding.code} ${finding.endpoint} ${finding.pointer}`;
          if (state.loggedInfo.has(key)) continue;
          if (state.loggedInfo.size < 10_000) state.loggedInfo.add(key);
        }
        state.options.onFinding?.(book.redactValue(finding));
      }
    },
  };
}

/** Counts a checked answer: the list's shape and paging, a single market kept for --record. */
function recordOutcome(state: ProxyState, outcome: CheckOutcome, path: string, rawUrl: string, link: string | string[] | undefined, ms: number): void {
  state.responses++;
  if (singleMarketId(path) === undefined) {
    state.list.pages++;
    state.listMs += ms;
    state.times.record(LIST_ENDPOINT, ms);
    const page = outcome.page;
    if (page && state.list.shape === 'unavailable') {
      state.list.shape = page.shape.kind;
      if (page.shape.kind === 'envelope') state.list.envelopeKey = page.shape.key;
    }
    const next = page ? findNextPage(page.body, page.shape, Array.isArray(link) ? link.join(', ') : (link ?? null), new URL(rawUrl, 'http://proxy.invalid')) : undefined;
    if (next && state.list.paging === 'none') state.list.paging = next.via;
    return;
  }
  state.singles++;
  state.marketsMs += ms;
  state.times.record(SINGLE_ENDPOINT, ms);
  const market = outcome.market;
  const spool = state.options.spool;
  if (!market || !spool) return;
  if (state.book.redactor().contains(JSON.stringify(market))) return;
  state.spoolWrites = state.spoolWrites.then(() => spool.put(market.market_id, fixtureText(market))).catch((error: unknown) => state.options.onSpoolError?.(error));
}

/** An upstream without an answer: the client got 502/504; an error finding counts every one. */
function upstreamFailed(state: ProxyState, exchange: ReturnType<typeof exchangeSink>, method: string, rawUrl: string, endpoint: ContractEndpoint, reason: string): void {
  exchange.sink.add({ severity: 'error', code: 'request-failed', endpoint, pointerTemplate: '', expected: 'an answer from the upstream', example: { pointer: '', found: `${method}: ${reason}`, request: rawUrl } });
  state.options.onUpstreamError?.({ method, path: exchange.redactor.redact(rawUrl), reason });
}

function buildReport(state: ProxyState, upstream: URL): ContractReport {
  return buildContractReport({
    command: 'proxy',
    baseUrl: displayBase(upstream),
    startedAt: state.startedAt,
    durationMs: performance.now() - state.start,
    timing: { listMs: state.listMs, marketsMs: state.marketsMs },
    strict: state.options.strict ?? false,
    list: { ...state.list },
    findings: state.sink.findings(),
    distributions: buildDistributions(state.listed.pricePairs(), state.times),
    marketsListed: state.listed.size,
    marketsChecked: state.singles,
    requests: state.responses,
  });
}

/** The routes checked: `/markets`, `/markets/`, `/markets/{id}` (relative to the proxy's root). */
function isMarketsPath(path: string): boolean {
  return path === '/markets' || path === '/markets/' || /^\/markets\/[^/]+$/.test(path);
}

/** The percent-decoded id of a `/markets/{id}` path, or undefined for the list (or a malformed id). */
function singleMarketId(path: string): string | undefined {
  const m = /^\/markets\/([^/]+)$/.exec(path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1] ?? '');
  } catch {
    return m[1];
  }
}

/** Request headers to forward: all but hop-by-hop ones and Host (set to the upstream's). */
function forwardHeaders(raw: readonly string[], upstreamHost: string): string[] {
  const kept = withoutHopByHop(raw);
  const pairs: string[] = [];
  for (let i = 0; i + 1 < kept.length; i += 2) {
    if ((kept[i] ?? '').toLowerCase() === 'host') continue;
    pairs.push(kept[i] ?? '', kept[i + 1] ?? '');
  }
  pairs.push('Host', upstreamHost);
  return pairs;
}

function withoutHopByHop(raw: readonly string[]): string[] {
  const named = new Set(HOP_BY_HOP);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if ((raw[i] ?? '').toLowerCase() === 'connection') for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (named.has((raw[i] ?? '').toLowerCase())) continue;
    out.push(raw[i] ?? '', raw[i + 1] ?? '');
  }
  return out;
}

/** The forward proxy the upstream is reached through, with undici loaded for it; undefined for a direct upstream (undici then stays unloaded). */
async function forwardProxyFor(network: OutgoingAgent, upstream: URL, timeoutMs: number): Promise<{ proxy: ChosenProxy; undici: typeof UndiciModule; dispatcher: Dispatcher } | undefined> {
  const proxy = network.proxyFor(upstream);
  if (!proxy) return undefined;
  const module = await import('undici');
  // CommonJS: the exports are the default export in the CLI bundle (as in contract/deployment-client.ts).
  const undici = (module.default ?? module) as unknown as typeof UndiciModule;
  return { proxy, undici, dispatcher: network.dispatcher(undici, { connectTimeoutMs: timeoutMs }) };
}

function integerOption(value: number | undefined, fallback: number, min: number, max: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new ContractRunError('OPTION_INVALID', `${name} must be an integer from ${min} to ${max}, found ${JSON.stringify(value)}.`, 'startRecordingProxy');
  return value;
}
