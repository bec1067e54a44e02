// The crawl's option defaults and limits live on the floor: the CLI's option tables read them
// without loading the crawl, and the library's crawl checks the same numbers.

/**
 * Defaults of the crawl options, as documented in docs/contract-check.md. `concurrency` 8 was
 * chosen by measurement (bench/check-bench.ts): against a local stub, 10,000 markets take about
 * as long at 8 as at 16 or 32, and 8 connections stay polite to a production deployment.
 */
export const CRAWL_DEFAULTS = { timeoutMs: 10_000, maxMarkets: 50, concurrency: 8, maxPages: 1000, maxBodyMb: 64, retries: 2, retryAfterMaxMs: 10_000, slowMs: 2000 } as const;

/** Limits of the numeric crawl options (inclusive). */
export const CRAWL_LIMITS = {
  timeoutMs: [1, 600_000], maxMarkets: [0, 10_000_000], concurrency: [1, 256], maxPages: [1, 1_000_000], maxBodyMb: [1, 4096], retries: [0, 10], retryAfterMaxMs: [0, 600_000], slowMs: [1, 600_000],
} as const;
