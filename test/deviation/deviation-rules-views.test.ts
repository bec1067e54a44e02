import { describe, expect, it } from 'vitest';
import { fnv1a } from '../../src/floor/text-hash.js';
import { findDeviation } from '../../src/deviation/deviation-catalogue.js';
import type { MarketDeviation } from '../../src/deviation/deviation-definition.js';
import { integerMarketId } from '../../src/deviation/market-deviations.js';
import { renderDeviatedMarket } from '../../src/deviation/render-deviated-market.js';

// What each deviation of chosen markets serves, byte for byte where a client would notice: the list
// item and the single body after the rewrites, and the reply (status, media type, delay, labels).

const item = { market_id: 'KX-1', title: 'Will it rain?', status: 'active', yes_price: 0.57, no_price: 0.43, resolution_date: '2027-03-01' };
const { resolution_date: _, ...summary } = item;
const ctx = { seed: 1, idHash: fnv1a('KX-1') };

function serve(names: string[], over: Record<string, unknown> = {}) {
  const deviations = names.map((n) => findDeviation(n) as MarketDeviation);
  const views = { item: { ...item, ...over }, summary: { ...summary, ...over } };
  const served = renderDeviatedMarket(views, deviations, ctx);
  return { ...served, bodyText: Buffer.from(served.body).toString('utf8'), summary: served.summaryJson };
}

describe('price deviations', () => {
  it('string-price: 4-decimal strings on both endpoints', () => {
    const served = serve(['string-price']);
    expect(JSON.parse(served.summary)).toMatchObject({ yes_price: '0.5700', no_price: '0.4300' });
    expect(served.item).toMatchObject({ yes_price: '0.5700', no_price: '0.4300' });
    // A price that is no number becomes 0.0000.
    expect(serve(['string-price'], { yes_price: null }).item['yes_price']).toBe('0.0000');
  });

  it('price-sum: no_price 0.05 above the complement, or below it when that would pass 1', () => {
    expect(serve(['price-sum']).item['no_price']).toBe(0.48);
    expect(serve(['price-sum'], { yes_price: 0.05, no_price: 0.95 }).item['no_price']).toBe(1);
    expect(serve(['price-sum'], { yes_price: 0.04, no_price: 0.96 }).item['no_price']).toBe(0.91);
  });

  it('float-noise: the next double above yes_price; a non-number is left alone', () => {
    expect(serve(['float-noise']).item['yes_price']).toBe(0.5700000000000001);
    expect(serve(['float-noise'], { yes_price: '0.57' }).item['yes_price']).toBe('0.57');
    expect(serve(['float-noise'], { yes_price: 0 }).item['yes_price']).toBe(5e-324);
  });

  it('long-decimal-price: yes_price written with 22 more decimals, in both texts', () => {
    const more = `${'0'.repeat(21)}1`;
    const served = serve(['long-decimal-price']);
    expect(served.bodyText).toContain(`"yes_price":0.57${more},`);
    expect(served.summary).toContain(`"yes_price":0.57${more},`);
    expect(serve(['long-decimal-price'], { yes_price: 1 }).bodyText).toContain(`"yes_price":1.${more},`);
    // Neither a string nor a number in exponent form can be lengthened.
    expect(serve(['long-decimal-price'], { yes_price: '0.57' }).bodyText).toContain('"yes_price":"0.57"');
    expect(serve(['long-decimal-price'], { yes_price: 1e-7 }).bodyText).toContain('"yes_price":1e-7');
  });

  it('price-moved: one cent up at or below 0.5, one cent down above it; no_price the other way', () => {
    expect(serve(['price-moved']).item).toMatchObject({ yes_price: 0.56, no_price: 0.44 });
    expect(serve(['price-moved'], { yes_price: 0.5, no_price: 0.5 }).item).toMatchObject({ yes_price: 0.51, no_price: 0.49 });
    // The list keeps the prices: the difference is what the checker sees.
    expect(JSON.parse(serve(['price-moved']).summary)).toMatchObject({ yes_price: 0.57, no_price: 0.43 });
  });

  it('price-out-of-range and null-price', () => {
    expect(serve(['price-out-of-range']).item).toMatchObject({ yes_price: 1.25, no_price: -0.25 });
    expect(JSON.parse(serve(['null-price']).summary)).toMatchObject({ yes_price: null });
  });
});

