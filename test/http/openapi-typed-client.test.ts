import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';

// A user's path: generate types from the served /openapi.json with openapi-typescript, write a
// client with openapi-fetch against them, type-check it strictly, run it against the stub.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const stubs: MarketStub[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The client a user writes: list, one market by the document's own example id, and an unknown id. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './market-api.js';

const document = JSON.parse(process.argv[2] ?? '{}') as { servers: { url: string }[] };
const client = createClient<paths>({ baseUrl: document.servers[0]?.url });
const list = await client.GET('/markets', { params: { query: { limit: 2 } } });
const first = list.data?.markets[0];
const one = await client.GET('/markets/{market_id}', { params: { path: { market_id: first?.market_id ?? '' } } });
const price: number | undefined = one.data?.yes_price;
const missing = await client.GET('/markets/{market_id}', { params: { path: { market_id: 'NO-SUCH-MARKET' } } });
console.log(JSON.stringify({ listed: list.data?.markets.length, id: one.data?.market_id, price, missing: missing.response.status, error: missing.error }));
`;

/** Type-checks `files` strictly as a user's NodeNext project would; returns the diagnostics' text. */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: ['node'] });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('a typed client generated from the served document', () => {
  it('type-checks and calls the stub: the list, a market, a 404', async () => {
    const stub = await startMarketStub({ seed: 4, count: 12, clock: '2026-01-01', profile: { envelope: 'markets', paging: 'cursor' } });
    stubs.push(stub);
    const text = await (await fetch(`${stub.url}/openapi.json`)).text();
    mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    const dir = mkdtempSync(path.join(ROOT, 'test-results', 'openapi-client-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(path.join(dir, 'market-api.ts'), astToString(await openapiTS(JSON.parse(text) as never)));
    writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    expect(typeErrors([path.join(dir, 'client.ts')])).toEqual([]);

    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(dir, 'client.ts'), text], { cwd: ROOT });
    const result = JSON.parse(stdout) as { listed: number; id: string; price: number; missing: number; error: { status: number } };
    const catalog = await stub.catalog();
    expect(result).toMatchObject({ listed: 2, id: catalog[0]?.market_id, price: catalog[0]?.yes_price, missing: 404 });
    expect(result.error).toMatchObject({ status: 404 });
  }, 60_000);
});
