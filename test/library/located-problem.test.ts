import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startMarketStub, MarketStubError, type ContractFinding, type ErrorFinding, type Finding, type LocatedProblem, type MarketStub } from '../../src/index.js';

// One located-problem shape (pointer, expected, found, message) for every surface: schema findings,
// the findings of a MarketStubError (and of the admin API's error bodies), contract findings.
describe('one located-problem type', () => {
  it('Finding, ErrorFinding and ContractFinding are LocatedProblems (checked by npm run typecheck)', () => {
    expectTypeOf<ErrorFinding>().toEqualTypeOf<LocatedProblem>();
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
});
