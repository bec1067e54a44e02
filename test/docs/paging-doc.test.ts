// docs/paging.md holds together with the code: a row for every paging dialect of the crawler, in
// the order they are tried, and a row for every paging finding it can emit.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PAGING_DIALECTS } from '../../src/contract/paging/paging-dialects.js';
import { CONTRACT_CHECKS } from '../../src/floor/finding-codes.js';

const doc = readFileSync(new URL('../../docs/paging.md', import.meta.url), 'utf8');
/** The first-column codes of the table rows under `heading`. */
const rows = (heading: string): string[] => {
  const start = doc.indexOf(heading);
  const section = doc.slice(start, doc.indexOf('\n## ', start + heading.length));
  return [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1] as string);
};

it('lists every paging dialect, in the order the crawler tries them', () => {
  expect(rows('## How a page is read')).toEqual(PAGING_DIALECTS.map((d) => d.name));
});

it('lists every finding of the paging check', () => {
  const paging = CONTRACT_CHECKS.find((c) => c.name === 'paging');
  expect(rows('## Findings').sort()).toEqual([...(paging?.codes ?? [])].sort());
});
