/** Abort reasons of a deployment request, and the wait before a retry: kept apart so a failure can tell a time-out from the caller's abort. */

/** Resolves at `performance.now()` time `at`, or at once when `signal` aborts. */
export async function waitUntil(at: number, signal: AbortSignal | undefined): Promise<void> {
  const ms = at - performance.now();
  if (ms <= 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The abort reason of a request that ran past its time limit. */
export class TimeoutSignal extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** The abort reason of a request the caller stopped (SIGINT/SIGTERM). */
export class CallerAbort extends Error {
  constructor() {
    super('aborted by the caller');
    this.name = 'AbortError';
  }
}
