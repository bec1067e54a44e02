// The server of bench/fetch-runtimes.ts, for Bun and Deno alike (bundled with market-stub/fetch):
// on STUB_PORT the Fetch handler, on BARE_PORT a bare handler of the same runtime answering the
// same targets with the same status, headers and body bytes, pre-serialised from the handler's own
// answers at start. Both on 127.0.0.1, both served by the runtime's own server. Prints one line,
// "bench ready <count of targets>", once both listen. With IN_PROCESS=<rounds>x<requests> it serves
// nothing: it calls both handlers directly in alternating rounds, prints the CPU µs per request of
// each round as one JSON line, and exits. CPU time (process.cpuUsage: Bun and Deno both have it),
// not wall time: on a shared machine a round of a few milliseconds of wall time is whatever the
// scheduler gave it (rounds of the same handler differed 10× in wall time here), while the CPU
// time the process used is what the handler cost.
import { createFetchHandler } from 'market-stub/fetch';

const env = (name) => (globalThis.Bun ? globalThis.Bun.env[name] : globalThis.Deno.env.get(name));
const serve = (port, fetch) =>
  globalThis.Bun ? globalThis.Bun.serve({ hostname: '127.0.0.1', port, fetch }) : globalThis.Deno.serve({ hostname: '127.0.0.1', port, onListen: () => {} }, fetch);

const stub = createFetchHandler(JSON.parse(env('MARKET_STUB_FETCH_OPTIONS') ?? '{}'));
const targets = ['/healthz', '/markets', ...(await stub.catalog()).map((m) => `/markets/${encodeURIComponent(m.market_id)}`)];
const answers = new Map();
for (const target of targets) {
  const response = await stub.fetch(new Request(`http://127.0.0.1${target}`));
  answers.set(target, { status: response.status, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) });
}
await stub.clearRequests();

function bare(request) {
  const url = new URL(request.url);
  const answer = answers.get(url.pathname + url.search);
  return answer === undefined ? new Response(null, { status: 404 }) : new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** CPU µs the process has used so far (user + system, every thread: a side's garbage collection counts for it). */
const cpuMicros = () => {
  const { user, system } = globalThis.process.cpuUsage();
  return user + system;
};

/** CPU µs per request of `handler` called directly (no server): a Request in, the body read out. */
async function microsPerRequest(handler, paths, n) {
  const started = cpuMicros();
  for (let i = 0; i < n; i++) await (await handler(new Request(`http://127.0.0.1${paths[i % paths.length]}`))).arrayBuffer();
  return (cpuMicros() - started) / n;
}

/** Requests per side before the rounds: enough for the engines' optimising tiers to take both handlers (JavaScriptCore's FTL, V8's TurboFan). */
const WARM_UP = 20_000;

/** IN_PROCESS=<rounds>x<requests>: rounds alternating the two handlers, one JSON line, then exit. */
async function inProcess([rounds, n]) {
  const routes = { item: targets.filter((t) => t.startsWith('/markets/')), list: ['/markets'] };
  const result = {};
  for (const [route, paths] of Object.entries(routes)) {
    const handler = (request) => stub.fetch(request);
    await microsPerRequest(handler, paths, WARM_UP);
    await microsPerRequest(bare, paths, WARM_UP);
    const figures = { stubUs: [], bareUs: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['stubUs', 'bareUs'] : ['bareUs', 'stubUs'];
      for (const side of order) figures[side].push(await microsPerRequest(side === 'stubUs' ? handler : bare, paths, n));
    }
    result[route] = figures;
  }
  console.log(JSON.stringify(result));
}

const plan = env('IN_PROCESS');
if (plan) {
  await inProcess(plan.split('x').map(Number));
} else {
  serve(Number(env('STUB_PORT')), (request) => stub.fetch(request));
  serve(Number(env('BARE_PORT')), bare);
  console.log(`bench ready ${targets.length}`);
}
