import { describe, expect, it } from 'vitest';
import { MAX_DEVIATED_MARKET_IDS, MAX_DEVIATION_SETTINGS } from '../../src/floor/limits.js';
import { refusal as refused } from '../support/refusal.js';
import { MarketStubError } from '../../src/floor/market-stub-error.js';
import { catalogueIndex, DEVIATIONS, findDeviation } from '../../src/deviation/deviation-catalogue.js';
import type { MarketDeviation } from '../../src/deviation/deviation-definition.js';
import { describePlan, marketDeviations, parseDeviationFlags, planDeviations, preferredDeviation, selectsMarket } from '../../src/deviation/deviation-settings.js';
import { describeCatalogue } from '../../src/deviation/describe-catalogue.js';

// How deviations are asked for (library `deviations`, `--deviation`, `Prefer: deviation=`,
// `PUT /__stub/…/deviations`): what is accepted, the refusals and their wording, the bounds, and
// which markets a share picks.

const refusal = (run: () => unknown) => refused(run, MarketStubError);
const market = (name: string) => findDeviation(name) as MarketDeviation;

describe('planDeviations', () => {
  it('plans shares as given (rate 1 by default), named markets and list deviations in catalogue order', () => {
    const plan = planDeviations([
      { name: 'list-bom' }, { name: 'item-bom', rate: 0.5 }, { name: 'string-price' },
      { name: 'list-500' }, { name: 'title-mismatch', marketIds: ['b', 'a'] }, { name: 'null-price', marketIds: ['a'] }, { name: 'list-bom' },
    ], 'test');
    expect(plan.shares.map((s) => [s.deviation.name, s.rate])).toEqual([['item-bom', 0.5], ['string-price', 1]]);
    expect([...plan.targeted].map(([id, ds]) => [id, ds.map((d) => d.name)])).toEqual([['b', ['title-mismatch']], ['a', ['null-price', 'title-mismatch']]]);
    expect(plan.list.map((d) => d.name)).toEqual(['list-500', 'list-bom']);
    expect(planDeviations([{ name: 'missing', rate: 0 }], 'test').shares[0]?.deviation.name).toBe('listed-but-404');
  });

  it('refuses what is not a list of settings, naming the entry and field', () => {
    expect(refusal(() => planDeviations({ name: 'x' }, 'startMarketStub')).message).toMatch(/^startMarketStub: deviations: expected an array of \{name, rate\?, marketIds\?\}/);
    expect(refusal(() => planDeviations([null], 'w')).option).toBe('deviations[0]');
    expect(refusal(() => planDeviations([['string-price']], 'w')).option).toBe('deviations[0]');
    expect(refusal(() => planDeviations([{ name: 'string-price', rates: 1 }], 'w')).message).toBe('w: deviations[0].rates: expected a known field (name, rate, marketIds), found "rates"');
    expect(refusal(() => planDeviations([{ name: 'string-price' }, { name: 7 }], 'w', 'opt')).option).toBe('opt[1].name');
  });

  it('suggests the name meant: a near miss, or the names holding the word', () => {
    expect(refusal(() => planDeviations([{ name: 'strng-price' }], 'w')).message).toContain('did you mean string-price?');
    expect(refusal(() => planDeviations([{ name: 'bom' }], 'w')).message).toContain('did you mean item-bom or list-bom?');
    const far = refusal(() => planDeviations([{ name: 'completely-unrelated-thing' }], 'w')).message;
    expect(far).toContain('expected a deviation name (docs/deviations.md and GET /__stub/deviations list them)');
    expect(refusal(() => planDeviations([{ name: '' }], 'w')).message).not.toContain('did you mean');
    // A word in many names is no hint.
    expect(refusal(() => planDeviations([{ name: 'price' }], 'w')).message).not.toContain(' or ');
  });

  it('takes a rate from 0 to 1 and refuses one outside, or not a number', () => {
    for (const rate of [0, 0.25, 1]) expect(planDeviations([{ name: 'string-price', rate }], 'w').shares[0]?.rate).toBe(rate);
    for (const rate of [-0.01, 1.01, Number.NaN, '0.5']) {
      expect(refusal(() => planDeviations([{ name: 'string-price', rate }], 'w')).message).toMatch(/^w: deviations\[0\]\.rate: expected a number from 0 to 1 \(the share of markets\)/);
    }
  });

  it('takes market ids as a non-empty list of non-empty strings, and not with a rate', () => {
    for (const marketIds of [[], [''], [1], 'a']) {
      expect(refusal(() => planDeviations([{ name: 'string-price', marketIds }], 'w')).message).toMatch(/^w: deviations\[0\]\.marketIds: expected a non-empty array of market_ids/);
    }
    expect(refusal(() => planDeviations([{ name: 'string-price', rate: 1, marketIds: ['a'] }], 'w')).message).toBe('w: deviations[0]: expected either rate or marketIds, not both, found "both given"');
  });

  it('a deviation of the whole list takes no rate (but 1) and no market ids', () => {
    expect(planDeviations([{ name: 'list-500', rate: 1 }], 'w').list).toHaveLength(1);
    expect(refusal(() => planDeviations([{ name: 'list-500', rate: 0.5 }], 'w')).message).toBe('w: deviations[0]: expected no rate and no marketIds: list-500 changes the whole list, found 0.5');
    expect(refusal(() => planDeviations([{ name: 'list-500', marketIds: ['a'] }], 'w')).message).toMatch(/^w: deviations\[0\]: expected no rate and no marketIds/);
  });

  it('holds at most MAX_DEVIATION_SETTINGS settings and MAX_DEVIATED_MARKET_IDS ids in all', () => {
    expect(planDeviations(Array.from({ length: MAX_DEVIATION_SETTINGS }, () => ({ name: 'string-price' })), 'w').shares).toHaveLength(MAX_DEVIATION_SETTINGS);
    const tooMany = refusal(() => planDeviations(Array.from({ length: MAX_DEVIATION_SETTINGS + 1 }, () => ({ name: 'string-price' })), 'w'));
    expect([tooMany.code, tooMany.message]).toEqual(['LIMIT_EXCEEDED', `w: deviations: expected at most ${MAX_DEVIATION_SETTINGS} deviation settings, found 201`]);
    const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `m-${from + i}`);
    const half = MAX_DEVIATED_MARKET_IDS / 2;
    expect(planDeviations([{ name: 'string-price', marketIds: ids(half) }, { name: 'null-price', marketIds: ids(half, half) }], 'w').targeted.size).toBe(MAX_DEVIATED_MARKET_IDS);
    const past = refusal(() => planDeviations([{ name: 'string-price', marketIds: ids(half) }, { name: 'null-price', marketIds: ids(half + 1) }], 'w'));
    expect([past.code, past.option, past.message]).toEqual(['LIMIT_EXCEEDED', 'deviations[1].marketIds', `w: deviations[1].marketIds: expected at most ${MAX_DEVIATED_MARKET_IDS} market ids in all, found ${MAX_DEVIATED_MARKET_IDS + 1}`]);
  });

  it('describePlan gives back the settings the plan stands for', () => {
    const settings = [{ name: 'string-price' }, { name: 'item-bom', rate: 0.5 }, { name: 'title-mismatch', marketIds: ['b', 'a'] }, { name: 'null-price', marketIds: ['a'] }, { name: 'list-500' }];
    expect(describePlan(planDeviations(settings, 'w'))).toEqual([
      { name: 'string-price' }, { name: 'item-bom', rate: 0.5 },
      { name: 'null-price', marketIds: ['a'] }, { name: 'title-mismatch', marketIds: ['b', 'a'] },
      { name: 'list-500' },
    ]);
  });
});

