#!/usr/bin/env node
// One micro-benchmark in a fresh Node process, so each starts from cold module and JIT state as a
// user's process would. Run by bench/micro-benchmarks.ts; prints one JSON object on stdout.
// Plain JavaScript on purpose: a TypeScript loader would sit inside the import timings.
//
//   node bench/micro-probe.mjs generation <dist dir> <count>
//   node bench/micro-probe.mjs validation <dist dir> <count>
//   node bench/micro-probe.mjs start-stub <entry module> <count> <warm starts>
import { request } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [task, target, countText, warmText] = process.argv.slice(2);
const count = Number(countText);
if (!task || !target || !Number.isSafeInteger(count) || count <= 0) {
  process.stderr.write('usage: micro-probe.mjs generation|validation|start-stub <dist dir or entry> <count> [warm starts]\n');
  process.exit(2);
}
const OPTIONS = { seed: 1, clock: '2026-01-01' };
const load = (file) => import(pathToFileURL(path.resolve(file)).href);

/** Runs `pass` until at least `minMs` have passed (at least once); returns items per second. */
function rate(itemsPerPass, pass, minMs) {
  let passes = 0;
  const t0 = performance.now();
  let elapsed;
  do {
    pass();
    passes++;
    elapsed = performance.now() - t0;
  } while (elapsed < minMs);
  return { perSecond: (itemsPerPass * passes) / (elapsed / 1000), passes, ms: elapsed };
}

function getJson(url) {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    }).on('error', reject).end();
  });
}

async function generation() {
  const { generateMarkets } = await load(path.join(target, 'index.js'));
  // No warm-up: the figure is what a fresh process pays, json-schema-faker's value pools included
  // (the goal: ≥ 100,000 markets/s with the pools drawn inside the timing).
  const t0 = performance.now();
  const markets = generateMarkets(count, OPTIONS);
  const ms = performance.now() - t0;
  if (markets.length !== count) throw new Error(`generateMarkets(${count}) returned ${markets.length} markets`);
  return { count, ms, marketsPerSecond: count / (ms / 1000) };
}

async function validation() {
  const { generateMarkets, getMarketValidator } = await load(path.join(target, 'index.js'));
  const markets = generateMarkets(count, OPTIONS);
  const tCompile = performance.now();
  const validator = getMarketValidator();
  const compileMs = performance.now() - tCompile;
  let invalid = 0;
  let findings = 0;
  for (let i = 0; i < Math.min(100, count); i++) validator.isMarket(markets[i]);
  const isMarket = rate(count, () => {
    for (const m of markets) if (!validator.isMarket(m)) invalid++;
  }, 300);
  const market = rate(count, () => {
    for (const m of markets) findings += validator.market(m).length;
  }, 300);
  if (invalid > 0 || findings > 0) throw new Error(`generated markets failed validation: ${invalid} isMarket false, ${findings} findings`);
  return { count, compileMs, isMarketPerSecond: isMarket.perSecond, marketPerSecond: market.perSecond };
}

async function startStub() {
  const warm = Number(warmText ?? '0');
  const t0 = performance.now();
  const entry = await load(target);
  const importMs = performance.now() - t0;
  if (typeof entry.startMarketStub !== 'function') throw new Error(`${target} does not export startMarketStub`);
  const t1 = performance.now();
  const stub = await entry.startMarketStub({ count, ...OPTIONS });
  const firstReadyMs = performance.now() - t1;
  const res = await getJson(`${stub.url}/markets`);
  await stub.close();
  if (res.status !== 200 || !Array.isArray(res.json) || res.json.length !== count) {
    throw new Error(`the started stub answered GET /markets with ${res.status} and ${Array.isArray(res.json) ? res.json.length : 'no'} markets, expected 200 and ${count}`);
  }
  const warmMs = [];
  for (let i = 0; i < warm; i++) {
    const t = performance.now();
    const again = await entry.startMarketStub({ count, ...OPTIONS });
    warmMs.push(performance.now() - t);
    await again.close();
  }
  return { count, importMs, firstReadyMs, warmMs };
}

const tasks = { generation, validation, 'start-stub': startStub };
const run = tasks[task];
if (!run) {
  process.stderr.write(`micro-probe: unknown task ${task}\n`);
  process.exit(2);
}
try {
  process.stdout.write(`${JSON.stringify(await run())}\n`);
} catch (error) {
  process.stderr.write(`micro-probe ${task}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
