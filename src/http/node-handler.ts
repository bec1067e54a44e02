import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TransportFault } from '../behaviour/behaviour.js';
import { answerRequest, CORS_HEADERS, NO_LABELS, splitTarget, type SplitTarget, type StubAnswer } from '../runtime/answer-request.js';
import type { Reply } from '../runtime/reply.js';
import type { StubRuntime } from '../runtime/stub-runtime.js';
import { writeHead, writeReply, writeReplyHead } from './write-reply.js';

const OBSERVED = Symbol('market-stub.observed');
const APPLIED = Symbol('market-stub.behaviour');

type Observed = IncomingMessage & { [OBSERVED]?: true };
type WithLabels = ServerResponse & { [APPLIED]?: readonly string[] };

/**
 * The node:http adapter of the core: returns `handle(req, res)`, which answers a raw Node request
 * when the core owns its route (the two market routes, `GET /healthz`, CORS preflights) and
 * journals every non-admin request once, on the response's `close`. Returns false to let Express
 * answer the rest (the admin API, `/openapi.json`, 404s). The server's fast path and the Express
 * app's first middleware both call it, so both answer identically.
 */
export function createNodeHandler(runtime: StubRuntime): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const target = req.url ?? '/';
    const split = splitTarget(target);
    if (split.admin) return false;
    observe(runtime, req as Observed, res as WithLabels, split);
    const answer = answerRequest(runtime, { method: req.method ?? 'GET', target, headers: req.headers }, split);
    if (answer === undefined) {
      // Express answers the rest; it sends these headers with whatever it writes.
      if (runtime.cors) for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
      return false;
    }
    if (answer.labels.length > 0) (res as WithLabels)[APPLIED] = answer.labels;
    if (answer.preflight) {
      writeHead(res, answer.reply.status, answer.reply.headers);
      res.end();
    } else if (answer.delayMs > 0) deliverLater(runtime, res, answer, `${req.method ?? 'GET'} ${split.path}`);
    else deliver(res, answer);
    return true;
  };
}

/** Journals (and logs) the request once, when its response closes: completed, aborted or reset alike. */
function observe(runtime: StubRuntime, req: Observed, res: WithLabels, split: SplitTarget): void {
  if (req[OBSERVED]) return;
  req[OBSERVED] = true;
  const start = performance.now();
  const timeMs = Date.now();
  // 'close' fires once (`on`, not `once`: no wrapper per request). req.headers is a fresh object per request that nothing else mutates: kept, not copied.
  res.on('close', () => {
    const durationMs = Math.round((performance.now() - start) * 100) / 100;
    runtime.recordExchange({ timeMs, method: req.method ?? 'GET', target: req.url ?? '/', path: split.path, query: split.query, headers: req.headers, status: res.headersSent ? res.statusCode : null, durationMs, labels: res[APPLIED] ?? NO_LABELS });
  });
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
