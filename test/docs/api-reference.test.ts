// docs/api/ (the library API reference, generated from the docstrings by TypeDoc with
// typedoc-plugin-markdown, `npm run gen:api`) is what TypeDoc renders from the sources now: a
// changed docstring or export without a regenerated reference fails here.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from './support/doc-blocks.js';

const out = mkdtempSync(path.join(tmpdir(), 'market-stub-api-reference-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Every file under `dir`, as paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

it('docs/api/ is what `npm run gen:api` renders from the sources', async () => {
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/typedoc/bin/typedoc'), '--options', 'docs/typedoc.json', '--out', out, '--logLevel', 'Error'], { cwd: ROOT });
  const committed = path.join(ROOT, 'docs/api');
  const files = filesUnder(out);
  expect(filesUnder(committed), 'run `npm run gen:api` and commit docs/api/').toEqual(files);
  const stale = files.filter((f) => readFileSync(path.join(out, f), 'utf8') !== readFileSync(path.join(committed, f), 'utf8'));
  expect(stale, 'run `npm run gen:api` and commit docs/api/').toEqual([]);
  expect(files).toContain('index/functions/startMarketStub.md');
}, 180_000);
