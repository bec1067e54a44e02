import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, resolveServeConfig } from '../../src/config.js';
import { MarketStubError, startMarketStub, type MarketStubOptions } from '../../src/index.js';

// Behaviour rules are checked by one checker (behaviour.ts ruleProblems) for the library's `rules`
// and serve's `--behaviours` file: each bad rule is reported once, located by its index and field,
// whatever its id. Refusals only: nothing starts (these are fast tests of the `behaviour` mutation area).

const refusal = async (options: MarketStubOptions): Promise<MarketStubError> => {
  const error: unknown = await startMarketStub(options).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MarketStubError);
  return error as MarketStubError;
};
const ok = { match: { route: 'item' }, behaviour: { status: 503 } };

describe('startMarketStub `rules`', () => {
  it('refuses what is not an array of rules', async () => {
    const error = await refusal({ rules: 'r' as never });
    expect([error.code, error.option, error.message]).toEqual(['OPTION_INVALID', 'rules', 'startMarketStub: rules: expected an array of rules {match, behaviour, times?, id?}, found "r"']);
  });

  it('names each bad rule by index and field, with or without an id, and none of the good ones', async () => {
    const error = await refusal({ rules: [
      ok,
      { match: { route: 'lists' }, behaviour: {} },
      { id: 'slow-item', match: { route: 'item' }, behaviour: { delayMs: -5 } },
      ok,
      { id: 'x', match: { method: 7 }, behaviour: {} },
      { behaviour: {} },
      { match: null, behaviour: {} },
      { id: 'gone', match: {}, behaviour: {}, times: 0 },
    ] as never });
    expect(error.message).toBe('startMarketStub: rules[1].match.route: expected "list" or "item", found "lists"');
    expect(error.findings.map((f) => [f.pointer, f.expected, f.found])).toEqual([
      ['/1/match/route', '"list" or "item"', '"lists"'],
      ['/2/behaviour/delayMs', 'an integer from 0 to 600000', '-5'],
      ['/4/match/method', 'a string', '7'],
      ['/5/match', 'an object such as {"route":"item","marketId":"abc"}', 'nothing (missing)'],
      ['/6/match', 'an object such as {"route":"item","marketId":"abc"}', 'null'],
      ['/7/times', 'an integer ≥ 1', '0'],
    ]);
  });

  it('locates a problem by the rule\'s index, not its id, whatever the id holds', async () => {
    const error = await refusal({ rules: [{ id: 'rule a.b', match: { route: 'x' }, behaviour: {} }] as never });
    expect(error.findings.map((f) => f.pointer)).toEqual(['/0/match/route']);
    expect(error.option).toBe('rules[0].match.route');
  });
});

describe('serve --behaviours FILE', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'rule-problems-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const rulesFile = (rules: unknown): string => {
    const file = path.join(folder, `rules-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(rules));
    return file;
  };

  it('takes good rules as given', () => {
    expect(resolveServeConfig({ behaviours: rulesFile([ok]) }, {}).rules).toEqual([ok]);
  });

  it('lists each bad rule with the file, its index and the field', () => {
    const file = rulesFile([ok, { match: { route: 'lists' }, behaviour: {} }, { id: 'slow', match: {}, behaviour: { fault: 'explode' } }, { match: {} }]);
    let error: unknown;
    try {
      resolveServeConfig({}, { MARKET_STUB_BEHAVIOURS: file });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message.split('\n')).toEqual([
      `MARKET_STUB_BEHAVIOURS: ${file} /1: match.route: expected "list" or "item", found "lists".`,
      `MARKET_STUB_BEHAVIOURS: ${file} /2: behaviour.fault: expected one of reset, truncate, malformed, slow-body, found "explode".`,
      `MARKET_STUB_BEHAVIOURS: ${file} /3: behaviour: expected an object, found nothing (missing).`,
    ]);
  });
});