describe('marketDeviations (one market)', () => {
  it('checks names, keeps catalogue order and each once; [] clears', () => {
    expect(marketDeviations(['item-bom', 'string-price', 'item-bom'], 'w').map((d) => d.name)).toEqual(['string-price', 'item-bom']);
    expect(marketDeviations([], 'w')).toEqual([]);
    expect(marketDeviations(Array.from({ length: MAX_DEVIATION_SETTINGS }, () => 'item-bom'), 'w')).toHaveLength(1);
  });

  it('refuses a list past the bound, a deviation of the whole list, and an unknown name', () => {
    expect(refusal(() => marketDeviations('item-bom', 'w')).message).toMatch(/^w: deviations: expected an array of at most 200 deviation names such as \["string-price"\] \(\[\] clears\)/);
    expect(refusal(() => marketDeviations(Array.from({ length: MAX_DEVIATION_SETTINGS + 1 }, () => 'item-bom'), 'w')).option).toBe('deviations');
    expect(refusal(() => marketDeviations(['item-bom', 'list-bom'], 'w')).message).toBe('w: deviations[1]: expected a deviation of one market (list-bom changes the whole list: PUT /__stub/deviations or setDeviations), found "list-bom"');
    expect(refusal(() => marketDeviations(['nope'], 'w', 'body')).option).toBe('body[0]');
  });
});

