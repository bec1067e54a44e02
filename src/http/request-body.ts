import type { IncomingMessage } from 'node:http';

/**
 * A Node request's body as the core reads it: its chunks as they arrive, pulled with `read()` (so
 * nothing is read before the core asks, after its token and media-type checks). Leaving the loop
 * early (the body is over the admin API's limit) stops reading without destroying the socket, so
 * the refusal can still be written; the adapter then closes the connection. A client that goes away
 * mid-body makes the loop throw `request aborted`.
 */
export function requestBody(req: IncomingMessage): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          for (;;) {
            const chunk = req.read() as Uint8Array | null;
            if (chunk !== null) return { done: false, value: chunk };
            if (req.readableEnded) return { done: true, value: undefined };
            if (req.destroyed) throw new Error('request aborted');
            await arrival(req);
          }
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Resolves when the request has more to read, ends, or closes; rejects on its error. */
function arrival(req: IncomingMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      req.off('readable', done);
      req.off('end', done);
      req.off('close', done);
      req.off('error', fail);
      resolve();
    };
    const fail = (error: Error) => {
      done();
      reject(new Error(`request aborted (${error.message})`));
    };
    req.on('readable', done);
    req.on('end', done);
    req.on('close', done);
    req.on('error', fail);
  });
}
