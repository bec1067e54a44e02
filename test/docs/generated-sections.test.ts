// The generated sections of the documentation (option tables, deviation catalogue) are exactly what
// scripts/gen-readme.ts renders from the code, and each section the script can render is in one document.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_DOCS, renderGeneratedSections, SECTIONS } from '../../scripts/gen-readme.js';

const read = (file: string): string => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('generated sections of the documentation', () => {
  it.each(GENERATED_DOCS)('%s is exactly what scripts/gen-readme.ts renders from the code', (file) => {
    const text = read(file);
    expect(renderGeneratedSections(text, file), 'run `npm run gen:readme` and commit the result').toBe(text);
  });

  it('holds every section the script can render, each in exactly one document', () => {
    const texts = GENERATED_DOCS.map(read);
    for (const name of Object.keys(SECTIONS)) {
      const holders = GENERATED_DOCS.filter((_file, i) => texts[i]?.includes(`<!-- generated:${name} -->`));
      expect(holders, name).toHaveLength(1);
    }
  });

  it('names an unknown section and its document', () => {
    expect(() => renderGeneratedSections('<!-- generated:nope -->\nx\n<!-- /generated:nope -->', 'docs/x.md'))
      .toThrow('docs/x.md has a section "nope" that scripts/gen-readme.ts does not render');
  });
});
