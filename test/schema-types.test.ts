import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { renderMarketTypes } from '../scripts/gen-types.mjs';

describe('src/schema/generated/market-types.ts', () => {
  it('is exactly what scripts/gen-types.mjs derives from schemas/market.schema.json', async () => {
    const expected = (await (renderMarketTypes as () => Promise<string>)());
    const current = readFileSync(new URL('../src/schema/generated/market-types.ts', import.meta.url), 'utf8');
    expect(current, 'run `npm run gen:types` and commit the result').toBe(expected);
  });
});
