// The crawl's option defaults and limits live on the floor: the CLI's option tables read them
// without loading the crawl, and the library's crawl checks the same numbers.

/**
 * Defaults of the crawl options, as documented in docs/contract-check.md. `concurrency` 8 was
 * chosen by measurement (bench/check-bench.ts): against a local stub, 10,000 markets take about
 * as long at 8 as at 16 or 32, and 8 connections stay polite to a production deployment.
 * `maxMarketBytes` 8 MiB: reaching it stops the run (exit 2), so it must sit far above what
 * deployments send (the largest real single market in /work/shared/data/real-samples is 12 KB; an
 * earlier test deployment had a 5 MiB title, which the contract does not bound), and
 * IN_FLIGHT_MARKET_BYTES / 8 MiB = 8 keeps the default concurrency whole within the same 64 MiB.
 */
export const CRAWL_DEFAULTS = { timeoutMs: 10_000, maxMarkets: 50, concurrency: 8, maxPages: 1000, maxBodyMb: 64, maxMarketBytes: 8 * 1_048_576, retries: 2, retryAfterMaxMs: 10_000, slowMs: 2000 } as const;

/**
 * Bytes of single-market bodies the crawl reads at once, whatever `concurrency` is: single-market
 * requests in flight are at most `IN_FLIGHT_MARKET_BYTES / maxMarketBytes` (8 at the default
 * 8 MiB, the default concurrency). Each body is held whole while it is checked (as UTF-8 bytes, then as text), so this and
 * `maxMarketBytes` bound the crawl's memory for bodies: against answers that never end, 8 of
 * 64 MiB each once took 1.29 GB.
 */
export const IN_FLIGHT_MARKET_BYTES = 64 * 1_048_576;

/** Limits of the numeric crawl options (inclusive). */
export const CRAWL_LIMITS = {
  timeoutMs: [1, 600_000], maxMarkets: [0, 10_000_000], concurrency: [1, 256], maxPages: [1, 1_000_000], maxBodyMb: [1, 4096], maxMarketBytes: [1024, IN_FLIGHT_MARKET_BYTES], retries: [0, 10], retryAfterMaxMs: [0, 600_000], slowMs: [1, 600_000],
} as const;