describe('id deviations', () => {
  it('integer-market-id: a numeric id becomes that number; any other a seeded 12-digit number', () => {
    expect(integerMarketId('559652', ctx)).toBe(559652);
    expect(integerMarketId('0', ctx)).toBe(0);
    for (const id of ['0559652', '1234567890123456', 'KX-1', '12a']) {
      const n = integerMarketId(id, { seed: 1, idHash: fnv1a(id) });
      expect(n, id).toBeGreaterThanOrEqual(100_000_000_000);
      expect(n, id).toBeLessThan(1_000_000_000_000);
      expect(Number.isSafeInteger(n)).toBe(true);
    }
    expect(integerMarketId('KX-1', ctx)).toBe(integerMarketId('KX-1', ctx));
    expect(integerMarketId('KX-1', { ...ctx, seed: 2 })).not.toBe(integerMarketId('KX-1', ctx));
    const served = serve(['integer-market-id'], { market_id: '559652' });
    expect([served.item['market_id'], JSON.parse(served.summary).market_id]).toEqual([559652, 559652]);
    expect((findDeviation('integer-market-id') as MarketDeviation).alias?.('559652', ctx)).toBe('559652');
  });

  it('the empty, wrong and wrapped ids of the single market and the list', () => {
    expect(JSON.parse(serve(['list-empty-market-id']).summary).market_id).toBe('');
    expect(serve(['item-wrong-id']).item['market_id']).toBe('KX-1-other');
    expect(serve(['item-empty-market-id']).item['market_id']).toBe('');
    expect(serve(['item-envelope']).item).toEqual({ market: item });
    expect(serve(['title-mismatch']).item['title']).toBe('Will it rain? (revised)');
  });

  it('list-duplicate-id lists the item twice; the duplicate-member deviations name yes_price twice, first with no_price', () => {
    expect(serve(['list-duplicate-id']).summary).toBe(`${JSON.stringify(summary)},${JSON.stringify(summary)}`);
    // Beside another deviation too, the item repeated as that one rewrote it.
    const priced = JSON.stringify({ ...summary, yes_price: '0.5700', no_price: '0.4300' });
    expect(serve(['string-price', 'list-duplicate-id']).summary).toBe(`${priced},${priced}`);
    expect(serve(['list-duplicate-member']).summary).toBe(`{"yes_price":0.43,${JSON.stringify(summary).slice(1)}`);
    expect(serve(['item-duplicate-member']).bodyText).toBe(`{"yes_price":0.43,${JSON.stringify(item).slice(1)}`);
    expect(serve(['item-duplicate-member'], { no_price: null }).bodyText.startsWith('{"yes_price":0,')).toBe(true);
  });
});

describe('missing fields and dates', () => {
  it('list-missing-* leaves the field out of the list item only; item-missing-* out of the single market only', () => {
    const listMissing = serve(['list-missing-title']);
    expect(JSON.parse(listMissing.summary)).not.toHaveProperty('title');
    expect(listMissing.item).toHaveProperty('title');
    const itemMissing = serve(['item-missing-no-price']);
    expect(itemMissing.item).not.toHaveProperty('no_price');
    expect(JSON.parse(itemMissing.summary)).toHaveProperty('no_price');
    expect((findDeviation('list-missing-market-id') as MarketDeviation).record).toBe('dropped');
    expect((findDeviation('list-missing-title') as MarketDeviation).record).toBe('kept');
    expect(findDeviation('item-missing-resolution-date')?.describe).toBe('the single market has no `resolution_date`');
    expect(findDeviation('item-missing-title')?.describe).toBe('the single market has no `title` (the list item still has it)');
  });

  it('the resolution-date deviations', () => {
    expect(JSON.parse(serve(['list-resolution-date']).summary).resolution_date).toBe('2027-03-01');
    expect(serve(['datetime-resolution-date']).item['resolution_date']).toBe('2027-03-01T00:00:00Z');
    expect(serve(['impossible-resolution-date']).item['resolution_date']).toBe('2027-02-30');
    expect(serve(['past-resolution-date']).item['resolution_date']).toBe('2020-03-01');
    expect(serve(['non-active-status']).item['status']).toBe('suspended');
  });
});

describe('the reply of a deviated market', () => {
  it('labels every deviation and applies them in catalogue order, composing', () => {
    const served = serve(['string-price', 'item-envelope']);
    expect(served.item).toEqual({ market: { ...item, yes_price: '0.5700', no_price: '0.4300' } });
    expect(served.reply.labels).toEqual(['deviation=string-price', 'deviation=item-envelope']);
    expect(Object.isFrozen(served.reply)).toBe(true);
  });

  it('a status, a media type, a delay, a hidden item and byte edits', () => {
    expect(serve(['item-500']).reply).toMatchObject({ status: 500 });
    expect(serve(['item-wrong-content-type']).reply.contentType).toBe('text/plain; charset=utf-8');
    expect(serve(['item-slow']).reply.delayMs).toBe(2500);
    expect(serve(['item-slow']).reply).not.toHaveProperty('status');
    expect(serve(['listed-but-404']).reply.hidden).toBe(true);
    expect(serve(['item-bom']).reply).not.toHaveProperty('hidden');
    // Retirement headers only where item-deprecated is served.
    expect(serve(['string-price', 'item-deprecated']).reply.versioning).toBe(true);
    expect(serve(['item-bom']).reply).not.toHaveProperty('versioning');
    expect([...serve(['item-bom']).body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(serve(['item-not-json']).bodyText.startsWith('<!doctype html>')).toBe(true);
    const truncated = serve(['item-truncated-json']).bodyText;
    expect(truncated).toBe(JSON.stringify(item).slice(0, Math.floor(JSON.stringify(item).length / 2)));
    expect(serve([]).bodyText).toBe(JSON.stringify(item));
  });
});
