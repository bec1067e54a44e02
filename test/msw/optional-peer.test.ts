// msw is an optional peer dependency: importing market-stub never loads it, and market-stub/msw
// resolves from the built dist by package name (ESM and CommonJS), its errors instances of the
// MarketStubError of the main entry.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));

it('importing market-stub never loads msw; market-stub/msw loads it, ESM and CommonJS alike', () => {
  const script = [
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    "const loaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/msw/'));",
    "const main = await import('market-stub');",
    "const cjsMain = require('market-stub');",
    'const before = loaded();',
    "const esm = await import('market-stub/msw');",
    "const cjs = require('market-stub/msw');",
    'const thrown = (f) => { try { f(); } catch (e) { return e; } };',
    "const error = thrown(() => cjs.createMarketStubHandlers({ baseUrl: 'ftp://x' }));",
    "const made = esm.createMarketStubHandlers({ baseUrl: 'http://a.test', count: 2 });",
    'console.log(JSON.stringify({ before, after: loaded(), handlers: made.handlers.length, url: made.stub.url, code: error.code, option: error.option, isMain: error instanceof main.MarketStubError && error instanceof cjsMain.MarketStubError }));',
  ].join('\n');
  const probe = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(probe.stderr).toBe('');
  // require.cache sees only CommonJS loads: the ESM bundle is read for an import of msw instead.
  for (const file of ['dist/index.js', 'dist/index.cjs']) expect(readFileSync(path.join(ROOT, file), 'utf8')).not.toMatch(/(from |import\(|require\()\s*["']msw(\/[^"']*)?["']/);
  expect(readFileSync(path.join(ROOT, 'dist/msw.js'), 'utf8')).toMatch(/from\s*["']msw["']/);
  expect(JSON.parse(probe.stdout)).toEqual({ before: false, after: true, handlers: 1, url: 'http://a.test', code: 'OPTION_INVALID', option: 'baseUrl', isMain: true });
});
