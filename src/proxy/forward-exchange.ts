import type { Agent as HttpAgent, IncomingMessage, ServerResponse, request as httpRequest } from 'node:http';
import type { Dispatcher } from 'undici';
import type * as UndiciModule from 'undici';
import type { SecretNames } from '../floor/secret-names.js';
import { errorReply } from '../runtime/error-reply.js';
import { redactAnswer } from '../floor/redact-secrets.js';
import { writeReply } from '../http/write-reply.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT, type ContractEndpoint } from '../contract/checks/index.js';
import { cookieValues, describeFraming, displayUrl, isFramingRefusal, probeFraming, unaskedTransferCoding, withBaseQuery, type BaseQuery, type ClientTls } from '../contract/http-client/index.js';
import type { ChosenProxy } from '../contract/http-client/index.js';
import { createExchangeCheck } from './exchange-checker.js';
import { credentialValues } from './proxy-secrets.js';
import { directCall, ProxiedUpstreamRequest, proxiedCall, type UpstreamAnswer, type UpstreamCall } from './proxied-upstream.js';
import { exchangeSink, isMarketsPath, recordOutcome, singleMarketId, upstreamFailed, type ProxyState } from './proxy-state.js';
import type { RecordingProxyOptions } from './recording-proxy-options.js';

/** The forward proxy an upstream is reached through, with undici loaded for it. */
export interface ForwardProxy {
  proxy: ChosenProxy;
  undici: typeof UndiciModule;
  dispatcher: Dispatcher;
}

/** What every exchange of one proxy shares: the upstream, the limits, how to reach it, the state it counts into. */
export interface ExchangeContext {
  options: RecordingProxyOptions;
  state: ProxyState;
  upstream: URL;
  /** The upstream URL's own query, sent on every forwarded request (the client's value of a parameter wins). */
  baseQuery: BaseQuery;
  basePath: string;
  names: SecretNames;
  timeoutMs: number;
  maxBodyBytes: number;
  via: ForwardProxy | undefined;
  send: typeof httpRequest;
  agent: HttpAgent;
  /** The TLS material of direct calls (client certificate, CA), for re-reading a refused answer's framing. */
  tls: ClientTls;
  /** Whether close() was called (answers then carry `Connection: close`). */
  closing(): boolean;
}

/** One exchange as it goes: the client's request and response, its findings and its failure latch. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  rawUrl: string;
  path: string;
  method: string;
  checked: boolean;
  started: number;
  sink: ReturnType<typeof exchangeSink>;
  /** Records the upstream's failure once (a timeout and the abort after it are one failure); `framing` for an answer framed wrongly. */
  failed(reason: string, code?: 'request-failed' | 'framing'): void;
  /** The upstream URL and the header lines sent to it (name and value alternating). */
  target: URL;
  sent: string[];
}

/**
 * Forwards one request (stages: describe → open the upstream call → pass the answer back, checked
 * while it streams, or answer 502/504 when the upstream gives none).
 */
export function forwardExchange(ctx: ExchangeContext, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const method = req.method ?? 'GET';
  const endpoint: ContractEndpoint = !isMarketsPath(path) ? 'deployment' : singleMarketId(path) === undefined ? LIST_ENDPOINT : SINGLE_ENDPOINT;
  const credentials = credentialValues(req.rawHeaders, rawUrl, ctx.names);
  ctx.state.book.add(credentials);
  const sink = exchangeSink(ctx.state, credentials);
  let failedOnce = false;
  const failed = (reason: string, code: 'request-failed' | 'framing' = 'request-failed') => {
    if (failedOnce) return;
    failedOnce = true;
    upstreamFailed(ctx.state, sink, method, rawUrl, endpoint, reason, code);
  };
  const target = withBaseQuery(new URL(`${ctx.basePath}${path}${q === -1 ? '' : rawUrl.slice(q)}`, ctx.upstream.origin), ctx.baseQuery);
  const sent = forwardHeaders(req.rawHeaders, target.host);
  const exchange: Exchange = { req, res, rawUrl, path, method, checked: method === 'GET' && isMarketsPath(path), started, sink, failed, target, sent };
  const outgoing = openUpstreamCall(ctx, method, target, sent);
  res.once('close', () => {
    if (!res.writableFinished) outgoing.destroy();
  });
  outgoing.onError((error: NodeJS.ErrnoException) => answerUpstreamError(ctx, exchange, error));
  outgoing.onResponse((answer) => passAnswer(ctx, exchange, answer));
  req.pipe(outgoing.sink);
}

