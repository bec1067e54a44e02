// docs/record-layout.md, followed: record says where the set is, and the copy the page
// recommends (cp -L to a plain file) is what serve then serves.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformingMarkets, withServer } from './deviant-server.js';
import { runCliInProcess } from './contract-report-helpers.js';
import { startServeProcess } from '../support/cli-process.js';

describe('record --out DIR: the layout docs/record-layout.md describes', () => {
  it('prints where the set is; a cp -L copy is a plain file serve serves as recorded', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'market-stub-layout-'));
    const out = path.join(work, 'recorded');
    await withServer(conformingMarkets(4), undefined, async (server) => {
      const run = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out, '--format', 'json']);
      expect(run.code).toBe(0);
      const file = path.join(out, 'markets.json');
      const set = /the set is in (\S+); /.exec(run.stderr)?.[1] ?? '';
      expect(path.dirname(set)).toBe(path.join(realpathSync(out), '.market-stub-sets'));
      expect(realpathSync(file)).toBe(path.join(set, 'markets.json'));
      expect(lstatSync(file).isSymbolicLink()).toBe(true);
      expect(run.stderr).toContain(`${file} is a symlink to it. Copy it with 'cp -L'`);

      const copy = path.join(work, 'committed.json');
      execFileSync('cp', ['-L', file, copy]);
      expect(lstatSync(copy).isSymbolicLink()).toBe(false);
      const stub = await startServeProcess(['--port', '0', '--fixtures', copy, '--quiet']);
      try {
        expect(await (await fetch(`${stub.url}/markets/${encodeURIComponent('DEV-2')}`)).text()).toBe(JSON.stringify(JSON.parse(readFileSync(copy, 'utf8'))[1]));
      } finally {
        await stub.stop();
      }
    });
  });

  it('the page shows the layout record writes and names cp -L', () => {
    const page = readFileSync(new URL('../../docs/record-layout.md', import.meta.url), 'utf8');
    for (const line of ['DIR/markets.json          -> .market-stub-current/markets.json', 'DIR/.market-stub-current  -> .market-stub-sets/<version>', 'cp -L DIR/markets.json']) expect(page).toContain(line);
  });
});
