// docs/admin-api.md's route table names every admin route the stub serves: the routes come from the
// controls table (src/runtime/control-table.ts) and `GET /__stub` lists them, so a new row without
// its line in the doc fails here.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';

const rows = readFileSync(new URL('../../docs/admin-api.md', import.meta.url), 'utf8').split('\n').filter((line) => line.startsWith('| `'));
let stub: MarketStub;
beforeAll(async () => {
  stub = await startMarketStub({ count: 1 });
});
afterAll(() => stub.close());

/** Whether a table line names `method` and then `path` exactly (not a longer path that starts with it). */
function documents(line: string, method: string, path: string): boolean {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\b${method}\\b[^|]*?${escaped}(?![\\w/{])`).test(line);
}

describe('docs/admin-api.md', () => {
  it('has a table line for every route GET /__stub lists', async () => {
    const index = (await (await fetch(`${stub.url}/__stub`)).json()) as { routes: Array<{ method: string; path: string }> };
    expect(index.routes.length).toBeGreaterThan(15);
    const missing = index.routes.filter((r) => !rows.some((line) => documents(line, r.method, r.path))).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });
});