describe('parseDeviationFlags (--deviation, MARKET_STUB_DEVIATION)', () => {
  it('reads NAME and NAME=RATE, spaces trimmed', () => {
    expect(parseDeviationFlags(['string-price', ' item-bom = 0.25 ', 'list-500=1', 'null-price=.5', 'title-mismatch=0'], '--deviation'))
      .toEqual([{ name: 'string-price' }, { name: 'item-bom', rate: 0.25 }, { name: 'list-500', rate: 1 }, { name: 'null-price', rate: 0.5 }, { name: 'title-mismatch', rate: 0 }]);
  });

  it('refuses a rate that is no share, a second =, a list deviation with a share, and an unknown name', () => {
    for (const item of ['string-price=1.5', 'string-price=-1', 'string-price=abc', 'string-price=', 'string-price=0.5=1', 'string-price=1e-1']) {
      const error = refusal(() => parseDeviationFlags([item], '--deviation'));
      expect(error.message, item).toBe(`--deviation: expected NAME or NAME=RATE with RATE a share of markets from 0 to 1, found ${JSON.stringify(item)}`);
    }
    expect(refusal(() => parseDeviationFlags(['list-500=0.5'], 'MARKET_STUB_DEVIATION')).message).toBe('MARKET_STUB_DEVIATION: expected list-500 without =RATE (it changes the whole list), found "list-500=0.5"');
    const unknown = refusal(() => parseDeviationFlags(['strng-price=0.5'], '--deviation'));
    expect(unknown.message).toBe('--deviation: expected a deviation name (did you mean string-price? docs/deviations.md and GET /__stub/deviations list them), found "strng-price=0.5"');
    expect(unknown.option).toBeUndefined();
  });
});

describe('preferredDeviation (Prefer: deviation=NAME, RFC 7240)', () => {
  it('finds the deviation among other preferences, unquoted, whatever the case; none without one', () => {
    expect(preferredDeviation('deviation=string-price')?.name).toBe('string-price');
    expect(preferredDeviation('code=500, Deviation = "list-500" ;x=1')?.name).toBe('list-500');
    expect(preferredDeviation('code=500, wait=5')).toBeUndefined();
    // The first instance of a preference counts.
    expect(preferredDeviation('deviation=item-bom, deviation=nope')?.name).toBe('item-bom');
  });

  it('refuses a name outside the catalogue, naming Prefer', () => {
    const error = refusal(() => preferredDeviation('deviation=nope'));
    expect([error.code, error.where, error.option]).toEqual(['OPTION_INVALID', 'Prefer', 'deviation']);
  });
});

describe('selectsMarket: a seeded share of markets', () => {
  const stringPrice = market('string-price');
  const picked = (rate: number, seed = 1, deviation = stringPrice) => Array.from({ length: 2000 }, (_, idHash) => selectsMarket(seed, idHash * 7919, deviation, rate));

  it('rate 1 (or more) picks every market, 0 (or less) none, 0.3 about 30%, the same ones every time', () => {
    expect(picked(1).every(Boolean)).toBe(true);
    expect(picked(0).some(Boolean)).toBe(false);
    const share = picked(0.3).filter(Boolean).length / 2000;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    expect(picked(0.3)).toEqual(picked(0.3));
  });

  it('another seed or another deviation picks other markets', () => {
    expect(picked(0.5, 2)).not.toEqual(picked(0.5, 1));
    expect(picked(0.5, 1, market('null-price'))).not.toEqual(picked(0.5, 1));
  });
});

describe('the catalogue as data (GET /__stub/deviations)', () => {
  it('describes every deviation without its rewrite functions, aliases and unseen only where defined', () => {
    const described = describeCatalogue();
    expect(described.map((d) => d.name)).toEqual(DEVIATIONS.map((d) => d.name));
    const missing = described.find((d) => d.name === 'listed-but-404');
    expect(missing).toEqual({
      name: 'listed-but-404', class: 'contract', scope: 'market', endpoints: ['item'], describe: 'listed, but `GET /markets/{market_id}` answers 404',
      findings: [{ severity: 'error', code: 'not-found', endpoint: 'GET /markets/{market_id}', pointer: '' }], aliases: ['missing'], record: 'dropped',
    });
    expect(described.find((d) => d.name === 'stale-prices')).toHaveProperty('unseen');
    expect(described.find((d) => d.name === 'string-price')).not.toHaveProperty('aliases');
    expect(described.find((d) => d.name === 'string-price')).not.toHaveProperty('unseen');
    expect(JSON.parse(JSON.stringify(described))).toEqual(described);
  });

  it('places each deviation at its catalogue position; one from elsewhere after all', () => {
    DEVIATIONS.forEach((d, i) => expect(catalogueIndex(d)).toBe(i));
    expect(catalogueIndex({ ...stringPriceCopy() })).toBe(DEVIATIONS.length);
  });
});

function stringPriceCopy(): MarketDeviation {
  return { ...market('string-price') };
}
