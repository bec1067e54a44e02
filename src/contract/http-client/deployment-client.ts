import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type * as UndiciModule from 'undici';
import type { Dispatcher } from 'undici';
import { ACCEPT_ENCODING, contentDecoders, decodeFailureReason, unsupportedCodingReason } from './content-decoding.js';
import { createOutgoingAgent, type OutgoingAgent } from './outgoing-agent.js';
import { describeTlsAlert, tlsAlertName } from './tls-failure.js';
import { getSkippingInterim, isRefusedInterim, type RawAnswer } from './interim-response.js';
import { CallerAbort, TimeoutSignal } from './request-timing.js';
import { readRateLimit } from './rate-limit-fields.js';
import { createRequestPacer, type RequestPacer } from './request-pacer.js';
import { betterCause, type FailureKind } from './failure-cause.js';
import { decodedLengthAsContentLength, describeFraming, isFramingRefusal, probeFraming, unaskedTransferCoding } from './message-framing.js';
import { withBaseQuery, type BaseQuery } from './base-query.js';
import { createRunCookies, withCookies, type RunCookies } from './run-cookies.js';
import { dependencyLoadFailure } from './dependency-load.js';

/**
 * How check and record talk to a deployment: undici's keep-alive pool, redirects followed by hand
 * so credentials stay on their origin, bounded retries, bodies decoded while streaming under a
 * size limit, and failures that keep their real cause.
 */
export interface DeploymentClientOptions {
  /** The origin (`https://host:port`) the headers were given for; they go nowhere else. */
  origin: string;
  /** Sent on requests to `origin` only (e.g. an Authorization token). Values never appear in errors. */
  headers: ReadonlyArray<readonly [string, string]>;
  /** The base URL's query parameters, appended to every request to `origin` that lacks them (base-query.ts). @default none */
  baseQuery?: BaseQuery;
  /** Time limit for one attempt, body included, in ms. */
  timeoutMs: number;
  /** Largest body accepted, decompressed, in bytes; past it the read fails with kind `limit`. */
  maxBodyBytes: number;
  /** Retries of a 503 answer per request (Retry-After honoured), and of a 429 met at concurrency 1 (the pace lowered as far as it goes). */
  retries: number;
  /** Longest wait a Retry-After may ask for, in ms; a longer one is not waited for (the budget is exhausted). */
  retryAfterMaxMs: number;
  /** Refuse redirects to another origin instead of following them without the headers. */
  sameOriginOnly: boolean;
  /** Connections kept open to the deployment (the crawl's concurrency). */
  connections: number;
  /** Aborts every request (SIGINT/SIGTERM); the failure then has kind `aborted`. */
  signal?: AbortSignal;
  /** undici dispatcher to send through (a ProxyAgent, a MockAgent in tests); default: a keep-alive Agent of `connections`. */
  dispatcher?: Dispatcher;
  /** `User-Agent` sent. */
  userAgent: string;
  /** Forward proxy and client certificate (outgoing-agent.ts); ignored when `dispatcher` is given. @default direct, no client certificate */
  network?: OutgoingAgent;
}

/** Something the client did on the way to an answer, reported by the crawl as a finding. */
export type ExchangeEvent =
  | { kind: 'redirect'; from: URL; to: URL; status: number; crossOrigin: boolean }
  | { kind: 'retry'; url: URL; reason: string; waitedMs: number };

