import PQueue from 'p-queue';
import type { RateLimitReading } from './rate-limit-fields.js';
import { waitUntil } from './request-timing.js';

/**
 * The pace of one crawl's requests to a deployment: at most `concurrency` attempts in flight
 * (p-queue), none before a reset the deployment announced, and, once it announced a quota over a
 * window of a minute at most, no two starts closer than the quota allows. The concurrency is adaptive (additive increase,
 * multiplicative decrease, as TCP congestion control): halved on each 429, never below 1, and
 * raised by 1 after as many answers without a 429 as requests in flight, never above the start.
 */
export interface RequestPacer {
  /** Runs one attempt when the pace allows it; a retry goes before the requests not yet started. */
  run<T>(attempt: () => Promise<T>, retry: boolean): Promise<T>;
  /** Learns from an answer that is not a 429: the quota its rate-limit fields announce, a window used up (held until its reset). */
  answered(reading: RateLimitReading): void;
  /** A 429: halves the concurrency (never below 1) and holds every request for `waitMs`. */
  limited(waitMs: number): void;
  /** Holds every request for `waitMs` (a 503's Retry-After), the concurrency unchanged. */
  hold(waitMs: number): void;
  /** Concurrency now, and the lowest it reached. */
  readonly concurrency: number;
  readonly lowest: number;
}

/** A quota is kept to by spacing requests only for windows up to this long (a rate per second or minute, not a daily budget). */
const SPACED_WINDOW_MS = 60_000;

/**
 * Creates the pacer of one client, `connections` requests at once at most. A used-up window is
 * held for only up to `capMs` (--retry-after-max-ms): past it, the 429 that follows stops the run.
 */
export function createRequestPacer(connections: number, signal: AbortSignal | undefined, capMs: number): RequestPacer {
  const queue = new PQueue({ concurrency: connections });
  let notBefore = 0;
  let spacingMs = 0;
  let lastStart = 0;
  let calm = 0;
  let lowest = connections;
  const hold = (ms: number) => {
    notBefore = Math.max(notBefore, performance.now() + ms);
  };
  return {
    run(attempt, retry) {
      return queue.add(async () => {
        await waitUntil(notBefore, signal);
        // Reserve a start time at the announced quota's spacing (synchronously: no two callers share it).
        const start = Math.max(performance.now(), lastStart + spacingMs);
        lastStart = start;
        await waitUntil(Math.max(start, notBefore), signal);
        return attempt();
      }, { priority: retry ? 1 : 0 }) as Promise<Awaited<ReturnType<typeof attempt>>>;
    },
    answered(reading) {
      const spacing = reading.quota !== undefined && reading.windowMs !== undefined && reading.windowMs <= SPACED_WINDOW_MS ? reading.windowMs / reading.quota : 0;
      // A spacing past the cap is not kept to: the 429 that follows names the bound (exit 2).
      if (spacing <= capMs) spacingMs = Math.max(spacingMs, spacing);
      if (reading.remaining === 0 && reading.resetMs !== undefined && reading.resetMs <= capMs) hold(reading.resetMs);
      if (++calm >= queue.concurrency && queue.concurrency < connections) {
        queue.concurrency += 1;
        calm = 0;
      }
    },
    limited(waitMs) {
      calm = 0;
      queue.concurrency = Math.max(1, Math.floor(queue.concurrency / 2));
      lowest = Math.min(lowest, queue.concurrency);
      hold(waitMs);
    },
    hold,
    get concurrency() {
      return queue.concurrency;
    },
    get lowest() {
      return lowest;
    },
  };
}
