import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startMarketStub, MarketStubError, type ContractFinding, type ErrorFinding, type Finding, type LocatedProblem, type MarketStub } from '../../src/index.js';
import { loadConfigSection } from '../../src/config-file/load-config-file.js';
import { ConfigError, resolveOptions, type OptionProblem } from '../../src/options/resolve-options.js';
import { CHECK_OPTIONS } from '../../src/options/tables/crawl-options.js';
import { SERVE_OPTIONS } from '../../src/options/tables/serve-options.js';

// One located-problem shape (pointer, expected, found, message) for every surface: schema findings,
// the findings of a MarketStubError (and of the admin API's error bodies), contract findings, and
// the problems of options (flags, variables, config files).
describe('one located-problem type', () => {
  it('Finding, ErrorFinding, ContractFinding and OptionProblem are LocatedProblems (checked by npm run typecheck)', () => {
    expectTypeOf<ErrorFinding>().toEqualTypeOf<LocatedProblem>();
    expectTypeOf<OptionProblem>().toMatchTypeOf<LocatedProblem>();
    expectTypeOf<Finding>().toMatchTypeOf<LocatedProblem>();
    expectTypeOf<ContractFinding>().toMatchTypeOf<LocatedProblem>();
  });

  let stub: MarketStub;
  beforeAll(async () => {
    stub = await startMarketStub({ count: 3 });
  });
  afterAll(() => stub.close());

  it('invalid markets carry their problems in that shape, in process and over the admin API alike', async () => {
    const error = (await stub.setMarkets([{ market_id: 'A', yes_price: '0.5' }]).catch((e: unknown) => e)) as MarketStubError;
    expect(error).toBeInstanceOf(MarketStubError);
    expect(error.findings.length).toBeGreaterThan(1);
    for (const f of error.findings) for (const key of ['pointer', 'expected', 'found', 'message'] as const) expect(typeof f[key]).toBe('string');
    const res = await fetch(`${stub.url}/__stub/markets`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ market_id: 'A', yes_price: '0.5' }]) });
    const body = (await res.json()) as { findings: Record<string, unknown>[] };
    expect(res.status).toBe(400);
    expect(body.findings.map((f) => Object.keys(f).sort())).toEqual(body.findings.map(() => ['expected', 'found', 'message', 'pointer']));
    expect(body.findings.map((f) => f['pointer'])).toEqual(error.findings.map((f) => f.pointer));
  });

  it('option problems carry the pointer into the config file, or "" for a flag or variable, and found as text', () => {
    const problemsOf = (run: () => unknown): readonly OptionProblem[] => {
      try {
        run();
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      throw new Error('expected a ConfigError');
    };
    const fromFlags = [
      ...problemsOf(() => resolveOptions(SERVE_OPTIONS, { flags: {}, env: { MARKET_STUB_PORT: 'http' } })),
      ...problemsOf(() => resolveOptions(CHECK_OPTIONS, { flags: {}, env: {} })),
    ];
    expect(fromFlags.map((p) => [p.option, p.pointer, p.found])).toEqual([['MARKET_STUB_PORT', '', '"http"'], ['--base-url', '', 'nothing (missing)']]);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'located-problem-'));
    try {
      const file = path.join(dir, 'market-stub.config.json');
      writeFileSync(file, JSON.stringify({ serve: { port: 'http', count: -1 } }));
      const fromFile = problemsOf(() => loadConfigSection({ file, origin: '--config', absolute: file }, 'serve'));
      expect(fromFile.map((p) => [p.pointer, p.found])).toEqual([['/serve/port', '"http"'], ['/serve/count', '-1']]);
      for (const p of [...fromFlags, ...fromFile]) for (const key of ['pointer', 'expected', 'found', 'message'] as const) expect(typeof p[key]).toBe('string');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
