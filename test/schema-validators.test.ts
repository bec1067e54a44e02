import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { renderCompiledValidators } from '../scripts/gen-validators.mjs';

describe('src/schema/generated/compiled-validators.ts', () => {
  it('is exactly the ajv standalone code scripts/gen-validators.mjs compiles from schemas/market.schema.json', () => {
    const expected = (renderCompiledValidators as () => string)();
    const current = readFileSync(new URL('../src/schema/generated/compiled-validators.ts', import.meta.url), 'utf8');
    expect(current, 'run `npm run gen:validators` and commit the result').toBe(expected);
  });
});
