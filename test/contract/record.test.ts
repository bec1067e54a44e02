// `market-stub record`: the serve → record → serve round trip, atomic replacement of a fixture set
// (a record killed mid-write leaves the previous set intact), invalid answers, and tokens.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../../src/index.js';
import { CLI, getText, runCliProcess, startServeProcess } from '../support/cli-process.js';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer, type RawMarket } from './deviant-server.js';
import { runCliInProcess } from './contract-report-helpers.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-record-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** GET /markets and every GET /markets/{id} of a running stub, as raw body texts. */
/** The entries of a directory a person sees (not the hidden pointer and sets of a recorded DIR). */
async function visible(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => !name.startsWith('.')).sort();
}

async function bodies(url: string): Promise<{ list: string; items: string[] }> {
  const list = (await getText(`${url}/markets`)).text;
  const ids = (JSON.parse(list) as Market[]).map((m) => m.market_id);
  const items: string[] = [];
  for (const id of ids) items.push((await getText(`${url}/markets/${encodeURIComponent(id)}`)).text);
  return { list, items };
}

describe('record round trip', () => {
  it('serve --seed 7 --count 300 → record --all → serve --fixtures gives byte-identical bodies', async () => {
    const out = path.join(work, 'round-trip');
    const original = await startServeProcess(['--port', '0', '--seed', '7', '--count', '300', '--clock', '2026-01-01', '--quiet']);
    let before;
    try {
      const run = await runCliProcess(['record', '--base-url', original.url, '--all', '--out', out]);
      expect(run.stderr).toContain(`market-stub record: wrote 300 markets to ${path.join(out, 'markets.json')}`);
      // The 2026-01-01 clock puts some resolution dates before today: warnings, not errors.
      expect(run.code).toBe(0);
      before = await bodies(original.url);
    } finally {
      await original.stop();
    }
    expect(await visible(out)).toEqual(['markets.json']);
    const file = await readFile(path.join(out, 'markets.json'), 'utf8');
    // Same bytes as the generator's own fixtures file: 2-space indent, trailing newline, list order.
    const generated = await runCliProcess(['generate', '--seed', '7', '--count', '300', '--clock', '2026-01-01']);
    expect(file).toBe(generated.stdout);
    const replay = await startServeProcess(['--port', '0', '--fixtures', out, '--quiet']);
    try {
      const after = await bodies(replay.url);
      expect(after.list).toBe(before.list);
      expect(after.items).toHaveLength(300);
      expect(after.items).toEqual(before.items);
    } finally {
      await replay.stop();
    }
  });
});

describe('record writes atomically', () => {
  /** 20 markets whose single answers carry a 2 MB extra field (so writing the set takes a while), each answered after delayMs; record reads them with --max-market-bytes 4 MiB (the default is 1 MiB). */
  const heavy: RawMarket[] = conformingMarkets(20).map((m) => ({ ...m, notes: 'x'.repeat(2_000_000) }));
  const heavyServer = (delayMs: number) => ({
    list: () => json(heavy.map((m) => summaryOf({ ...m, notes: undefined }))),
    single: (id: string) => {
      const m = heavy.find((h) => h['market_id'] === id);
      return m ? { ...json(m), delayMs } : undefined;
    },
  });

  it('keeps the previous fixture set intact when record is killed during the crawl, then replaces it once complete (migrating a plain DIR)', async () => {
    const out = path.join(work, 'killed');
    await mkdir(out);
    const oldSet = `${JSON.stringify([conformingMarket(900), conformingMarket(901)], null, 2)}\n`;
    await writeFile(path.join(out, 'markets.json'), oldSet);
    await writeFile(path.join(out, 'README.md'), '# recorded from staging\n');
    const expectOldSetIntact = async () => {
      expect(await visible(out)).toEqual(['README.md', 'markets.json']);
      expect(await readFile(path.join(out, 'markets.json'), 'utf8')).toBe(oldSet);
      const validate = await runCliInProcess(['validate', out]);
      expect(validate.code).toBe(0);
    };

    await withServer(heavy, heavyServer(0), async (server) => {
      // 1. Killed during the crawl (the deployment is slow): nothing was written yet.
      await withServer(heavy, heavyServer(40), async (slow) => {
        const child = spawn(process.execPath, [CLI, 'record', '--base-url', slow.url, '--all', '--max-market-bytes', '4194304', '--out', out], { stdio: 'ignore' });
        await new Promise((r) => setTimeout(r, 400));
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        await expectOldSetIntact();
      });

      // 3. A complete run replaces the set, keeps the README and cleans up after the killed run.
      const done = await runCliProcess(['record', '--base-url', server.url, '--all', '--max-market-bytes', '4194304', '--out', out]);
      expect(done.code).toBe(0);
      expect(await visible(out)).toEqual(['README.md', 'markets.json']);
      expect(await readFile(path.join(out, 'README.md'), 'utf8')).toBe('# recorded from staging\n');
      // One set remains (the killed run's staging and the plain set it migrated are gone).
      expect(await readdir(path.join(out, '.market-stub-sets'))).toHaveLength(1);
      const recorded = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(recorded.map((m) => m['market_id'])).toEqual(heavy.map((m) => m['market_id']));
      expect((await readdir(work)).filter((name) => name.startsWith('killed.') || name.startsWith('.killed.'))).toEqual([]);
    });
  });
});