/** An answer whose body is still to be read (read it with `body`, once). */
export interface DeploymentResponse {
  /** The URL asked for. */
  requested: URL;
  /** The URL that answered (after redirects). */
  url: URL;
  status: number;
  /** Response header fields, names lower-cased, repeated fields joined with `, `. */
  headers: Record<string, string>;
  contentType: string | undefined;
  /** Redirects followed and retries made, in order. */
  events: ExchangeEvent[];
  /** Set when the answer is a 429/503 and the retry budget (or the Retry-After cap) is used up: why. */
  retriesExhausted?: string;
  /** The body, decoded from its Content-Encoding, in chunks; fails with a RequestFailure (limit, decode, reset, timeout). */
  body: AsyncIterable<Buffer>;
  /** Releases the connection without reading the body. */
  discard(): Promise<void>;
  /** Closes the answer at once, its body unread (an endless stream): the connection is not reused. */
  cancel(): void;
  /** performance.now() when the first attempt started, moved on by the time spent waiting for the pace (queue, 429 and 503 waits): answer time is `now - startedAt`. */
  startedAt: number;
}

export type { FailureKind } from './failure-cause.js';

/** Why a request got no complete answer; `reason` is a short phrase with the real cause ("the gzip body could not be decoded: incorrect header check (Z_DATA_ERROR)"). */
export class RequestFailure extends Error {
  constructor(readonly url: URL, readonly reason: string, readonly kind: FailureKind, readonly beforeResponse = false) {
    super(`${displayUrl(url)}: ${reason}`);
    this.name = 'RequestFailure';
  }
}

/** A client for one crawl; close it when done. */
export interface DeploymentClient {
  /** GETs `url` (with `headers` besides the usual ones, e.g. a `Range`), following redirects and retrying as documented. @throws RequestFailure when there is no answer. */
  get(url: URL, headers?: Readonly<Record<string, string>>): Promise<DeploymentResponse>;
  /** The lowest concurrency the pace came down to on 429s (the `connections` given when there was none). */
  readonly lowestConcurrency: number;
  /** The cookies the deployment set, kept for the run and sent back on its origin only (run-cookies.ts). */
  readonly cookies: RunCookies;
  close(): Promise<void>;
}

type Undici = typeof UndiciModule;

/** Redirect statuses followed (RFC 9110 §15.4); at most MAX_REDIRECTS (the Fetch standard's 20). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** First backoff when a 429/503 has no Retry-After, doubled on each retry. */
const BACKOFF_MS = 500;

/**
 * Creates a client. undici is loaded on first use (not at import), so `serve` never loads it.
 * Every request sends `Accept: application/json`, `Accept-Encoding: gzip, br` and the
 * `User-Agent`; the given headers, and the cookies the deployment set (run-cookies.ts), only to `origin`.
 */
export function createDeploymentClient(options: DeploymentClientOptions): DeploymentClient {
  const network = options.network ?? createOutgoingAgent();
  const cookies = createRunCookies(options.origin);
  let pool: Promise<ClientPool> | undefined;
  // The cookie jar is made with the pool: tough-cookie, like undici, loads on first use.
  const load = () => (pool ??= Promise.all([import('undici'), cookies.load()]).catch((error: unknown) => {
    throw dependencyLoadFailure(error);
  }).then(([module]) => {
    // undici is CommonJS: its exports are the default export everywhere (Node's ESM loader and the
    // CLI bundle, whose lazy chunk exports only the default); the named ones exist only under Node.
    const undici = (module.default ?? module) as unknown as Undici;
    const agent = options.dispatcher ?? network.dispatcher(undici, { connections: options.connections, keepAliveTimeout: 4_000, connectTimeoutMs: options.timeoutMs });
    // pipelining 0 disables keep-alive: a retry after a dropped connection gets a fresh one.
    const fresh = options.dispatcher ?? network.dispatcher(undici, { pipelining: 0, connectTimeoutMs: options.timeoutMs });
    return { undici, agent, fresh, owned: options.dispatcher ? [] : [agent, fresh] };
  }));

  const ctx: ClientContext = { options, network, load, pacer: createRequestPacer(options.connections, options.signal, options.retryAfterMaxMs), cookies };
  return {
    get: (requested, headers) => getFollowing(ctx, requested, headers),
    cookies: ctx.cookies,
    get lowestConcurrency() {
      return ctx.pacer.lowest;
    },
    async close() {
      if (!pool) return;
      const { owned } = await pool;
      await Promise.all(owned.map((d) => d.close().catch(() => undefined)));
    },
  };
}

