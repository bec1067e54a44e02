import { describe, expect, it } from 'vitest';
import type { Observation } from './contract-finding.js';
import { createFindingAggregator } from './finding-aggregator.js';

const observation = (i: number, overrides: Partial<Observation> = {}): Observation => ({
  severity: 'error', code: 'type', endpoint: 'GET /markets', pointerTemplate: '/*/yes_price', expected: 'number',
  example: { marketId: `M-${i}`, pointer: `/${i}/yes_price`, found: '"0.5"' }, ...overrides,
});

describe('createFindingAggregator', () => {
  it('folds 200,000 identical problems into one finding with a count and three examples', () => {
    const sink = createFindingAggregator();
    for (let i = 0; i < 200_000; i++) sink.add(observation(i));
    const findings = sink.findings();
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ count: 200_000, pointer: '/*/yes_price', found: '"0.5"', message: '/*/yes_price: expected number, found "0.5"' });
    expect(findings[0]?.examples.map((e) => e.marketId)).toEqual(['M-0', 'M-1', 'M-2']);
  });

  it('keys by severity, code, endpoint and pointer template; sorts errors, warnings, information', () => {
    const sink = createFindingAggregator();
    sink.add(observation(0, { severity: 'info', code: 'undocumented-field', pointerTemplate: '/*/volume' }));
    sink.add(observation(1, { severity: 'warning', code: 'float-noise' }));
    sink.add(observation(2, { endpoint: 'GET /markets/{market_id}', pointerTemplate: '/yes_price' }));
    sink.add(observation(3));
    sink.add(observation(4, { pointerTemplate: '/*/no_price' }));
    sink.add(observation(5), 10);
    expect(sink.findings().map((f) => `${f.severity} ${f.code} ${f.endpoint} ${f.pointer} ${f.count}`)).toEqual([
      'error type GET /markets /*/no_price 1',
      'error type GET /markets /*/yes_price 11',
      'error type GET /markets/{market_id} /yes_price 1',
      'warning float-noise GET /markets /*/yes_price 1',
      'info undocumented-field GET /markets /*/volume 1',
    ]);
  });

  it('does not repeat an identical example (a market seen again through the proxy)', () => {
    const sink = createFindingAggregator();
    for (let i = 0; i < 5; i++) sink.add(observation(0));
    sink.add(observation(1));
    expect(sink.findings()[0]).toMatchObject({ count: 6, examples: [{ marketId: 'M-0' }, { marketId: 'M-1' }] });
  });
});
