import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderReadme, SECTIONS } from '../../scripts/gen-readme.js';

describe('README.md generated sections', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it('are exactly what scripts/gen-readme.ts renders from the code (the option tables of every command)', () => {
    expect(renderReadme(readme), 'run `npm run gen:readme` and commit the result').toBe(readme);
  });

  it('holds every section the script can render', () => {
    for (const name of Object.keys(SECTIONS)) expect(readme, name).toContain(`<!-- generated:${name} -->`);
  });
});
