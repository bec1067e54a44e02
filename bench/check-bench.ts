// Benchmark: `check` of a 200,000-market list (list validation + 50 sampled items) against a
// local stub on 127.0.0.1. Run with `npx tsx bench/check-bench.ts [count] [runs]`; not part of npm test.
// Prints wall time per run and the peak heap/RSS growth over the baseline, next to the list body size.
import { checkDeployment } from '../src/contract/crawl-deployment.js';
import { startMarketStub } from '../src/stub.js';

const count = Number(process.argv[2] ?? 200_000);
const runs = Number(process.argv[3] ?? 3);

// Conforming markets built directly (the seeded generator takes minutes for 200,000): active,
// prices on the 0.01 tick summing to 1, a future resolution date, no extra fields.
const markets = Array.from({ length: count }, (_, i) => {
  const cents = 1 + ((i * 37) % 99);
  return {
    market_id: `BENCH-${String(i + 1).padStart(6, '0')}`,
    title: `Will benchmark market number ${i + 1} resolve yes by the end of the quarter?`,
    status: 'active',
    yes_price: cents / 100,
    no_price: (100 - cents) / 100,
    resolution_date: '2099-12-31',
  };
});
const stub = await startMarketStub({ markets, clock: '2026-01-01' });
const bodyBytes = (await (await fetch(`${stub.url}/markets`)).arrayBuffer()).byteLength;
console.log(`stub: ${count} markets, GET /markets body ${(bodyBytes / 1e6).toFixed(1)} MB, on ${stub.url}`);

for (let run = 1; run <= runs; run++) {
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed + m.external + m.arrayBuffers);
    peakRss = Math.max(peakRss, m.rss);
  }, 5);
  const start = performance.now();
  const report = await checkDeployment({ baseUrl: stub.url, maxMarkets: 50 });
  const ms = performance.now() - start;
  clearInterval(sampler);
  const heapGrowth = peakHeap - (base.heapUsed + base.external + base.arrayBuffers);
  console.log(
    `run ${run}: ${(ms / 1000).toFixed(2)} s, verdict ${report.verdict} (${report.summary.errors} errors, ${report.summary.warnings} warnings), ` +
      `${report.summary.marketsListed} listed + ${report.summary.marketsChecked} items, ` +
      `peak heap growth ${(heapGrowth / 1e6).toFixed(0)} MB (${(heapGrowth / bodyBytes).toFixed(1)}× the body), peak RSS growth ${((peakRss - base.rss) / 1e6).toFixed(0)} MB`,
  );
}
await stub.close();
