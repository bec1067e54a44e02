import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonResult } from 'autocannon';
import { describe, expect, it } from 'vitest';
import { startServeProcess } from '../support/cli-process.js';
import { figure, percentile, QUICK, rssOf } from './reliability-support.js';

const SOAK_S = QUICK ? 20 : 60;
const ABUSE_S = QUICK ? 10 : 30;

/** GET `url` (keep-alive, as a client library would), returning the time to the full answer, ms. */
async function timedGet(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  // The abusers replace the catalog, so a market route may answer 404: still the market route answering.
  if (res.status !== 200 && res.status !== 404) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - t;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

describe('soak', () => {
  it(`RSS stays flat over a ${SOAK_S} s soak with 8 KiB headers, the journal full (bytes bound) and journal reads`, async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '200', '--quiet', '--journal-size', '100000', '--journal-bytes', String(16 * 2 ** 20)], { env: { MARKET_STUB_CLOCK: '2026-01-01' } });
    const pid = stub.child.pid ?? 0;
    const id = ((await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[])[3]?.market_id ?? '';
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssOf(pid)), 500);
    let reads = 0;
    let stopReads = false;
    const reader = (async () => {
      while (!stopReads) {
        const res = await fetch(`${stub.url}/__stub/requests?limit=1000`);
        await res.arrayBuffer();
        reads += 1;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const result = await new Promise<AutocannonResult>((resolve, reject) => {
      autocannon({ url: stub.url, connections: 20, duration: SOAK_S, requests: [{ path: `/markets/${id}`, headers: { 'x-padding': 'p'.repeat(8 * 1024), authorization: 'Bearer soak-secret' } }] }, (error, r) => (error ? reject(error) : resolve(r)));
    });
    const total = result['2xx'] + result.non2xx;
    stopReads = true;
    await reader;
    clearInterval(sampler);
    const journal = (await (await fetch(`${stub.url}/__stub/requests?limit=0`)).json()) as { total: number; size: number; bytes: number; maxBytes: number };
    await stub.stop();
    // Flat: after the first quarter (warm-up, journal filling) RSS moves within the GC's sawtooth
    // (about ±50 MB here), with no upward trend: the median of the last third is no higher than the
    // median of the middle third plus 32 MB. Medians, not peaks: one late GC peak in a 20 s window
    // is the sawtooth, not growth (a 120 s run by hand stayed in 248–308 MB).
    const steady = samples.slice(Math.floor(samples.length / 4));
    const band = Math.max(...steady) - Math.min(...steady);
    const third = Math.floor(samples.length / 3);
    const middlePeak = Math.max(...samples.slice(third, 2 * third));
    const lastPeak = Math.max(...samples.slice(2 * third));
    const middleMedian = median(samples.slice(third, 2 * third));
    const lastMedian = median(samples.slice(2 * third));
    const mb = (b: number) => (b / 2 ** 20).toFixed(0);
    figure('soak', `${SOAK_S} s, ${total} requests (${Math.round(total / SOAK_S)} req/s) with 8 KiB headers, ${reads} journal reads of 1,000 entries; journal ${journal.size} entries / ${mb(journal.bytes)} MB of ${mb(journal.maxBytes)} MB; RSS ${mb(samples[0] ?? 0)} → ${mb(samples.at(-1) ?? 0)} MB, steady-state band ${mb(band)} MB (min ${mb(Math.min(...steady))}, max ${mb(Math.max(...steady))}); median (peak) of the middle third ${mb(middleMedian)} (${mb(middlePeak)}) MB, of the last third ${mb(lastMedian)} (${mb(lastPeak)}) MB`);
    expect(result.errors).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(journal.bytes).toBeLessThanOrEqual(journal.maxBytes);
    expect(journal.total).toBeGreaterThan(journal.size);
    expect(lastMedian).toBeLessThanOrEqual(middleMedian + 32 * 2 ** 20);
    expect(Math.max(...samples)).toBeLessThan(600 * 2 ** 20);
  }, 120_000);
});

describe('admin abuse', () => {
  it(`no admin request delays /healthz or the market routes beyond 50 ms p99 while the admin API is abused (${ABUSE_S} s, against the same load of market requests)`, async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '1000', '--quiet'], { env: { MARKET_STUB_CLOCK: '2026-01-01' } });
    const id = ((await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[])[5]?.market_id ?? '';
    const latencies: Record<'admin' | 'market', number[]> = { admin: [], market: [] };
    const sent: Record<'admin' | 'market', number> = { admin: 0, market: 0 };
    // Interleaved rounds (the machine is shared: compare within one run): 12 clients in their own
    // process send admin abuse or, as the baseline, market requests; this process measures.
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      const mode = round % 2 === 0 ? 'admin' : 'market';
      const abuser = spawn(process.execPath, [fileURLToPath(new URL('./admin-abuser.mjs', import.meta.url)), stub.url, '12', mode], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      abuser.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const done = new Promise<void>((resolve) => abuser.once('exit', () => resolve()));
      await new Promise((r) => setTimeout(r, 300));
      const end = Date.now() + (ABUSE_S * 1000) / rounds;
      while (Date.now() < end) {
        latencies[mode].push(await timedGet(`${stub.url}/healthz`));
        latencies[mode].push(await timedGet(`${stub.url}/markets/${id}`));
        await new Promise((r) => setTimeout(r, 5));
      }
      abuser.kill('SIGTERM');
      await done;
      sent[mode] += Number(out.trim()) || 0;
    }
    await stub.stop();
    const show = (mode: 'admin' | 'market') => `p50 ${percentile(latencies[mode], 50).toFixed(1)} ms, p99 ${percentile(latencies[mode], 99).toFixed(1)} ms, max ${Math.max(...latencies[mode]).toFixed(1)} ms over ${latencies[mode].length}`;
    const added = percentile(latencies.admin, 99) - percentile(latencies.market, 99);
    figure('admin abuse', `${ABUSE_S} s in ${rounds} interleaved rounds, 12 clients; under ${sent.admin} admin requests (1,300-market PUTs near the 256 KiB body limit, 2 MB and 400,000-level bodies, journal and catalog reads, ticks, patches): ${show('admin')}; under ${sent.market} market requests (baseline): ${show('market')}; p99 added by the admin API ${added.toFixed(1)} ms`);
    expect(added).toBeLessThan(50);
  }, 180_000);
});
