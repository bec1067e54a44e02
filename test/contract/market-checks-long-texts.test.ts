import { describe, expect, it } from 'vitest';
import { createFindingAggregator } from '../../src/contract/checks/finding-aggregator.js';
import { ListedMarkets } from '../../src/contract/checks/listed-markets.js';
import { checkSingleBody } from '../../src/contract/checks/market-checks.js';

// The single market against the list when the listed title is long (the list keeps a prefix and a
// hash of it, src/contract/checks/listed-markets.ts): another title is a mismatch showing both
// starts; the same title in another Unicode normalisation form is a mismatch that says so, with the
// code points where they part, never `expected "X", found "X"`.

const title = `Will the ${'café '.repeat(60)}open?`;
const market = { market_id: 'm-1', title, status: 'active', yes_price: 0.6, no_price: 0.4, resolution_date: '2026-12-31' };

function againstList(singleTitle: string) {
  const listed = new ListedMarkets();
  const { resolution_date: _, ...summary } = market;
  listed.set('m-1', summary);
  const ctx = { sink: createFindingAggregator(), today: '2026-06-01' };
  const result = checkSingleBody({ request: '/markets/m-1', status: 200, contentType: 'application/json' }, JSON.stringify({ ...market, title: singleTitle }), 'm-1', listed.get('m-1'), ctx);
  return { result, findings: ctx.sink.findings().map((f) => [f.severity, f.code, f.pointer, f.expected, f.examples[0]?.found]) };
}

describe('a long listed title', () => {
  it('the same text is no finding', () => {
    expect(againstList(title).findings).toEqual([]);
  });

  it('another text: an error showing the start of each', () => {
    expect(againstList(`Something else ${'x'.repeat(300)}`).findings).toEqual([
      ['error', 'list-single-mismatch', '/title', 'the title the list shows ("Will the café café café …")', '"Something else xxxxxxxxxxxxxxxxxxxxxxx…'],
    ]);
  });

  it('the same text in NFD: an error naming the forms and the code points where they part', () => {
    const [finding] = againstList(title.normalize('NFD')).findings;
    expect(finding?.slice(0, 3)).toEqual(['error', 'list-single-mismatch', '/title']);
    expect(finding?.[3]).toBe('the title the list shows ("Will the café café café café café café… (U+00E9 U+0020 U+0063 U+0061 U+0066 U+00E9 U+0020 U+0063 … at character 13, NFC))');
    expect(finding?.[4]).toBe(`"${'Will the café café café café café'.normalize('NFD')}… (U+0065 U+0301 U+0020 U+0063 U+0061 U+0066 U+0065 U+0301 … at character 13, NFD): the same text in another Unicode normalisation form (equal after NFC)`);
  });
});