/** The call to the upstream (direct, or through the forward proxy), with the time limit armed. */
function openUpstreamCall(ctx: ExchangeContext, method: string, target: URL, headers: string[]): UpstreamCall {
  const { via, timeoutMs } = ctx;
  const outgoing = via ? proxiedCall(new ProxiedUpstreamRequest(via.undici, via.dispatcher, target, method, headers, via.proxy)) : directCall(ctx.send(target, { method, headers, agent: ctx.agent }));
  outgoing.setTimeout(timeoutMs, () => outgoing.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms (--timeout-ms)`), { code: 'ETIMEDOUT' })));
  return outgoing;
}

/** No answer from the upstream: a 504 (time limit) or 502 to the client, or a cut when the answer had begun. */
function answerUpstreamError(ctx: ExchangeContext, exchange: Exchange, error: NodeJS.ErrnoException): void {
  if (isFramingRefusal(error)) {
    void nameFraming(ctx, exchange, error).then((reason) => answerBadFraming(ctx, exchange, reason));
    return;
  }
  const { res } = exchange;
  const timedOut = error.code === 'ETIMEDOUT';
  const reason = timedOut ? error.message : `${error.message}${error.code && !error.message.includes(error.code) ? ` (${error.code})` : ''}`;
  exchange.failed(reason);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const reply = errorReply('default', timedOut ? 504 : 502, timedOut ? 'upstream_timeout' : 'upstream_unreachable', `market-stub proxy: ${displayUrl(ctx.upstream)} gave no answer (${reason}).`);
  sendRedacted(ctx, exchange, reply);
}

/**
 * Why node:http refused an upstream answer's framing, as `check` names it (message-framing.ts): its
 * header section read again on a socket of its own when the call is direct, else the parser's words.
 */
async function nameFraming(ctx: ExchangeContext, exchange: Exchange, error: NodeJS.ErrnoException): Promise<string> {
  const fields = ctx.via || exchange.method !== 'GET' ? undefined : await probeFraming(exchange.target, headerRecord(exchange.sent), ctx.tls, Math.min(ctx.timeoutMs, 5_000));
  const named = fields ? describeFraming(fields) : undefined;
  return named ?? `the answer's framing is invalid (RFC 9112 §6.3): ${error.message}${error.code ? ` (${error.code})` : ''}`;
}

/** Header lines (name and value alternating) as one record, a repeated name's values joined with `, ` (RFC 9110 §5.3). */
function headerRecord(lines: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const name = (lines[i] as string).toLowerCase();
    record[name] = record[name] === undefined ? (lines[i + 1] as string) : `${record[name]}, ${lines[i + 1] as string}`;
  }
  return record;
}

/** An upstream answer framed wrongly: a `framing` finding, and a 502 naming it to the client (or a cut, when the answer had begun). */
function answerBadFraming(ctx: ExchangeContext, exchange: Exchange, reason: string): void {
  exchange.failed(reason, 'framing');
  if (exchange.res.headersSent || exchange.res.destroyed) {
    exchange.res.destroy();
    return;
  }
  sendRedacted(ctx, exchange, errorReply('default', 502, 'upstream_bad_framing', `market-stub proxy: ${displayUrl(ctx.upstream)} answered with a message no client can read safely: ${reason}.`));
}

/** A reply of the proxy's own to the client, after the one rule for secrets (redactAnswer). */
function sendRedacted(ctx: ExchangeContext, exchange: Exchange, reply: ReturnType<typeof errorReply>): void {
  if (ctx.closing()) reply.headers['connection'] = 'close';
  // The one rule for secrets in answers (redactAnswer): the upstream URL's key and the client's credentials never reach the client.
  writeReply(exchange.res, redactAnswer(redactAnswer(reply, ctx.state.book.redactor()), exchange.sink.redactor));
}

/** The upstream's answer passed back unchanged (backpressure kept), checked while it streams when it is a market route. */
function passAnswer(ctx: ExchangeContext, exchange: Exchange, answer: UpstreamAnswer): void {
  const { res, rawUrl, path, method, checked, started } = exchange;
  const { state, options } = ctx;
  const status = answer.statusCode ?? 502;
  // A transfer coding nobody asked for (the proxy forwards no TE) is passed on as it came, and named.
  const unasked = unaskedTransferCoding(answer.headers['transfer-encoding']);
  if (unasked !== undefined) exchange.failed(unasked, 'framing');
  // A cookie the upstream sets is the client's secret from now on (docs/networks.md, "Cookies"): passed on, redacted everywhere else.
  state.book.add(cookieValues(answer.headers['set-cookie'], 'set-cookie'));
  const headers = withoutHopByHop(answer.rawHeaders);
  if (ctx.closing()) headers.push('Connection', 'close');
  res.writeHead(status, answer.statusMessage, headers);
  const check = checked ? createExchangeCheck({
    request: rawUrl, marketId: singleMarketId(path), status, contentType: answer.headers['content-type'], contentEncoding: answer.headers['content-encoding'],
    conditional: exchange.req.headers['if-none-match'] !== undefined || exchange.req.headers['if-modified-since'] !== undefined,
  }, { sink: exchange.sink.sink, today: state.today }, state.listed, ctx.maxBodyBytes, exchange.sink.redactor) : undefined;
  answer.on('data', (chunk: Buffer) => {
    check?.write(chunk);
    if (!res.write(chunk)) {
      answer.pause();
      res.once('drain', () => answer.resume());
    }
  });
  answer.once('aborted', () => {
    check?.abort();
    exchange.failed('the upstream closed the connection before the body was complete');
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
      exchange.sink.flush();
      options.onExchange?.({ method, path: rawUrl, status, ms, checked });
    }).catch((error: unknown) => options.onSpoolError?.(error));
  });
}

/** Hop-by-hop fields a proxy must not forward (RFC 9110 §7.6.1), plus those named in Connection. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authenticate', 'proxy-authorization']);

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
