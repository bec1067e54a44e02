// Abuses a stub's admin API from its own process until killed: large PUTs, oversized and deeply
// nested bodies, journal and catalog reads, ticks and patches, from `clients` concurrent loops.
// Usage: node admin-abuser.mjs URL CLIENTS [admin|market]. `market` sends as many cheap market
// requests instead (the baseline load). Prints the number of requests sent on SIGTERM.
const [url, clientsText = '12', mode = 'admin'] = process.argv.slice(2);
const json = { 'content-type': 'application/json' };
const bigPut = JSON.stringify(Array.from({ length: 1_300 }, (_, i) => ({ market_id: `abuse-${i}`, title: `Will abuse ${i} end?`, status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2027-01-01', notes: 'n'.repeat(20) })));
const oversized = ' '.repeat(2_000_000);
const deep = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
const abuses = [
  () => fetch(`${url}/__stub/markets`, { method: 'PUT', headers: json, body: bigPut }),
  () => fetch(`${url}/__stub/markets`, { method: 'PUT', headers: json, body: oversized }),
  () => fetch(`${url}/__stub/markets`, { method: 'PUT', headers: json, body: deep }),
  () => fetch(`${url}/__stub/requests?limit=1000`),
  () => fetch(`${url}/__stub/markets`),
  () => fetch(`${url}/__stub/tick`, { method: 'POST', headers: json, body: '{"n":70}' }),
  () => fetch(`${url}/__stub/markets/abuse-1`, { method: 'PATCH', headers: json, body: '{"title":"patched"}' }),
];
let sent = 0;
let stop = false;
process.on('SIGTERM', () => { stop = true; });
await Promise.all(Array.from({ length: Number(clientsText) }, async (_, k) => {
  for (let i = k; !stop; i++) {
    const call = mode === 'market' ? () => fetch(`${url}/markets?i=${i}`) : abuses[i % abuses.length];
    await call().then((r) => r.arrayBuffer()).catch(() => undefined);
    sent += 1;
  }
}));
process.stdout.write(`${sent}\n`);
