// `market-stub serve --deviation NAME[=RATE]` (and MARKET_STUB_DEVIATION) as a real process: what it
// serves, how a bad value is refused before anything starts, and the removed --market-fault.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliProcess, startServeProcess } from '../support/cli-process.js';

describe('serve --deviation', () => {
  it('serves deviations from flags and MARKET_STUB_DEVIATION, and says so in the request log', async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '40', '--clock', '2030-01-01', '--log-format', 'text', '--deviation', 'string-price=0.5', '--deviation', 'list-bom'], { env: { MARKET_STUB_DEVIATION: 'ignored-because-the-flag-wins' } });
    try {
      const raw = Buffer.from(await (await fetch(`${stub.url}/markets`)).arrayBuffer());
      expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const markets = JSON.parse(raw.subarray(3).toString()) as { yes_price: unknown }[];
      const strings = markets.filter((m) => typeof m.yes_price === 'string').length;
      expect(strings).toBeGreaterThan(8);
      expect(strings).toBeLessThan(32);
      await new Promise((r) => setTimeout(r, 100));
      expect(stub.output().stdout).toMatch(/GET \/markets 200 [\d.]+ ms \[deviation=list-bom\]/);
    } finally {
      await stub.stop();
    }
    const fromEnv = await startServeProcess(['--port', '0', '--count', '5'], { env: { MARKET_STUB_DEVIATION: 'non-active-status, list-wrong-content-type' } });
    try {
      const res = await fetch(`${fromEnv.url}/markets`);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(((await res.json()) as { status: string }[]).every((m) => m.status === 'suspended')).toBe(true);
    } finally {
      await fromEnv.stop();
    }
  });

  it.each([
    [['--deviation', 'strng-price'], '--deviation: expected a deviation name (did you mean string-price?'],
    [['--deviation', 'bom'], '--deviation: expected a deviation name (did you mean item-bom or list-bom?'],
    [['--deviation', 'string-price=2'], '--deviation: expected NAME or NAME=RATE with RATE a share of markets from 0 to 1, found "string-price=2".'],
    [['--deviation', 'list-500=0.5'], '--deviation: expected list-500 without =RATE (it changes the whole list), found "list-500=0.5".'],
  ])('refuses %j with exit 2 and nothing started', async (args, message) => {
    const res = await runCliProcess(['serve', '--port', '0', ...args]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stdout).toBe('');
  });

  it('names MARKET_STUB_DEVIATION when the variable is wrong', async () => {
    const res = await runCliProcess(['serve', '--port', '0'], { env: { MARKET_STUB_DEVIATION: 'item-bom,nope' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('MARKET_STUB_DEVIATION: expected a deviation name');
  });

  it('takes deviations from the config file (key "deviation") and names the file and pointer of a bad one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-deviation-config-'));
    const good = path.join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ serve: { count: 5, deviation: ['non-active-status', 'list-bom'] } }));
    const stub = await startServeProcess(['--port', '0', '--config', good]);
    try {
      const raw = Buffer.from(await (await fetch(`${stub.url}/markets`)).arrayBuffer());
      expect(raw[0]).toBe(0xef);
      expect((JSON.parse(raw.subarray(3).toString()) as { status: string }[]).every((m) => m.status === 'suspended')).toBe(true);
    } finally {
      await stub.stop();
    }
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ serve: { deviation: ['item-bom', 'strng-price=0.1'] } }));
    const res = await runCliProcess(['serve', '--port', '0', '--config', bad]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/bad\.json \/serve\/deviation: expected a deviation name \(did you mean string-price\?/);
  });

  it('refuses --market-fault, removed in 0.3 (deviations replace the domain faults), before anything starts', async () => {
    const res = await runCliProcess(['serve', '--port', '0', '--market-fault', 'missing=0.5']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--market-fault: unknown option');
  });
});