/** The dispatchers a client sends on (undici loaded on first use); `owned` are closed by close(). */
interface ClientPool {
  undici: Undici;
  agent: Dispatcher;
  fresh: Dispatcher;
  owned: Dispatcher[];
}

/** What every request of one client shares: its options, network, pool and pace (request-pacer.ts). */
interface ClientContext {
  options: DeploymentClientOptions;
  network: OutgoingAgent;
  load(): Promise<ClientPool>;
  pacer: RequestPacer;
  cookies: RunCookies;
}

/** One GET on the pooled (or, after a dropped connection, a fresh) connection; a failure explained. */
async function attemptGet(ctx: ClientContext, url: URL, fresh: boolean, extra: Readonly<Record<string, string>> | undefined): Promise<Attempt> {
  const { options, network } = ctx;
  const { undici, agent, fresh: freshAgent } = await ctx.load();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutSignal(options.timeoutMs)), options.timeoutMs);
  const stop = () => controller.abort(new CallerAbort());
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  const release = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  };
  const headers = withCookies({ ...requestHeaders(url, options), ...extra }, ctx.cookies.header(url));
  // Sent with the base URL's query; failures and events keep naming `url`, without it.
  const sent = withBaseQuery(url, options.baseQuery);
  // A proxy market-stub cannot speak is refused here, for the requests that would use it only (proxy-choice.ts).
  if (!options.dispatcher) network.proxyFor(url);
  try {
    const answer = await undici.request(sent, { method: 'GET', headers, dispatcher: fresh ? freshAgent : agent, signal: controller.signal });
    ctx.cookies.store(url, answer.headers['set-cookie']);
    return { answer, controller, release };
  } catch (error) {
    const proxy = options.dispatcher ? undefined : network.proxyFor(url);
    let cause = error;
    if (isRefusedInterim(error) && !proxy && !options.dispatcher) {
      try {
        const answer = await getSkippingInterim(sent, headers, network.tls, controller.signal);
        ctx.cookies.store(url, answer.headers['set-cookie']);
        return { answer, controller, release, interim: true };
      } catch (retryError) {
        cause = retryError;
      }
    }
    release();
    if (isFramingRefusal(cause)) throw await framingFailure(ctx, url, sent, headers, cause, proxy);
    throw await explainFailure(ctx, url, cause, controller.signal.reason, proxy, fresh);
  }
}

/**
 * An answer whose framing undici refused (message-framing.ts): named from its fields as sent,
 * read again on a socket of its own when the connection is direct, else in undici's words.
 */
async function framingFailure(ctx: ClientContext, url: URL, sent: URL, headers: Record<string, string>, error: unknown, proxy: ReturnType<OutgoingAgent['proxyFor']>): Promise<RequestFailure> {
  const direct = !proxy && !ctx.options.dispatcher;
  const fields = direct ? await probeFraming(sent, headers, ctx.network.tls, Math.min(ctx.options.timeoutMs, 5_000)) : undefined;
  const named = fields ? describeFraming(fields) : undefined;
  const words = (error as { message?: string }).message ?? String(error);
  return new RequestFailure(url, named ?? `the answer's framing is invalid (RFC 9112 §6.3): ${words}`, 'framing', true);
}

/** The failure with its real cause (failure-cause.ts: the forward proxy refusing, the alert of a TLS session closed after its handshake). */
async function explainFailure(ctx: ClientContext, url: URL, error: unknown, abortReason: unknown, proxy: ReturnType<OutgoingAgent['proxyFor']>, fresh: boolean): Promise<RequestFailure> {
  const { options, network } = ctx;
  const failure = toRequestFailure(url, error, options.timeoutMs, abortReason, true);
  const better = await betterCause(url, error, failure, { proxy, tls: network.tls, probeTls: !options.dispatcher && !fresh, timeoutMs: options.timeoutMs });
  return better ? new RequestFailure(url, better.reason, better.kind, true) : failure;
}

