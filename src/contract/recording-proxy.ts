import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { todayUtc } from '../core/market-rules.js';
import type { Market } from '../schema/market-types.js';
import type { ContractFinding, Observation } from './contract-finding.js';
import { buildContractReport, type ContractReport, type ListSummary } from './contract-report.js';
import { parseBaseUrl } from './crawl-deployment.js';
import { displayBase, displayUrl } from './deployment-request.js';
import { createFindingAggregator, type FindingAggregator } from './finding-aggregator.js';
import { findNextPage } from './list-envelope.js';
import { checkListResponse, checkSingleResponse, type CheckContext, type ListedMarkets } from './market-checks.js';

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
  /** Warnings fail the summary too. @default false */
  strict?: boolean;
  /** Today's date YYYY-MM-DD (UTC) for the past-resolution-date rule. @default today */
  today?: string;
  /**
   * Called for each finding of each checked response, as it happens: errors and warnings every
   * time, information the first time it is seen. `count` is the occurrences in that response.
   */
  onFinding?: (finding: ContractFinding) => void;
  /** Called once per forwarded request, after the answer was passed on. */
  onExchange?: (exchange: { method: string; path: string; status: number; ms: number; checked: boolean }) => void;
  /** Called when the upstream gives no answer (the client gets 502 or 504). */
  onUpstreamError?: (error: { method: string; path: string; reason: string }) => void;
}

/** A listening proxy. */
export interface RecordingProxy {
  /** `http://ADDRESS:PORT` with the address actually bound. */
  readonly url: string;
  readonly port: number;
  /** The summary so far: the same report shape as `check` (command `proxy`). */
  report(): ContractReport;
  /** The valid markets seen on `GET /markets/{market_id}` (latest answer per id), listed ones in list order first. */
  markets(): Market[];
  /** Stops accepting, lets in-flight exchanges finish; idempotent. */
  close(): Promise<void>;
}

/** Hop-by-hop fields a proxy must not forward (RFC 9110 §7.6.1), plus those named in Connection. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authenticate', 'proxy-authorization']);

/**
 * Starts a pass-through proxy in front of a real deployment for a client's own test run.
 *
 * Every request is forwarded with its method, path, query, headers (minus hop-by-hop ones and
 * `Host`) and body; the answer's status, headers (minus hop-by-hop ones) and body bytes are passed
 * back unchanged. Answers to `GET /markets` and `GET /markets/{market_id}` are also checked with
 * the same checks as `market-stub check` (checkListResponse, checkSingleResponse), after the
 * client has them; other paths pass through unchecked.
 * @throws ContractRunError OPTION_INVALID for a bad upstream URL; a Node system error (EADDRINUSE) when the port cannot be bound.
 */
