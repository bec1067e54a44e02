import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, createApp, MarketStubError, type DeviationSetting } from '../../src/index.js';
import { parseDeviationFlags, planDeviations, preferredDeviation } from '../../src/deviation/deviation-settings.js';
import { refusal as refused } from '../support/refusal.js';

// Which deviations can be served together (deviation-settings.ts refuseConflicts), asked through the
// library (createApp's `deviations`, checked as startMarketStub checks them) and the admin API of one
// market; and the wording of the refusals a user reads when a setting is mistyped. In-process only
// (no listening server): these are the fast tests of the `deviation` mutation area.

const refusal = (run: () => unknown) => refused(run, MarketStubError);
const BOTH = 'both set the Content-Type';

let catalog: Awaited<ReturnType<typeof buildCatalog>>;
let ids: [string, string];
beforeAll(async () => {
  catalog = await buildCatalog({ seed: 1, count: 3, clock: '2026-01-01' });
  ids = ((await request(createApp({ catalog })).get('/markets').expect(200)).body as { market_id: string }[]).map((m) => m.market_id) as [string, string];
});
const app = (deviations: DeviationSetting[]) => createApp({ catalog, deviations });

describe('deviations that set the Content-Type of one answer are refused together, naming the pair', () => {
  it('two of the whole list', () => {
    const error = refusal(() => app([{ name: 'list-not-json' }, { name: 'list-wrong-content-type' }]));
    expect([error.code, error.option]).toEqual(['OPTION_INVALID', 'deviations']);
    expect(error.message).toBe(
      'createApp: deviations: expected deviations that can be served together, found list-not-json and list-wrong-content-type both set the Content-Type ' +
      '(text/html; charset=utf-8; text/plain; charset=utf-8) and one answer has one: serve them to different markets (marketIds) or one at a time',
    );
  });

  it('two given to a share of markets, whatever the rates (a market may draw both)', () => {
    expect(refusal(() => app([{ name: 'item-not-json', rate: 0.1 }, { name: 'item-charset', rate: 0.2 }])).message).toContain(`item-not-json and item-charset ${BOTH}`);
  });

  it('one given to a share and one to a named market, or two to the same market', () => {
    const [a, b] = ids;
    expect(refusal(() => app([{ name: 'item-charset', rate: 0.5 }, { name: 'item-not-json', marketIds: [a] }])).message).toContain(`item-charset and item-not-json ${BOTH}`);
    expect(refusal(() => app([{ name: 'item-charset', marketIds: [a] }, { name: 'item-wrong-content-type', marketIds: [b, a] }])).message).toContain(`item-wrong-content-type and item-charset ${BOTH}`);
  });

  it('composes them on different markets, across list and item, once each, and beside deviations that set no Content-Type', () => {
    const [a, b] = ids;
    expect(() => app([{ name: 'item-charset', marketIds: [a] }, { name: 'item-wrong-content-type', marketIds: [b] }])).not.toThrow();
    expect(() => app([{ name: 'list-charset' }, { name: 'item-not-json' }])).not.toThrow();
    expect(() => app([{ name: 'item-not-json', rate: 0.3 }, { name: 'item-not-json', marketIds: [a] }, { name: 'list-charset' }, { name: 'list-charset' }])).not.toThrow();
    expect(() => app([{ name: 'item-charset' }, { name: 'string-price' }, { name: 'item-bom', marketIds: [a] }, { name: 'list-bom' }, { name: 'list-500' }])).not.toThrow();
  });

  it('PUT /__stub/markets/{id}/deviations refuses one market\'s deviation that meets a share in force, and takes one that composes', async () => {
    const stub = app([{ name: 'item-charset', rate: 0.5 }]);
    const path = `/__stub/markets/${encodeURIComponent(ids[0])}/deviations`;
    const refusedPut = await request(stub).put(path).send(['item-not-json']).expect(400);
    expect(refusedPut.body).toMatchObject({ option: 'deviations', message: expect.stringContaining(`item-charset and item-not-json ${BOTH}`) as unknown });
    await request(stub).put(path).send(['item-bom', 'string-price']).expect(200);
  });
});

describe('the refusals of a mistyped setting say what was given', () => {
  it('names instead of settings: each entry is an object', () => {
    const error = refusal(() => planDeviations(['string-price'], 'w'));
    expect(error.message).toBe('w: deviations[0]: expected an object {name, rate?, marketIds?}, found "string-price"');
  });

  it('every market id is a non-empty string, not only some', () => {
    for (const marketIds of [['m-a', ''], ['m-a', 7]]) {
      expect(refusal(() => planDeviations([{ name: 'string-price', marketIds }], 'w')).option).toBe('deviations[0].marketIds');
    }
  });

  it('a near miss as far as the tolerance still gets its suggestion; a word in up to four names gets them all', () => {
    // strg-prce is 3 edits from string-price: the tolerance of a 12-character name (floor/nearest-name.ts).
    expect(refusal(() => planDeviations([{ name: 'strg-prce' }], 'w')).message).toContain('did you mean string-price?');
    const json = refusal(() => planDeviations([{ name: 'json' }], 'w')).message;
    for (const name of ['item-not-json', 'item-truncated-json', 'list-not-json', 'list-truncated-json']) expect(json).toContain(name);
    expect(refusal(() => planDeviations([{ name: ' bom ' }], 'w')).message).toContain('did you mean item-bom or list-bom?');
  });

  it('--deviation: a deviation of the whole list alone is taken (=1 too); a refused flag is OPTION_INVALID', () => {
    expect(parseDeviationFlags(['list-500', 'list-bom=1'], '--deviation')).toEqual([{ name: 'list-500' }, { name: 'list-bom', rate: 1 }]);
    for (const item of ['list-500=0.5', 'string-price=2', 'strng-price']) expect(refusal(() => parseDeviationFlags([item], '--deviation')).code).toBe('OPTION_INVALID');
  });

  it('Prefer: deviation= names the value as sent, = and quotes included', () => {
    expect(refusal(() => preferredDeviation('deviation=string-price=1')).message).toContain('found "string-price=1"');
    expect(refusal(() => preferredDeviation('deviation="string-price"x')).message).toContain('found "\\"string-price\\"x"');
    expect(refusal(() => preferredDeviation('deviation=x"string-price"')).message).toContain('found "x\\"string-price\\""');
    expect(preferredDeviation('deviation="string-price"')?.name).toBe('string-price');
  });
});