/**
 * A GET followed to its answer: redirects (same-origin only when asked), one retry on a fresh
 * connection after a drop before any byte, 429/503 retried after Retry-After (or backoff).
 */
async function getFollowing(ctx: ClientContext, requested: URL, extra: Readonly<Record<string, string>> | undefined): Promise<DeploymentResponse> {
  const { options } = ctx;
  const startedAt = performance.now();
  const events: ExchangeEvent[] = [];
  let url = requested;
  let retried = 0;
  let limited = 0;
  let droppedOnce = false;
  // Time spent waiting for the pace (request-pacer.ts): the checker's, not the deployment's, so not part of the answer time.
  let paced = 0;
  for (let hops = 0; ; ) {
    let current: Attempt;
    try {
      const fresh = droppedOnce;
      const queued = performance.now();
      current = await ctx.pacer.run(() => {
        paced += performance.now() - queued;
        return attemptGet(ctx, url, fresh, extra);
      }, events.some((e) => e.kind === 'retry'));
    } catch (error) {
      // A connection dropped before any response byte (the keep-alive idle race): once, on a fresh connection (RFC 9110 §9.2.2: GET is idempotent).
      if (error instanceof RequestFailure && error.kind === 'reset' && error.beforeResponse && !droppedOnce) {
        droppedOnce = true;
        events.push({ kind: 'retry', url, reason: 'the connection was closed before any response byte; retried on a fresh connection', waitedMs: 0 });
        continue;
      }
      throw error;
    }
    const { answer, controller, release } = current;
    if (current.interim) events.push({ kind: 'retry', url, reason: 'the answer began with an interim 100 (Continue) that undici refuses; read again with Node\'s HTTP client, which skips it (RFC 9110 §15.2)', waitedMs: 0 });
    const status = answer.statusCode;
    const headers = flattenHeaders(answer.headers);
    const location = headers['location'];
    if (REDIRECTS.has(status) && location !== undefined) {
      await drain(answer.body, release);
      const target = resolveHttpUrl(location, url);
      if (!target) throw new RequestFailure(url, `redirected to ${JSON.stringify(location.slice(0, 80))}, which is not an http(s) URL`, 'other');
      if (++hops > MAX_REDIRECTS) throw new RequestFailure(requested, `too many redirects (more than ${MAX_REDIRECTS})`, 'other');
      const crossOrigin = target.origin !== options.origin;
      events.push({ kind: 'redirect', from: url, to: target, status, crossOrigin });
      if (crossOrigin && options.sameOriginOnly) throw new RequestFailure(url, `redirected (${status}) to another origin, ${target.origin}; not followed (--same-origin-only)`, 'cross-origin');
      url = target;
      continue;
    }
    if (status === 429 || status === 503) {
      const wait: { waitMs?: number; counted?: boolean; reason?: string } = status === 429 ? paceAfter429(ctx, headers, limited) : retryAfter503(ctx, headers, retried);
      if (wait.waitMs !== undefined) {
        await drain(answer.body, release);
        if (status === 503) retried++;
        else if (wait.counted) limited++;
        events.push({ kind: 'retry', url, reason: wait.reason ?? '', waitedMs: wait.waitMs });
        continue;
      }
      return response(requested, url, status, headers, events, startedAt + paced, answer, controller, release, options, wait.reason);
    }
    await refuseUnaskedCoding(answer, headers, url, release);
    ctx.pacer.answered(readRateLimit(headers));
    return response(requested, url, status, headers, events, startedAt + paced, answer, controller, release, options, undefined);
  }
}

