import type { IncomingMessage, ServerResponse } from 'node:http';
// The module's binding: the global `performance` is a getter Node runs on every read.
import { performance } from 'node:perf_hooks';
import type { TransportFault } from '../behaviour/behaviour.js';
import { splitTarget, type SplitTarget, type StubAnswer, type StubRequest } from '../runtime/answer-request.js';
import { internalError } from '../runtime/error-reply.js';
import type { Reply } from '../runtime/reply.js';
import type { StubCore } from '../runtime/stub-core.js';
import type { StubRuntime } from '../runtime/stub-runtime.js';
import { requestBody } from './request-body.js';
import { writeHead, writeReply, writeReplyHead } from './write-reply.js';


/**
 * The node:http adapter of the core: `handle(req, res)` turns a raw Node request into a
 * StubRequest, asks the core (every route: market routes, health, OpenAPI, 404/405, preflights,
 * the admin API), waits the answer's delay and delivers it through its transport fault. Every
 * request outside the admin API is journaled once (journalExchange). `mounted`: the
 * Express adapter's, whose `req.baseUrl` is the path it is mounted under.
 */
export function createNodeHandler(core: StubCore, options: { mounted?: boolean } = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const runtime = core.runtime;
  return (req, res) => {
    const target = req.url ?? '/';
    const split = splitTarget(target);
    const method = req.method ?? 'GET';
    const request: StubRequest = split.admin
      ? { method, target, headers: req.headers, rawHeaders: req.rawHeaders, body: requestBody(req) }
      : { method, target, headers: req.headers };
    if (options.mounted) request.mount = (req as { baseUrl?: string }).baseUrl ?? '';
    const start = performance.now();
    const timeMs = Date.now();
    const answer = core.handle(request, split);
    if (answer instanceof Promise) {
      answer.then((a) => {
        // A body may be left unread: never let its bytes be parsed as the next request.
        if (!req.complete) a.reply.headers['connection'] = 'close';
        deliver(res, a);
      }).catch((error: unknown) => failed(runtime, res, error, `${method} ${split.path}`));
      return;
    }
    try {
      if (answer.preflight) {
        writeHead(res, answer.reply.status, answer.reply.headers);
        res.end();
      } else if (answer.delayMs > 0) deliverLater(runtime, res, answer, `${method} ${split.path}`);
      else deliver(res, answer);
    } finally {
      if (!split.admin) journalExchange(runtime, req, res, split, answer, start, timeMs);
    }
  };
}

/**
 * Journals (and logs) the request once: at once when its answer has already been handed whole to
 * the socket (`writableFinished` right after delivery: the usual answer, written in one go, costs
 * no listener and no closure), else when its response closes, completed, aborted or reset alike
 * (a delay, a fault, a streamed list, a pipelined request waiting its turn, a throw). `start`: when
 * the request reached the adapter (performance.now()), `timeMs` that moment in ms since the epoch.
 */
function journalExchange(runtime: StubRuntime, req: IncomingMessage, res: ServerResponse, split: SplitTarget, answer: StubAnswer, start: number, timeMs: number): void {
  if (res.writableFinished) recordExchange(runtime, req, res, split, answer, start, timeMs);
  // 'close' fires once (`on`, not `once`: no wrapper per request), never during the delivery that came before it.
  else res.on('close', () => recordExchange(runtime, req, res, split, answer, start, timeMs));
}

/** The exchange as the journal records it: what the core decided (labels, explanation, the reply) and what was sent. req.headers is a fresh object per request that nothing else mutates: kept, not copied. */
function recordExchange(runtime: StubRuntime, req: IncomingMessage, res: ServerResponse, split: SplitTarget, answer: StubAnswer, start: number, timeMs: number): void {
  const durationMs = Math.round((performance.now() - start) * 100) / 100;
  runtime.recordExchange({ timeMs, instantMs: answer.instantMs ?? runtime.clock.now(), method: req.method ?? 'GET', target: req.url ?? '/', path: split.path, query: split.query, headers: req.headers, status: res.headersSent ? res.statusCode : null, durationMs, labels: answer.labels, explain: answer.explain, response: answer.reply });
}

/** A bug past the core: logged, answered 500 when nothing was sent yet, else cut. */
function failed(runtime: StubRuntime, res: ServerResponse, error: unknown, where: string): void {
  runtime.reportError(error, where);
  if (res.headersSent) res.destroy();
  else writeReply(res, internalError(runtime.profile.errors));
}

/** Holds the answer for its delay, then delivers it; a response closed meanwhile is never written. */
function deliverLater(runtime: StubRuntime, res: ServerResponse, answer: StubAnswer, where: string): void {
  const timer = setTimeout(() => {
    try {
      deliver(res, answer);
    } catch (error) {
      runtime.reportError(error, `${where} (delayed reply)`);
      res.destroy();
    }
  }, answer.delayMs);
  res.once('close', () => clearTimeout(timer));
}

/** Writes a reply through its transport fault, if any. */
function deliver(res: ServerResponse, answer: StubAnswer): void {
  const { reply } = answer;
  // Already answered (the 503 of a shutdown grace) or gone: nothing to deliver.
  if (res.destroyed || res.headersSent) return;
  // A streamed list (huge generated catalogs) is never held whole, so only `reset` applies to it.
  const fault: TransportFault | undefined = reply.chunks && answer.fault !== 'reset' ? undefined : answer.fault;
  switch (fault) {
    case 'reset':
      // RST instead of FIN: the client sees ECONNRESET ("socket hang up"), not a clean close.
      res.socket?.resetAndDestroy();
      return;
    case 'truncate':
      writeReplyHead(res, reply);
      res.write(reply.body.subarray(0, Math.floor(reply.body.length / 2)), () => res.socket?.destroy());
      return;
    case 'malformed':
      writeReply(res, { ...reply, body: reply.body.subarray(0, Math.max(1, Math.floor(reply.body.length / 2))) });
      return;
    case 'slow-body':
      dribble(res, reply, answer.dribbleMs);
      return;
    default:
      writeReply(res, reply);
  }
}

/** The body in up to 20 chunks spread over `dribbleMs`, with the whole body's Content-Length. */
function dribble(res: ServerResponse, reply: Reply, dribbleMs: number): void {
  writeReplyHead(res, reply);
  const chunks = Math.max(1, Math.min(20, reply.body.length));
  const size = Math.ceil(reply.body.length / chunks);
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    const part = reply.body.subarray(i * size, (i + 1) * size);
    i += 1;
    if (i >= chunks) {
      clearInterval(timer);
      res.end(part);
    } else {
      res.write(part);
    }
  }, dribbleMs / chunks);
  res.once('close', () => clearInterval(timer));
}