describe('record and invalid answers', () => {
  const markets = [conformingMarket(1), conformingMarket(2, { yes_price: '0.57' }), conformingMarket(3), conformingMarket(4)];
  const deviations = { single: (id: string) => (id === 'DEV-4' ? json({ error: 'gone' }, 404) : undefined) };

  it('writes only valid markets, in list order, and reports the rest (exit 1)', async () => {
    await withServer(markets, deviations, async (server) => {
      const out = path.join(work, 'valid-only');
      const run = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out, '--format', 'json']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^market-stub record: wrote 2 markets to ${path.join(out, 'markets.json')} \\(2 invalid or missing, not written\\)\nmarket-stub record: the set is in [^\n]+\n$`));
      expect(JSON.parse(run.stdout)).toMatchObject({ command: 'record', summary: { errors: 3 } });
      expect(await visible(out)).toEqual(['markets.json']);
      const written = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(written).toEqual([conformingMarket(1), conformingMarket(3)]);
    });
  });

  it('with --keep-invalid writes the invalid answers apart, where serve does not read them', async () => {
    await withServer(markets, deviations, async (server) => {
      const out = path.join(work, 'keep-invalid');
      const run = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out, '--keep-invalid']);
      expect(run.code).toBe(1);
      expect(await visible(out)).toEqual(['invalid', 'markets.json']);
      const invalid = JSON.parse(await readFile(path.join(out, 'invalid', 'responses.json'), 'utf8')) as unknown[];
      expect(invalid).toEqual([
        { market_id: 'DEV-2', request: '/markets/DEV-2', status: 200, content_type: 'application/json', body: conformingMarket(2, { yes_price: '0.57' }) },
        { market_id: 'DEV-4', request: '/markets/DEV-4', status: 404, content_type: 'application/json', body: { error: 'gone' } },
      ]);
      const served = await startServeProcess(['--port', '0', '--fixtures', out, '--quiet']);
      try {
        expect(served.output().stdout).toContain('fixtures: 2 markets');
      } finally {
        await served.stop();
      }
    });
  });

  it('leaves DIR unchanged when no market is valid', async () => {
    await withServer(conformingMarkets(2), { single: () => json({ error: 'down' }, 503) }, async (server) => {
      const out = path.join(work, 'nothing');
      await mkdir(out);
      await writeFile(path.join(out, 'markets.json'), '[]\n');
      const run = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`market-stub record: no valid market to record; ${out} was left unchanged.\n`);
      expect(await readFile(path.join(out, 'markets.json'), 'utf8')).toBe('[]\n');
    });
  });

  it('never writes a --header value into the fixtures or the report, even when a body echoes it', async () => {
    const token = 'tok-9c1e55d0a7';
    const guarded = {
      other: (_url: URL, req: { headers: Record<string, unknown> }) => (req.headers['x-api-key'] === token ? undefined : json({ error: 'unauthorized' }, 401)),
      single: (id: string) => (id === 'DEV-2' ? json(conformingMarket(2, { echoed_key: token })) : undefined),
    };
    await withServer(conformingMarkets(3), guarded, async (server) => {
      const out = path.join(work, 'tokens');
      const run = await runCliProcess(['record', '--base-url', server.url, '--all', '--out', out, '--keep-invalid', '--header', `X-Api-Key: ${token}`, '--format', 'json']);
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as { findings: Array<{ code: string; severity: string }> };
      expect(report.findings.find((f) => f.code === 'header-echo')).toMatchObject({ severity: 'warning' });
      const written = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(written.map((m) => m['market_id'])).toEqual(['DEV-1', 'DEV-3']);
      for (const file of ['markets.json', path.join('invalid', 'responses.json')]) expect(await readFile(path.join(out, file), 'utf8')).not.toContain(token);
      expect(run.stdout + run.stderr).not.toContain(token);
      expect(server.requests.every((r) => r.headers['x-api-key'] === token)).toBe(true);
    });
  });
});
