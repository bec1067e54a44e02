import { describe, expect, it } from 'vitest';
import { nearestName } from './nearest-name.js';

describe('nearestName: the one "did you mean" rule of every surface', () => {
  const flags = ['port', 'host', 'out', 'count', 'seed', 'journal-size', 'journal-bytes'];

  it.each([
    ['prot', 'port'],
    ['hots', 'host'],
    ['cuont', 'count'],
    ['coutn', 'count'],
    ['journal-siz', 'journal-size'],
    ['jurnal-sise', 'journal-size'],
    ['seeed', 'seed'],
  ])('%s → %s', (given, meant) => {
    expect(nearestName(given, flags)).toBe(meant);
  });

  it.each([['port', ['out', 'count']], ['x', flags], ['journal', ['port', 'host']], ['anything', []]] as const)('no guess for %s among %j', (given, known) => {
    expect(nearestName(given, known)).toBeUndefined();
  });

  it('scales with the name: three edits for a long one, one for a short one unless it is a swap', () => {
    expect(nearestName('strng-prce', ['string-price'])).toBe('string-price');
    expect(nearestName('strng-prce-x', ['string-price'])).toBeUndefined();
    expect(nearestName('pxrt', ['port'])).toBe('port');
    expect(nearestName('pxxt', ['port'])).toBeUndefined();
    expect(nearestName('oprt', ['port'])).toBe('port');
  });
});