export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const upstream = parseBaseUrl(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const startedAt = new Date();
  const start = performance.now();
  const sink = createFindingAggregator();
  const listed: ListedMarkets = new Map();
  const valid = new Map<string, Market>();
  const loggedInfo = new Set<string>();
  const list: ListSummary = { shape: 'unavailable', pages: 0, paging: 'none', complete: true };
  let singles = 0;
  let responses = 0;
  const agent = upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;

  const check = (path: string, query: string, status: number, headers: IncomingHttpHeaders, body: Buffer) => {
    const text = decodeBody(body, headers['content-encoding']);
    if (text === undefined) return;
    responses++;
    const local = createFindingAggregator();
    const ctx: CheckContext = { sink: tee(sink, local), today: options.today ?? todayUtc() };
    const facts = { request: `${path}${query}`, status, contentType: headers['content-type'], text };
    const marketId = singleMarketId(path);
    if (marketId === undefined) {
      list.pages++;
      const page = checkListResponse(facts, ctx, listed, new Set());
      if (page && list.shape === 'unavailable') {
        list.shape = page.shape.kind;
        if (page.shape.kind === 'envelope') list.envelopeKey = page.shape.key;
      }
      const link = headers['link'];
      const next = page ? findNextPage(page.body, page.shape, Array.isArray(link) ? link.join(', ') : (link ?? null), new URL(`${path}${query}`, 'http://proxy.invalid')) : undefined;
      if (next && list.paging === 'none') list.paging = next.via;
    } else {
      singles++;
      const market = checkSingleResponse(facts, marketId, listed.get(marketId), ctx);
      if (market) valid.set(marketId, market);
    }
    for (const finding of local.findings()) {
      if (finding.severity === 'info') {
        const key = `${finding.code} ${finding.endpoint} ${finding.pointer}`;
        if (loggedInfo.has(key)) continue;
        loggedInfo.add(key);
      }
      options.onFinding?.(finding);
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = q === -1 ? '' : rawUrl.slice(q);
    const checked = req.method === 'GET' && isMarketsPath(path);
    const target = new URL(`${basePath}${path}${query}`, upstream.origin);
    const outgoing = send(target, { method: req.method, headers: forwardHeaders(req.rawHeaders, target.host), agent });
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const timedOut = error.code === 'ETIMEDOUT';
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : (error.code ?? error.message);
      options.onUpstreamError?.({ method: req.method ?? 'GET', path: rawUrl, reason });
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const body = Buffer.from(JSON.stringify({ status: timedOut ? 504 : 502, error: 'upstream_unreachable', message: `market-stub proxy: ${displayUrl(upstream)} gave no answer (${reason}).` }));
      res.writeHead(timedOut ? 504 : 502, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) });
      res.end(body);
    });
    outgoing.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, passBackHeaders(answer.rawHeaders));
      const chunks: Buffer[] = [];
      if (checked) answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.pipe(res);
      answer.on('aborted', () => res.destroy());
      answer.on('end', () => {
        const status = answer.statusCode ?? 0;
        if (checked) check(path, query, status, answer.headers, Buffer.concat(chunks));
        options.onExchange?.({ method: req.method ?? 'GET', path: rawUrl, status, ms: performance.now() - started, checked });
      });
    });
    req.pipe(outgoing);
  };

  const server = createServer({ keepAliveTimeout: 5_000 }, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    report: () => buildContractReport({
      command: 'proxy',
      baseUrl: displayBase(upstream),
      startedAt,
      durationMs: performance.now() - start,
      strict: options.strict ?? false,
      list: { ...list },
      findings: sink.findings(),
      marketsListed: listed.size,
      marketsChecked: singles,
      requests: responses,
    }),
    markets: () => {
      const inListOrder = [...listed.keys()].flatMap((id) => valid.get(id) ?? []);
      const unlisted = [...valid.entries()].filter(([id]) => !listed.has(id)).map(([, market]) => market);
      return [...inListOrder, ...unlisted];
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), 2_000);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          agent.destroy();
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
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

/** Response headers to pass back: all but hop-by-hop ones, in order, duplicates kept. */
function passBackHeaders(raw: readonly string[]): string[] {
  return withoutHopByHop(raw);
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

/** The body as text for the checks, decoded from gzip/deflate/br; undefined for an unknown coding. */
function decodeBody(body: Buffer, encoding: string | undefined): string | undefined {
  const coding = (encoding ?? 'identity').trim().toLowerCase();
  try {
    if (coding === 'identity' || coding === '') return body.toString('utf8');
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(body).toString('utf8');
    if (coding === 'deflate') return inflateSync(body).toString('utf8');
    if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
  } catch {
    return undefined;
  }
  return undefined;
}

/** A sink that adds every observation to both aggregators. */
function tee(a: FindingAggregator, b: FindingAggregator): FindingAggregator {
  return {
    add(observation: Observation, count?: number) {
      a.add(observation, count);
      b.add(observation, count);
    },
    get size() {
      return b.size;
    },
    findings: () => b.findings(),
  };
}

