import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getText, runCliProcess, startServeProcess } from '../support/cli-process.js';

const BAD = new URL('../data/bad-markets.json', import.meta.url).pathname;

describe('market-stub validate', () => {
  it('exits 0 for the shipped fixtures', async () => {
    const res = await runCliProcess(['validate', new URL('../../fixtures', import.meta.url).pathname]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/\d+ markets in 1 file\(s\) are valid/);
  });

  it('exits 1 with the same problem lines serve prints', async () => {
    const [validate, serve] = await Promise.all([runCliProcess(['validate', BAD]), runCliProcess(['serve', '--port', '0', '--fixtures', BAD])]);
    expect(validate.code).toBe(1);
    const problems = (text: string) => text.split('\n').filter((l) => l.startsWith('  - '));
    expect(problems(validate.stderr)).toHaveLength(4);
    expect(problems(validate.stderr)).toEqual(problems(serve.stderr));
  });

  it('exits 2 for an unreadable path', async () => {
    const res = await runCliProcess(['validate', '/no/such/dir']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no such file or directory');
  });

  it('exits 1 for bad JSON with its line and column', async () => {
    const res = await runCliProcess(['validate', new URL('../data/broken.json', import.meta.url).pathname]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/invalid JSON at line \d+, column \d+/);
  });
});

describe('market-stub generate', () => {
  it('writes a fixtures file that serve --fixtures serves back byte-identically', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-gen-'));
    const out = path.join(dir, 'markets.json');
    const gen = await runCliProcess(['generate', '--seed', '7', '--count', '25', '--clock', '2026-01-01', '--out', out]);
    expect(gen.code).toBe(0);
    expect(readdirSync(dir)).toEqual(['markets.json']);
    expect((await runCliProcess(['validate', out])).code).toBe(0);
    const [generated, fromFile] = await Promise.all([
      startServeProcess(['--port', '0', '--seed', '7', '--count', '25', '--clock', '2026-01-01', '--quiet']),
      startServeProcess(['--port', '0', '--fixtures', out, '--quiet']),
    ]);
    try {
      expect((await getText(`${fromFile.url}/markets`)).text).toBe((await getText(`${generated.url}/markets`)).text);
      const first = (JSON.parse(readFileSync(out, 'utf8')) as { market_id: string }[])[0]?.market_id ?? '';
      expect((await getText(`${fromFile.url}/markets/${first}`)).text).toBe((await getText(`${generated.url}/markets/${first}`)).text);
    } finally {
      await Promise.all([generated.stop(), fromFile.stop()]);
    }
  });

  it('prints to stdout without --out and rejects a bad clock with exit 2', async () => {
    const ok = await runCliProcess(['generate', '--count', '2', '--clock', '2026-01-01']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toHaveLength(2);
    const bad = await runCliProcess(['generate', '--clock', '2026-02-30']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-02-30"');
  });
});
