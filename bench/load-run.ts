// One bounded autocannon run against one server, with latencies kept at sub-millisecond precision.
import autocannon, { type AutocannonResult } from 'autocannon';
import { percentileOfSorted } from './bench-stats.js';
import { runWrk } from './wrk-run.js';

/** What one run sends. */
export interface LoadPlan {
  /** Server origin, `http://127.0.0.1:PORT`. */
  url: string;
  /** Paths each connection cycles through in order (e.g. all 1,000 `/markets/{id}`). */
  paths: readonly string[];
  durationS: number;
  connections: number;
  pipelining: number;
  /** Request headers per path (the same index as `paths`), e.g. each market's `If-None-Match`. */
  headers?: readonly Readonly<Record<string, string>>[];
  /** The status every answer must have, when not a 2xx: 304 for a run of conditional GETs. */
  expectStatus?: number;
}

/** Figures of one run. Rates count 2xx responses only. */
export interface LoadSample {
  reqPerSec: number;
  /** Latency percentiles in ms (nearest rank over every 2xx response of the run). */
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** 2xx responses. */
  requests: number;
  /** Bytes read per second (2xx responses, headers included). */
  bytesPerSec: number;
  /** Wall time of the run in s as autocannon measured it. */
  durationS: number;
}

/**
 * Loads `plan.url` for `plan.durationS` seconds with wrk (wrk-run.ts) or autocannon (programmatic API).
 *
 * autocannon records latencies in a histogram of whole milliseconds, which reads 0 ms for every
 * response of a fast server on loopback; the harness therefore keeps each response's time from
 * autocannon's `response` event (float ms from process.hrtime) and takes percentiles itself.
 * `sampleInt` is 100 ms because autocannon only checks its stop condition when it samples: at the
 * default 1 s a 0.2 s run would last 1 s.
 * A watchdog stops the run at twice its duration plus 10 s.
 * @throws Error when any request failed, timed out or got a non-2xx status: a rate that counts
 *   errors or 404s would not measure serving markets.
 */
export async function runLoad(plan: LoadPlan, generator: 'wrk' | 'autocannon' = 'autocannon'): Promise<LoadSample> {
  if (generator === 'wrk') return runWrk(plan);
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: plan.url,
        connections: plan.connections,
        pipelining: plan.pipelining,
        duration: plan.durationS,
        sampleInt: 100,
        timeout: 10,
        requests: plan.paths.map((path, i) => ({ method: 'GET', path, ...(plan.headers?.[i] ? { headers: { ...plan.headers[i] } } : {}) })),
      },
      (error, res) => {
        clearTimeout(watchdog);
        if (error) reject(error);
        else resolve(res);
      },
    );
    const watchdog = setTimeout(() => instance.stop(), (plan.durationS * 2 + 10) * 1000);
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
      if (!expected(plan, statusCode)) return;
      if (n === latencies.length) {
        const bigger = new Float64Array(latencies.length * 2);
        bigger.set(latencies);
        latencies = bigger;
      }
      latencies[n++] = responseTimeMs;
    });
  });
  const ok = plan.expectStatus === undefined ? result['2xx'] : (result.statusCodeStats[String(plan.expectStatus)]?.count ?? 0);
  // A 304 is a non-2xx to autocannon: every answer is either the status expected or counted against the run.
  const others = plan.expectStatus === undefined ? result.non2xx : Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0) - ok;
  if (result.errors > 0 || result.timeouts > 0 || others > 0 || ok === 0) {
    throw new Error(
      `load run on ${plan.url}${plan.paths[0] ?? ''} was not clean: ${ok} 2xx, ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} timeouts. Check the server's stderr and that the paths exist.`,
    );
  }
  const sorted = latencies.subarray(0, n).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i] as number;
  return {
    reqPerSec: ok / result.duration,
    p50Ms: percentileOfSorted(sorted, 50),
    p99Ms: percentileOfSorted(sorted, 99),
    meanMs: sum / n,
    requests: ok,
    bytesPerSec: result.totalBytes / result.duration,
    durationS: result.duration,
  };
}

/** Whether a status is the one a run expects: `plan.expectStatus`, or any 2xx. */
function expected(plan: LoadPlan, statusCode: number): boolean {
  return plan.expectStatus === undefined ? statusCode >= 200 && statusCode <= 299 : statusCode === plan.expectStatus;
}
