// scripts/jsf-pattern-memo.mjs: the build's memo of json-schema-faker's regex parse must change
// no drawn value. The installed package, rewritten as the bundles are, is imported from a temporary
// file and compared with the untouched package over many seeds and patterns.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as jsf from 'json-schema-faker';
// @ts-expect-error: a plain .mjs build script without type declarations
import { MEMO_LIMIT, MEMO_NAME, memoisePatternParse } from '../../scripts/jsf-pattern-memo.mjs';
import { loadMarketSchema } from '../../src/index.js';

type GenerateSync = typeof jsf.generateSync;
const memoise = memoisePatternParse as (source: string, file: string) => string;
/** The file the build rewrites: the package as installed (scripts/jsf-pattern-memo.mjs matches this path). */
const JSF_FILE = fileURLToPath(new URL('../../node_modules/json-schema-faker/dist/index.js', import.meta.url));

let work: string;
let patched: GenerateSync;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'market-stub-jsf-memo-'));
  const file = path.join(work, 'json-schema-faker.mjs');
  // Without its sourceMappingURL: the map stays beside the installed file, not this copy.
  writeFileSync(file, memoise(readFileSync(JSF_FILE, 'utf8'), JSF_FILE).replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n'));
  patched = ((await import(pathToFileURL(file).href)) as typeof jsf).generateSync;
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Each pattern-drawn field of $defs/GeneratedMarket, and the whole generated market. */
function marketSchemas(): Record<string, jsf.JsonSchema> {
  const generated = loadMarketSchema().$defs['GeneratedMarket'] as { properties: Record<string, jsf.JsonSchema> };
  return { ...generated.properties, market: generated as jsf.JsonSchema };
}

describe('json-schema-faker with the pattern memo', () => {
  it('draws exactly what the untouched package draws for every field of a generated market, 300 seeds each, in an interleaved order', () => {
    const schemas = Object.entries(marketSchemas());
    expect(schemas.map(([name]) => name)).toEqual(expect.arrayContaining(['title', 'market_id', 'market']));
    for (let seed = 0; seed < 300; seed++) {
      for (const [name, schema] of schemas) {
        expect(patched(schema, { seed }), `${name}, seed ${seed}`).toEqual(jsf.generateSync(schema, { seed }));
      }
    }
  });

  it('stays exact past MEMO_LIMIT distinct patterns (the memo is cleared and refilled)', () => {
    const limit = MEMO_LIMIT as number;
    for (let i = 0; i < limit * 2 + 7; i++) {
      const schema: jsf.JsonSchema = { type: 'string', pattern: `^(a|b${i}|[c-f]{2,4})x\\d{1,3}$` };
      // The second draw of each pattern comes from its remembered tree, the first (after a clear) from a fresh parse.
      for (const seed of [i, i + 1]) expect(patched(schema, { seed })).toBe(jsf.generateSync(schema, { seed }));
    }
  });

  it('rewrites the installed package once, and fails the build with the file named when its code no longer matches', () => {
    const source = readFileSync(JSF_FILE, 'utf8');
    const out = memoise(source, JSF_FILE);
    expect(out.split(MEMO_NAME as string).length - 1).toBeGreaterThan(2);
    expect(() => memoise(source.replace(/function ([\w$]+)\(\$,([\w$]+)\)\{let /, 'function $1($,$2){var '), 'jsf/index.js')).toThrow(/jsf\/index\.js: expected json-schema-faker's generateFromRegex once, found it 0 times/);
    const once = /function [\w$]+\(\$,[\w$]+\)\{let [\w$]+=[\w$]+\(\$,0\);return [\w$]+\([\w$]+\.node,[\w$]+\)\}/.exec(source)?.[0] ?? '';
    expect(() => memoise(`${source}\n${once}`, 'jsf/index.js')).toThrow(/found it 2 times/);
  });
});