/** An answer in a transfer coding the checker never asked for (message-framing.ts): its body is dropped and the request fails with kind `framing`, naming it. */
async function refuseUnaskedCoding(answer: RawAnswer, headers: Record<string, string>, url: URL, release: () => void): Promise<void> {
  const unasked = unaskedTransferCoding(headers['transfer-encoding']);
  if (unasked === undefined) return;
  await drain(answer.body, release);
  throw new RequestFailure(url, unasked, 'framing');
}

/** After a 503: the wait before retry `retried + 1` (every request held for it), or why there is none (`reason` undefined: --retries 0). */
function retryAfter503(ctx: ClientContext, headers: Record<string, string>, retried: number): { waitMs?: number; reason?: string } {
  const { options } = ctx;
  const wait = retryWait(headers['retry-after'], retried, options.retryAfterMaxMs);
  if (retried < options.retries && wait.ms !== undefined) {
    ctx.pacer.hold(wait.ms);
    return { waitMs: wait.ms, reason: `503${wait.header ? ` with Retry-After: ${wait.header}` : ''}; retry ${retried + 1} of ${options.retries} after ${Math.round(wait.ms)} ms` };
  }
  if (wait.ms === undefined) return { reason: wait.why };
  return options.retries > 0 ? { reason: `503 after ${retried} retr${retried === 1 ? 'y' : 'ies'} (--retries ${options.retries})` } : {};
}

/**
 * What to do after a 429 (too many requests: the checker's own pace, never the deployment's
 * fault): wait as the answer's rate-limit fields say (Retry-After, RateLimit, X-RateLimit-Reset:
 * rate-limit-fields.ts; else 0.5 s, 1 s, … doubling), with the concurrency halved. A 429 met at
 * concurrency 1 counts against --retries; `reason` without `waitMs` says why the pace cannot go on
 * (a wait past --retry-after-max-ms, or --retries used up at concurrency 1).
 */
function paceAfter429(ctx: ClientContext, headers: Record<string, string>, counted: number): { waitMs?: number; counted?: boolean; reason: string } {
  const { options, pacer } = ctx;
  const reading = readRateLimit(headers);
  const said = reading.evidence.length > 0 ? ` with ${reading.evidence.join(', ')}` : ' with no rate-limit field';
  const waitMs = reading.resetMs ?? Math.min(BACKOFF_MS * 2 ** counted, options.retryAfterMaxMs);
  if (waitMs > options.retryAfterMaxMs) return { reason: `429${said}: the deployment asks to wait ${Math.ceil(waitMs / 1000)} s, more than the ${Math.round(options.retryAfterMaxMs / 1000)} s cap (--retry-after-max-ms ${options.retryAfterMaxMs})` };
  const atFloor = pacer.concurrency === 1;
  if (atFloor && counted >= options.retries) return { reason: `429${said} after ${counted} retr${counted === 1 ? 'y' : 'ies'} at concurrency 1 (--retries ${options.retries})` };
  pacer.limited(waitMs);
  const how = atFloor ? `retry ${counted + 1} of ${options.retries} at concurrency 1` : `concurrency lowered to ${pacer.concurrency}`;
  return { waitMs, counted: atFloor, reason: `429${said}; ${how}, retried after ${Math.round(waitMs)} ms` };
}

interface Attempt {
  answer: RawAnswer;
  controller: AbortController;
  release: () => void;
  /** Read by Node's HTTP client after undici refused an interim 1xx (interim-response.ts). */
  interim?: boolean;
}

/** The headers of one request: ours, plus the caller's when `url` is on their origin. */
function requestHeaders(url: URL, options: DeploymentClientOptions): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING, 'user-agent': options.userAgent };
  if (url.origin === options.origin) for (const [name, value] of options.headers) headers[name.toLowerCase()] = value;
  return headers;
}

