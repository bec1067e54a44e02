/** How the crawler talks to a deployment: the fetch to use, headers for every request, and a time limit. */
export interface RequestOptions {
  /** WHATWG fetch (Node's undici by default); injected so tests can substitute or wrap it. */
  fetch: typeof fetch;
  /** Sent on every request (e.g. an Authorization token). Values never appear in errors or reports. */
  headers: ReadonlyArray<readonly [string, string]>;
  /** Time limit for one request including its body, in ms. */
  timeoutMs: number;
  /** Aborts every request (SIGINT/SIGTERM); the failure then has kind `aborted`. */
  signal?: AbortSignal;
}

/** A complete answer: status, headers and the whole body as text. */
export interface DeploymentResponse {
  /** The URL asked for. */
  requested: URL;
  /** The URL that answered (differs from `requested` after redirects, which fetch follows). */
  url: URL;
  status: number;
  headers: Headers;
  /** `Content-Type` as sent, or undefined. */
  contentType: string | undefined;
  text: string;
  /** Wall time from request to the end of the body, in ms. */
  ms: number;
}

/** Why a request got no HTTP answer; `reason` is a short phrase for a sentence ("connection refused"). */
export class RequestFailure extends Error {
  constructor(readonly url: URL, readonly reason: string, readonly kind: 'timeout' | 'refused' | 'dns' | 'tls' | 'reset' | 'aborted' | 'other') {
    super(`${displayUrl(url)}: ${reason}`);
    this.name = 'RequestFailure';
  }
}

/**
 * GETs `url` and reads the whole body as text, within `timeoutMs` for both (a hung endpoint costs
 * at most that). Redirects are followed (fetch's default, at most 20, Fetch standard §4.4).
 * @throws RequestFailure when there is no HTTP answer: refused, DNS, TLS, reset, timeout.
 */
export async function requestDeployment(url: URL, options: RequestOptions): Promise<DeploymentResponse> {
  const start = performance.now();
  const headers = new Headers({ accept: 'application/json' });
  for (const [name, value] of options.headers) headers.set(name, value);
  // One controller per request with a plain timer: on Node 20, AbortSignal.any() over an
  // AbortSignal.timeout() can lose the timeout to garbage collection (nodejs/node#48951), and a
  // hung endpoint must never cost more than timeoutMs.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${options.timeoutMs} ms`, 'TimeoutError')), options.timeoutMs);
  const stop = () => controller.abort(new DOMException('aborted by the caller', 'AbortError'));
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    const response = await options.fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
    const text = await response.text();
    return {
      requested: url,
      url: response.url ? new URL(response.url) : url,
      status: response.status,
      headers: response.headers,
      contentType: response.headers.get('content-type') ?? undefined,
      text,
      ms: performance.now() - start,
    };
  } catch (error) {
    if (options.signal?.aborted) throw new RequestFailure(url, 'aborted', 'aborted');
    throw toRequestFailure(url, error, options.timeoutMs);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  }
}

/** Maps fetch/undici errors to a failure with a plain reason (never the request's headers). */
export function toRequestFailure(url: URL, error: unknown, timeoutMs: number): RequestFailure {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  // fetch rejects with the abort reason (our TimeoutError) or a generic AbortError.
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return new RequestFailure(url, `no complete answer within ${timeoutMs} ms (--timeout-ms)`, 'timeout');
  const code = e.cause?.code ?? '';
  const causeMessage = e.cause?.message ?? '';
  if (code === 'ECONNREFUSED') return new RequestFailure(url, 'connection refused', 'refused');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return new RequestFailure(url, `unknown host ${url.hostname} (DNS lookup failed: ${code})`, 'dns');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || e.message === 'terminated') return new RequestFailure(url, 'the connection was closed before the answer was complete', 'reset');
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return new RequestFailure(url, 'the connection timed out', 'timeout');
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new RequestFailure(url, `host ${url.hostname} is unreachable (${code})`, 'refused');
  if (/^(ERR_SSL|ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code)) return new RequestFailure(url, `the TLS handshake failed (${code})`, 'tls');
  if (causeMessage === 'bad port') return new RequestFailure(url, `port ${url.port} is blocked by fetch (the Fetch standard's bad-port list)`, 'other');
  if (causeMessage === 'redirect count exceeded') return new RequestFailure(url, 'too many redirects (more than 20)', 'other');
  const detail = causeMessage || e.message || String(error);
  return new RequestFailure(url, code ? `${detail} (${code})` : detail, 'other');
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
