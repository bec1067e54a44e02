// A dashboard-style poller (docs/caching.md, "A poller against a running clock"): reads
// GET /markets every --interval ms with the ETag of the last 200 in If-None-Match, counts the 304s
// (nothing changed, no body sent) and the 200s, and prints each market whose price changed.
//
//   npm start -- --clock-rate 60                   # a minute of stub time a second: prices step every second
//   node examples/poller.mjs http://127.0.0.1:4010 --interval 250 --for 10
//
// Prints `200 100 markets` on the first read, `200 3 prices changed: ID 0.41 → 0.42, …` on each
// change, and last `N polls in S s: A × 200, B × 304, C price changes`. Exits 1 when the stub
// answers anything but 200 or 304, or cannot be reached. Node >= 20 (fetch, util.parseArgs).
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    interval: { type: 'string', default: '1000' },
    for: { type: 'string', default: '30' },
  },
});
const base = positionals[0] ?? 'http://127.0.0.1:4010';
const intervalMs = Number(values.interval);
const seconds = Number(values.for);
if (!(intervalMs >= 50 && intervalMs <= 3_600_000) || !(seconds > 0 && seconds <= 86_400)) {
  console.error(`poller: --interval takes 50 to 3600000 ms and --for 1 to 86400 s (found ${values.interval}, ${values.for})`);
  process.exit(2);
}

/** The yes_price of each market of a list answer (a bare array, or the `markets` envelope). */
function pricesOf(body) {
  const markets = Array.isArray(body) ? body : body.markets;
  return new Map(markets.map((m) => [m.market_id, m.yes_price]));
}

/** The markets whose price differs between two reads, as `ID 0.41 → 0.42`. */
function changes(before, after) {
  return [...after].filter(([id, price]) => before.has(id) && before.get(id) !== price).map(([id, price]) => `${id} ${before.get(id)} → ${price}`);
}

let etag;
let prices;
const counts = { 200: 0, 304: 0, changes: 0 };
const started = Date.now();
let polls = 0;
while (Date.now() - started < seconds * 1000) {
  polls += 1;
  let response;
  try {
    response = await fetch(`${base}/markets`, { headers: etag === undefined ? {} : { 'if-none-match': etag }, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    console.error(`poller: GET ${base}/markets failed (${error.cause?.code ?? error.message}); is the stub running?`);
    process.exit(1);
  }
  if (response.status === 304) {
    counts[304] += 1;
  } else if (response.status === 200) {
    counts[200] += 1;
    etag = response.headers.get('etag') ?? undefined;
    const next = pricesOf(await response.json());
    if (prices === undefined) console.log(`200 ${next.size} markets`);
    else {
      const changed = changes(prices, next);
      counts.changes += changed.length;
      console.log(`200 ${changed.length} prices changed: ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}`);
    }
    prices = next;
  } else {
    console.error(`poller: GET ${base}/markets answered ${response.status}`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
}
console.log(`${polls} polls in ${((Date.now() - started) / 1000).toFixed(1)} s: ${counts[200]} × 200, ${counts[304]} × 304, ${counts.changes} price changes`);
