import { describe, expect, it } from 'vitest';
import { codePoints, describeNormalisationDifference, normalisationForm, normalisedVariant } from './unicode-difference.js';

describe('describeNormalisationDifference', () => {
  it('names the differing code points, their position and each side\'s form', () => {
    expect(describeNormalisationDifference('café', 'cafe\u0301')).toEqual({ a: '"café" (U+00E9 at character 4, NFC)', b: '"cafe\u0301" (U+0065 U+0301 at character 4, NFD)', equivalence: 'canonical' });
  });

  it('tells compatibility equivalence (NFKC) from canonical, and leaves visibly different or equal texts alone', () => {
    expect(describeNormalisationDifference('ﬁne', 'fine')?.equivalence).toBe('compatibility');
    expect(describeNormalisationDifference('fine', 'fino')).toBeUndefined();
    expect(describeNormalisationDifference('same', 'same')).toBeUndefined();
  });

  it('counts positions in code points (an astral character is one) and bounds what it shows', () => {
    expect(describeNormalisationDifference('😀é', '😀e\u0301')?.b).toBe('"😀e\u0301" (U+0065 U+0301 at character 2, NFD)');
    expect(codePoints('e\u0301'.repeat(10))).toBe('U+0065 U+0301 U+0065 U+0301 U+0065 U+0301 U+0065 U+0301 …');
    expect(describeNormalisationDifference(`${'x'.repeat(100)}é`, `${'x'.repeat(100)}e\u0301`)?.a).toMatch(/^"x{58}… \(U\+00E9 at character 101, NFC\)$/);
  });

  it('names text in neither form, and recovers a normalised variant by a predicate', () => {
    expect(normalisationForm('\u1E0B\u0323')).toBe('neither NFC nor NFD');
    expect(normalisedVariant('cafe\u0301', (c) => c === 'café')).toBe('café');
    expect(normalisedVariant('plain', () => true)).toBeUndefined();
  });
});
