import { describeFound } from '../../schema/finding.js';

/**
 * Two strings a reader cannot tell apart: they differ only by Unicode normalisation (Unicode
 * Standard Annex #15), `"é"` as U+00E9 (NFC) against U+0065 U+0301 (NFD). A finding that prints
 * both as `"é"` says nothing; this module names the code points where they differ and the form
 * each is in.
 */

/** Code points shown at most per side. */
const MAX_SHOWN = 8;

/** `U+0065 U+0301` for each code point of `text` (at most MAX_SHOWN, then `…`). */
export function codePoints(text: string): string {
  const points = [...text].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  return points.length > MAX_SHOWN ? `${points.slice(0, MAX_SHOWN).join(' ')} …` : points.join(' ');
}

/** The normalisation forms `text` is in (`NFC`, `NFD`, both for text with nothing to compose), or `not normalised`. */
export function normalisationForm(text: string): string {
  const forms = (['NFC', 'NFD'] as const).filter((form) => text.normalize(form) === text);
  return forms.length === 0 ? 'neither NFC nor NFD' : forms.join(' and ');
}

/**
 * When `a` and `b` differ but are equal once normalised (canonically under NFC, or only under the
 * compatibility form NFKC), each described as `"Café" (U+0065 U+0301 at character 4, NFD)`: the
 * code points of the span where they differ, its position (1-based, in code points) and the form
 * the string is in; else undefined (they are equal, or differ in what a reader can see).
 */
export function describeNormalisationDifference(a: string, b: string, max = 60): { a: string; b: string; equivalence: 'canonical' | 'compatibility' } | undefined {
  if (a === b) return undefined;
  const equivalence = a.normalize('NFC') === b.normalize('NFC') ? 'canonical' : a.normalize('NFKC') === b.normalize('NFKC') ? 'compatibility' : undefined;
  if (equivalence === undefined) return undefined;
  const left = [...a];
  const right = [...b];
  let start = 0;
  while (start < left.length && start < right.length && left[start] === right[start]) start++;
  let end = 0;
  while (end < left.length - start && end < right.length - start && left[left.length - 1 - end] === right[right.length - 1 - end]) end++;
  const side = (points: string[], text: string) => {
    const span = points.slice(start, points.length - end).join('');
    return `${describeFound(text, max)} (${span === '' ? 'nothing' : codePoints(span)} at character ${start + 1}, ${normalisationForm(text)})`;
  };
  return { a: side(left, a), b: side(right, b), equivalence };
}

/** The note a finding adds for such a pair: what makes them differ, in words. */
export function normalisationNote(equivalence: 'canonical' | 'compatibility'): string {
  return equivalence === 'canonical'
    ? 'the same text in another Unicode normalisation form (equal after NFC)'
    : 'the same text up to Unicode compatibility characters (equal after NFKC, not after NFC)';
}

/**
 * The normalised form of `value` (NFC, NFD, NFKC, NFKD, in that order) other than itself that
 * `isOriginal` recognises, or undefined: how a text kept only as a prefix and a hash (the listing
 * of a long title) is recovered when the other side differs from it only by normalisation.
 */
export function normalisedVariant(value: string, isOriginal: (candidate: string) => boolean): string | undefined {
  for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD'] as const) {
    const candidate = value.normalize(form);
    if (candidate !== value && isOriginal(candidate)) return candidate;
  }
  return undefined;
}