function response(
  requested: URL, url: URL, status: number, headers: Record<string, string>, events: ExchangeEvent[], startedAt: number,
  answer: RawAnswer, controller: AbortController, release: () => void, options: DeploymentClientOptions, retriesExhausted: string | undefined,
): DeploymentResponse {
  let read = false;
  return {
    requested,
    url,
    status,
    headers,
    contentType: headers['content-type'],
    events,
    ...(retriesExhausted === undefined ? {} : { retriesExhausted }),
    startedAt,
    get body() {
      if (read) throw new Error('the body was already read');
      read = true;
      return decodedBody(answer.body, { encoding: headers['content-encoding'], length: headers['content-length'] }, url, options, controller, release);
    },
    discard: () => drain(answer.body, release),
    cancel() {
      release();
      if (!answer.body.destroyed) answer.body.destroy();
    },
  };
}

/**
 * The body decoded from its Content-Encoding (gzip, x-gzip, deflate, br; several in order),
 * counting decompressed bytes against the limit while streaming: a 1 MiB gzip bomb stops at the
 * limit, never expanded whole.
 */
async function* decodedBody(raw: Readable, fields: { encoding: string | undefined; length: string | undefined }, url: URL, options: DeploymentClientOptions, controller: AbortController, release: () => void): AsyncGenerator<Buffer> {
  const { encoding } = fields;
  const chain = contentDecoders(encoding);
  const decoders = 'decoders' in chain ? chain.decoders : [];
  let bytes = 0;
  let received = 0;
  let decoderError: unknown;
  let rawError: unknown;
  raw.once('error', (error) => (rawError ??= error));
  if (decoders.length > 0) raw.on('data', (chunk: Buffer) => (received += chunk.length));
  for (const decoder of decoders) decoder.once('error', (error) => (decoderError ??= error));
  try {
    if ('unsupported' in chain) throw new RequestFailure(url, unsupportedCodingReason(encoding, chain.unsupported), 'decode');
    const last: Readable = decoders[decoders.length - 1] ?? raw;
    const feeding = decoders.length === 0 ? undefined : pipeline([raw, ...decoders]).catch(() => undefined);
    for await (const chunk of last) {
      const buffer = chunk as Buffer;
      bytes += buffer.length;
      if (bytes > options.maxBodyBytes) throw new RequestFailure(url, `the body is larger than the limit of ${formatBytes(options.maxBodyBytes)} (--max-body-mb; decompressed bytes count)`, 'limit');
      yield buffer;
    }
    await feeding;
    if (decoderError !== undefined) throw decoderError;
  } catch (error) {
    if (error instanceof RequestFailure) throw error;
    if (decoderError !== undefined && rawError === undefined && 'codings' in chain) throw new RequestFailure(url, decodeFailureReason(chain.codings, decoderError), 'decode');
    const misframed = 'codings' in chain ? decodedLengthAsContentLength(fields.length, chain.codings.join(', '), received, bytes) : undefined;
    if (misframed !== undefined) throw new RequestFailure(url, misframed, 'framing');
    throw toRequestFailure(url, error, options.timeoutMs, controller.signal.reason, false);
  } finally {
    release();
    if (!raw.destroyed) raw.destroy();
    for (const d of decoders) d.destroy();
  }
}

async function drain(body: Readable, release: () => void): Promise<void> {
  try {
    // A small body is read to keep the connection; anything big is cut.
    let bytes = 0;
    for await (const chunk of body) {
      bytes += (chunk as Buffer).length;
      if (bytes > 65_536) break;
    }
  } catch {
    // The connection is discarded; nothing to report for a body nobody reads.
  } finally {
    release();
    if (!body.destroyed) body.destroy();
  }
}

