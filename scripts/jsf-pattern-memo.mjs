// Build-time memo of json-schema-faker's regex parse (it was most of a generated catalog's cold start).
//
// json-schema-faker 0.6.3 draws a string for a `pattern` with generateFromRegex(pattern, random)
// (its src/pattern/regex-gen.ts), which parses the pattern into a syntax tree on every call and
// then walks the tree with `random`. The parse reads the pattern alone (no random draw, no state),
// and the walk only reads the tree, so one tree per pattern string gives the very same strings in
// the very same random order. Market titles are drawn from a ~700-character pattern: the parse is
// most of each draw, and the value pools of a fresh 1,000-market catalog draw ~55 titles and ~50
// ids. A generated `serve` answers its first 200 on /markets sooner (bench/README.md, "What moved
// the figures").
//
// The bundles (dist/cli-main.cjs, dist/index.cjs) carry json-schema-faker inline; this plugin
// rewrites that one function as they are built. The ESM library (dist/index.js) imports the
// package from node_modules untouched: same values, just the slower draws. The memo holds at most
// MEMO_LIMIT trees (patterns come from the schemas a process loads) and is cleared past it.
//
// If json-schema-faker's code no longer has that exact function the build fails, so a new
// version is looked at before it ships; the packaging test compares the bundles' markets with the
// unpatched package's over many seeds. Drop this file once json-schema-faker caches the parse.
import { readFileSync } from 'node:fs';

/** The compiled function, minified: `function m($,Z){let X=F0($,0);return v(X.node,Z)}` in 0.6.3. */
const GENERATE_FROM_REGEX = /function ([\w$]+)\(\$,([\w$]+)\)\{let ([\w$]+)=([\w$]+)\(\$,0\);return ([\w$]+)\(\3\.node,\2\)\}/g;

/** Distinct patterns whose trees are kept; past it the memo starts again. */
export const MEMO_LIMIT = 256;

/** Marker the packaging test looks for in the bundles. */
export const MEMO_NAME = '__marketStubPatternTrees';

/**
 * Returns json-schema-faker's dist/index.js `source` with generateFromRegex's parse memoised per
 * pattern string. Throws when the function is not found exactly once (`file` names the source in
 * the message).
 */
export function memoisePatternParse(source, file) {
  const found = [...source.matchAll(GENERATE_FROM_REGEX)];
  if (found.length !== 1) {
    throw new Error(`${file}: expected json-schema-faker's generateFromRegex once, found it ${found.length} times; ` +
      'its code changed: check that it still parses the pattern on every call, then update or remove scripts/jsf-pattern-memo.mjs.');
  }
  return source.replace(GENERATE_FROM_REGEX, (_, name, random, tree, parse, walk) =>
    `var ${MEMO_NAME}=new Map;function ${name}($,${random}){let ${tree}=${MEMO_NAME}.get($);` +
    `if(${tree}===void 0){${tree}=${parse}($,0);if(${MEMO_NAME}.size>=${MEMO_LIMIT})${MEMO_NAME}.clear();${MEMO_NAME}.set($,${tree})}` +
    `return ${walk}(${tree}.node,${random})}`);
}

/** esbuild plugin: applies memoisePatternParse to json-schema-faker's dist/index.js when a bundle inlines it. */
export function jsfPatternMemoPlugin() {
  return {
    name: 'jsf-pattern-memo',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]json-schema-faker[\\/]dist[\\/]index\.js$/ }, (args) => ({
        contents: memoisePatternParse(readFileSync(args.path, 'utf8'), args.path),
        loader: 'js',
      }));
    },
  };
}
