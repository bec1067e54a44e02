// Runs `market-stub record` in-process into a fresh temporary DIR and returns the ids it wrote.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliInProcess } from '../contract/contract-report-helpers.js';
import type { CliResult } from '../support/cli-process.js';

/** `record --base-url URL --all --out DIR --format json ...args` with `env`; the run and the market_ids of DIR/markets.json (empty when none). */
export async function recordInto(url: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ run: CliResult; ids: string[] }> {
  const out = await mkdtemp(path.join(tmpdir(), 'market-stub-network-record-'));
  try {
    const run = await runCliInProcess(['record', '--base-url', url, '--all', '--out', out, '--format', 'json', ...args], { env });
    const text = await readFile(path.join(out, 'markets.json'), 'utf8').catch(() => '[]');
    return { run, ids: (JSON.parse(text) as Array<{ market_id: string }>).map((m) => m.market_id) };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