/** How long a 429/503 asks to wait (Retry-After, RFC 9110 §10.2.3: delta-seconds or an HTTP-date), or why it is not waited for. */
export function retryWait(header: string | undefined, retried: number, capMs: number): { ms?: number; header?: string; why: string } {
  if (header === undefined || header.trim() === '') return { ms: Math.min(BACKOFF_MS * 2 ** retried, capMs), why: '' };
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - Date.now();
  if (!Number.isFinite(ms)) return { ms: Math.min(BACKOFF_MS * 2 ** retried, capMs), header: text, why: '' };
  const wait = Math.max(0, ms);
  if (wait > capMs) return { header: text, why: `Retry-After: ${text} asks for ${Math.round(wait / 1000)} s, more than the ${Math.round(capMs / 1000)} s cap (--retry-after-max-ms ${capMs}); not retried` };
  return { ms: wait, header: text, why: '' };
}

/** `reference` resolved against `base` when the result is an http(s) URL (RFC 3986 §5), else undefined. */
export function resolveHttpUrl(location: string, base: URL): URL | undefined {
  try {
    const url = new URL(location, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Maps undici/node errors to a failure with its real cause (never the request's headers). */
export function toRequestFailure(url: URL, error: unknown, timeoutMs: number, abortReason: unknown, beforeResponse: boolean): RequestFailure {
  if (abortReason instanceof CallerAbort) return new RequestFailure(url, 'aborted', 'aborted', beforeResponse);
  if (abortReason instanceof TimeoutSignal) return new RequestFailure(url, `no complete answer within ${timeoutMs} ms (--timeout-ms)`, 'timeout', beforeResponse);
  if (error instanceof RequestFailure) return error;
  const e = error as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  const code = e.code && e.code !== 'UND_ERR' ? e.code : (e.cause?.code ?? '');
  const message = e.cause?.message && !e.message ? e.cause.message : (e.message ?? String(error));
  const at = beforeResponse ? 'before any response byte' : 'before the body was complete';
  switch (code) {
    case 'ECONNREFUSED': return new RequestFailure(url, 'connection refused (ECONNREFUSED)', 'refused', beforeResponse);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME': return new RequestFailure(url, `unknown host ${url.hostname} (DNS lookup failed: ${code})`, 'dns', beforeResponse);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED': return new RequestFailure(url, `the connection was closed ${at} (${code}: ${message})`, 'reset', beforeResponse);
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT': return new RequestFailure(url, `the connection timed out (${code})`, 'timeout', beforeResponse);
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT': return new RequestFailure(url, `no complete answer in time (${code})`, 'timeout', beforeResponse);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH': return new RequestFailure(url, `host ${url.hostname} is unreachable (${code})`, 'refused', beforeResponse);
    default: break;
  }
  const alert = tlsAlertName(code);
  if (alert !== undefined) return new RequestFailure(url, `the TLS handshake failed: ${describeTlsAlert(alert)}`, 'tls', beforeResponse);
  if (/^(ERR_SSL|ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|EPROTO)/.test(code)) {
    // OpenSSL messages span lines with library internals; its `reason` is the readable part.
    const reason = (error as { reason?: string }).reason ?? (e.cause as { reason?: string } | undefined)?.reason ?? message.split('\n')[0];
    return new RequestFailure(url, `the TLS handshake failed: ${reason} (${code})`, 'tls', beforeResponse);
  }
  return new RequestFailure(url, code ? `${message} (${code})` : message, 'other', beforeResponse);
}

/** `64 MiB (67,108,864 bytes)`. */
export function formatBytes(bytes: number): string {
  const mib = bytes / 1_048_576;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB (${bytes.toLocaleString('en-US')} bytes)`;
}

/** A URL for reports and messages: user name and password (if any) removed. */
export function displayUrl(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** A base URL for reports: displayUrl without the trailing slash of a bare origin (`http://127.0.0.1:4010`). */
export function displayBase(url: URL): string {
  const text = displayUrl(url);
  return url.pathname === '/' && !url.search && !url.hash ? text.replace(/\/$/, '') : text;
}

/** The path and query of a URL, as kept in finding examples (`/markets?cursor=p2`). */
export function requestTarget(url: URL): string {
  return `${url.pathname}${url.search}`;
}
