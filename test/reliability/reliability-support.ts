import { appendFileSync, readFileSync } from 'node:fs';

export { exchange, parseResponse, type WireResponse } from '../support/raw-http.js';

/** `quick` (CI, a few minutes) or `full`; set by run-reliability.ts. */
export const MODE = process.env['MARKET_STUB_RELIABILITY'] === 'full' ? 'full' : 'quick';
export const QUICK = MODE === 'quick';

/** Records one measured figure (printed by run-reliability.ts and copied into the README). */
export function figure(name: string, value: string): void {
  const file = process.env['MARKET_STUB_RELIABILITY_FIGURES'];
  const line = `${name}: ${value}`;
  if (file) appendFileSync(file, `${line}\n`);
  else console.log(line);
}

/** Resident set size of a process, bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

/** Percentile of a sorted-on-the-fly copy of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
