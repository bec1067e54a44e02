// The part of autocannon 8's programmatic API the harness uses (the package ships no types).
// Source: node_modules/autocannon/README.md "API" and lib/run.js.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface AutocannonRequest {
    method?: string;
    /** Path and query, e.g. `/markets/ABC-1`. */
    path?: string;
    headers?: Record<string, string>;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    /** Seconds; checked every `sampleInt` ms. */
    duration?: number;
    /** Milliseconds between samples; also how often the stop condition is checked. @default 1000 */
    sampleInt?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    /** Stop after this many requests in total (instead of a duration). */
    amount?: number;
    /** Each connection loops over this list in order. */
    requests?: AutocannonRequest[];
  }

  export interface AutocannonResult {
    /** Seconds, rounded to 10 ms. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    mismatches: number;
    '2xx': number;
    totalBytes: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface AutocannonInstance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
    /** (client, statusCode, responseBytes, responseTimeMs) for every completed response. */
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  function autocannon(options: AutocannonOptions, callback: (error: Error | null, result: AutocannonResult) => void): AutocannonInstance;
  export default autocannon;
}
