import type { ServerResponse } from 'node:http';
import { NO_CONTENT_STATUSES, type Reply } from '../runtime/reply.js';

/**
 * Writes a reply with an explicit Content-Length. Node omits the body of a HEAD response itself
 * (RFC 9110 §9.3.2: same headers as GET, no content); 204, 205 and 304 are sent without a body
 * and without Content-Length, whatever the reply holds.
 */
export function writeReply(res: ServerResponse, reply: Reply): void {
  if (NO_CONTENT_STATUSES.has(reply.status)) {
    delete reply.headers['content-type'];
    // RFC 9110 §15.3.6: a 205 says "no content" with Content-Length: 0; 204 and 304 send none.
    if (reply.status === 205) reply.headers['content-length'] = '0';
    else delete reply.headers['content-length'];
    writeHead(res, reply.status, reply.headers);
    res.end();
    return;
  }
  if (reply.chunks) {
    writeHead(res, reply.status, reply.headers);
    if (res.req.method === 'HEAD') {
      res.end();
      return;
    }
    const iterator = reply.chunks[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        if (res.destroyed) return;
        const next = iterator.next();
        if (next.done) {
          res.end();
          return;
        }
        if (!res.write(next.value)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
    return;
  }
  writeReplyHead(res, reply);
  res.end(reply.body);
}

/**
 * Writes the status line and headers of a buffered reply, with Content-Length of its whole body
 * (also what the truncate and slow-body faults promise before sending less, or slowly). Reply
 * headers are built per request, so Content-Length goes in place: one object, no copy.
 */
export function writeReplyHead(res: ServerResponse, reply: Reply): void {
  reply.headers['content-length'] = String(reply.body.length);
  writeHead(res, reply.status, reply.headers);
}

/**
 * `res.writeHead(status, headers)`: every header of an answer, the stub clock's `Date` included
 * (the core puts it there), in the one object handed to `writeHead`; a `res.setHeader` on this path
 * sends Node down its slower header merge (its cost: bench/README.md). Headers set
 * earlier with `setHeader` (`Connection: close` while draining) still go out: Node merges them.
 */
export function writeHead(res: ServerResponse, status: number, headers: Record<string, string>): void {
  res.writeHead(status, headers);
}
