import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliProcess, startServeProcess } from '../support/cli-process.js';

describe('serve: profile, behaviour and admin options', () => {
  it('takes profile and admin options from flags and MARKET_STUB_* variables', async () => {
    const stub = await startServeProcess(['--port', '0', '--count', '12', '--paging', 'cursor', '--page-size', '5', '--admin-token', 'tok'], { env: { MARKET_STUB_ENVELOPE: 'markets', MARKET_STUB_ERRORS: 'problem' } });
    try {
      const first = (await (await fetch(`${stub.url}/markets`)).json()) as { markets: unknown[]; next_cursor: string };
      expect(first.markets).toHaveLength(5);
      expect(typeof first.next_cursor).toBe('string');
      const missing = await fetch(`${stub.url}/markets/none`);
      expect(missing.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect((await fetch(`${stub.url}/__stub/requests`)).status).toBe(401);
      expect((await fetch(`${stub.url}/__stub/requests`, { headers: { authorization: 'Bearer tok' } })).status).toBe(200);
    } finally {
      await stub.stop();
    }
  });

  it('loads per-market rules from --behaviours FILE and logs what was applied', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-rules-'));
    const file = path.join(dir, 'rules.json');
    writeFileSync(file, JSON.stringify([{ match: { route: 'list' }, behaviour: { status: 503, retryAfter: 2 } }]));
    const stub = await startServeProcess(['--port', '0', '--count', '3', '--behaviours', file, '--admin', 'off']);
    try {
      const res = await fetch(`${stub.url}/markets`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect((await fetch(`${stub.url}/__stub/requests`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 100));
      expect(stub.output().stdout).toMatch(/GET \/markets 503 [\d.]+ ms \[status=503 \(rule r1\)\]/);
    } finally {
      await stub.stop();
    }
  });

  it.each([
    [['--paging', 'pages'], '--paging: expected one of none, offset, cursor, found "pages".'],
    [['--error-rate', '2'], '--error-rate: expected a number from 0 to 1, found "2".'],
    [['--behaviours', '/no/such.json'], '--behaviours: cannot read behaviour rules from /no/such.json'],
    [['--market-fault', 'missing=0.1'], '--market-fault: unknown option'],
  ])('refuses %j with exit 2 and a clear message', async (args, message) => {
    const res = await runCliProcess(['serve', '--port', '0', ...args]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stdout).toBe('');
  });
});
