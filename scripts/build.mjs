// Builds dist/ with esbuild's API (tsup 9 and tsdown need Node 22; engines say >=20.19):
//
//   dist/cli.cjs                        the CLI's entry: CommonJS with a shebang; turns on Node's
//                                       compile cache, then requires dist/cli-main.cjs
//   dist/cli-main.cjs                   the command-line reader, the help pages and the commands
//                                       (CommonJS; a command's code runs only when it runs)
//   dist/cli-crawl.cjs                  check, record and proxy (CommonJS): their one lazy load,
//                                       so `serve` never compiles them
//   dist/index.js, dist/index.cjs       the library, ESM and CommonJS
//   dist/index.d.ts, dist/index.d.cts   its declarations, bundled into one file each
//   dist/*.map                          source maps (original file:line under --enable-source-maps)
//   dist/THIRD-PARTY-LICENSES.md        the licences of the packages bundled into dist/
//
//   node scripts/build.mjs                      the layout the package ships
//   node scripts/build.mjs --cli-external-deps  the CLI loads pino, json-schema-faker… from
//                                               node_modules instead (to measure the difference)
//
// Why this layout (the figures: bench/README.md "What moved the figures"): the CLI is CommonJS,
// because the ESM loader's work per chunk and the ESM facade of every built-in (which evaluates all
// of its lazy exports) delay the ready line. It bundles the dependencies every `serve` needs (pino,
// json-schema-faker) and those its commands import statically; the ones only some lines need load
// from node_modules when first needed: chokidar (--watch), undici and tough-cookie (check, record, proxy),
// @modelcontextprotocol/sdk (mcp) by
// import(), ajv, express, pino-pretty and xmlbuilder2 by createRequire (src/**/load-*.ts). The
// library builds keep the other dependencies external, except that the CommonJS build carries the
// ESM-only ones (Jest's CommonJS module system cannot require ESM) and the ESM build the small ones
// (ESM_INLINE_DEPENDENCIES: the ESM loader resolves and reads each package an import names).
//
// Where a bundle carries json-schema-faker (dist/cli-main.cjs, dist/index.cjs), its regex parse is
// memoised per pattern (scripts/jsf-pattern-memo.mjs): same values, a generated `serve` answers sooner.
//
// Entries are data: a new subpath export (e.g. `market-stub/testcontainers`) is one line in
// scripts/build-entries.json plus its entry in package.json "exports" (test/packaging checks
// that both agree).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { buildConsole } from './build-console.mjs';
import { jsfPatternMemoPlugin } from './jsf-pattern-memo.mjs';
import { packageInfoPlugin, writeThirdPartyLicenses } from './bundle-helpers.mjs';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = path.join(ROOT, 'dist');
/** tsc's declaration output, the input of the declaration bundles; removed after the build. */
const BUILD_TMP = path.join(ROOT, '.build');

/**
 * What dist/ holds (scripts/build-entries.json). `cli`: three CommonJS files, `<name>.cjs` from
 * `source`, `<name>-main.cjs` from `main` and `<name>-crawl.cjs` from `crawl` (see buildCli). `library`: ESM + CommonJS + bundled
 * declarations, dependencies external, published as `subpath` of package.json "exports". `name` is
 * the output's base name.
 * @type {readonly { kind: 'cli' | 'library', name: string, source: string, main?: string, subpath?: string }[]}
 */
const ENTRIES = JSON.parse(readFileSync(path.join(ROOT, 'scripts/build-entries.json'), 'utf8'));

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const require = createRequire(import.meta.url);
const DEPENDENCIES = Object.keys(pkg.dependencies ?? {});
/** Optional peer dependencies (testcontainers for market-stub/testcontainers): always external, never bundled. */
const PEER_DEPENDENCIES = Object.keys(pkg.peerDependencies ?? {});

/** Lowest Node the package supports (engines), as an esbuild target. */
const TARGET = `node${pkg.engines.node.replace(/^>=/, '')}`;

const COMMON = {
  bundle: true,
  platform: 'node',
  target: TARGET,
  sourcemap: true,
  // Positions only: the sources are the repository at the released version; embedding them
  // would triple the package.
  sourcesContent: false,
  // Bundled packages' notices go to THIRD-PARTY-LICENSES.md, whole.
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  // json-schema-faker, where a bundle inlines it, parses each regex pattern once (scripts/jsf-pattern-memo.mjs).
  plugins: [packageInfoPlugin(ROOT), jsfPatternMemoPlugin()],
};

/** A dependency's package.json, read from node_modules (a package's exports may hide it). */
function manifestOf(name) {
  return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
}

/**
 * Dependencies a CommonJS bundle has to carry inside it: ESM-only packages (`"type": "module"`
 * and no `require` condition). Node >=20.19 could require() them, but Jest's CommonJS module
 * system cannot, and a Jest/ts-jest project in its default mode is exactly who loads index.cjs.
 */
function esmOnlyDependencies() {
  return DEPENDENCIES.filter((name) => {
    const manifest = manifestOf(name);
    const exported = manifest.exports?.['.'] ?? manifest.exports;
    const hasRequire = typeof exported === 'object' && exported !== null && 'require' in exported;
    return manifest.type === 'module' && !hasRequire;
  });
}

/**
 * What every CommonJS output (the library's index.cjs, the CLI's files) needs: its
 * `import.meta.url` (the lazy createRequire calls for ajv, express, pino-pretty, xmlbuilder2)
 * becomes the file URL of the output file, from scripts/cjs-module-url.js.
 */
const CJS_MODULE_URL = {
  define: { 'import.meta.url': '__marketStubModuleUrl' },
  inject: [path.join(ROOT, 'scripts/cjs-module-url.js')],
};

/** Fails the build when the CommonJS output still reads import.meta (Jest would see `{}`). */
function assertNoImportMeta(file) {
  if (readFileSync(file, 'utf8').includes('import.meta')) {
    throw new Error(`${path.relative(ROOT, file)} contains import.meta: CommonJS consumers (Jest) would get an empty object; see CJS_MODULE_URL.`);
  }
}

/**
 * Dependencies the CLI loads from node_modules when a line needs them instead of bundling them:
 * each is reached only through a dynamic import() (which CommonJS output keeps), and each is a
 * runtime dependency of the package anyway: code that every start would otherwise compile. The optional
 * peers too (@opentelemetry/api: loaded only when a tracer provider is registered, http/request-spans.ts).
 */
const LAZY_CLI_DEPENDENCIES = ['undici', 'chokidar', 'tough-cookie', '@modelcontextprotocol/sdk', ...PEER_DEPENDENCIES];

/** What both CLI files share: CommonJS, import.meta.url as the file URL of the output file (CJS_MODULE_URL). */
function cliOptions(externalDeps) {
  return {
    ...COMMON,
    outdir: DIST,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    ...CJS_MODULE_URL,
    ...(externalDeps ? { packages: 'external' } : { external: LAZY_CLI_DEPENDENCIES }),
  };
}

/**
 * The entry's import of the commands (src/cli.ts → ./cli/run-cli.js) becomes a require of the
 * other output file, dist/<name>-main.cjs, so that Node's compile cache (Node 22.1+), which the
 * entry turns on first, can serve the commands' compiled code.
 */
function cliMainPlugin(entry) {
  const main = path.resolve(ROOT, entry.main);
  return {
    name: 'cli-main',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (path.resolve(args.importer) !== path.resolve(ROOT, entry.source)) return undefined;
        return path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === main ? { path: `./${entry.name}-main.cjs`, external: true } : undefined;
      });
    },
  };
}

/**
 * The commands' import of the crawl commands (src/cli/*-command.ts → ./crawl-commands.js) becomes
 * an import() of dist/<name>-crawl.cjs: V8 compiles a file whole before any of it runs, and check,
 * record and proxy with the crawl, the report formats and the recording proxy are a quarter of the
 * commands' code, which every `serve` start would compile. Modules both files use are bundled into
 * each; nothing crosses between them but the resolved options (data), the CLI's io functions and
 * an exit code.
 */
function cliCrawlPlugin(entry) {
  const crawl = path.resolve(ROOT, entry.crawl);
  return {
    name: 'cli-crawl',
    setup(b) {
      b.onResolve({ filter: /^\.\/crawl-commands\.js$/ }, (args) =>
        path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === crawl ? { path: `./${entry.name}-crawl.cjs`, external: true } : undefined,
      );
    },
  };
}

async function buildCli(entry, { externalDeps }) {
  const options = cliOptions(externalDeps);
  const edge = await build({
    ...options,
    entryPoints: { [entry.name]: entry.source },
    plugins: [...COMMON.plugins, cliMainPlugin(entry)],
    // import() of the commands becomes require(): a CommonJS file loaded without the ESM loader.
    supported: { 'dynamic-import': false },
  });
  const main = await build({ ...options, entryPoints: { [`${entry.name}-main`]: entry.main }, plugins: [...COMMON.plugins, cliCrawlPlugin(entry)] });
  const crawl = await build({ ...options, entryPoints: { [`${entry.name}-crawl`]: entry.crawl } });
  for (const name of [entry.name, `${entry.name}-main`, `${entry.name}-crawl`]) assertNoImportMeta(path.join(DIST, `${name}.cjs`));
  return [edge, main, crawl];
}

/**
 * Another library entry (market-stub/testcontainers) imports the public API from src/index.ts as
 * './index.js': in its bundle that import becomes the package itself (`market-stub`, resolved by
 * Node's self-reference through "exports"), so every entry shares one copy of the library, one
 * MarketStubError class included, instead of bundling its own.
 */
function sharedIndexPlugin(entry) {
  return {
    name: 'shared-index',
    setup(b) {
      if (entry.name === 'index') return;
      b.onResolve({ filter: /^\.\/index\.js$/ }, (args) => (path.resolve(args.resolveDir) === path.join(ROOT, 'src') ? { path: pkg.name, external: true } : undefined));
    },
  };
}

/**
 * Small dependencies the ESM library builds carry inline. Node's ESM loader resolves, reads and (for
 * CommonJS) lexes with cjs-module-lexer every file an ES module imports from a package, which made
 * `import('market-stub')` slower than the previous release's when the request core, the validators
 * and the reports started importing these; inline, esbuild wraps each once (the figures:
 * bench/README.md "What moved the figures"). Each stays a dependency (its licence in
 * THIRD-PARTY-LICENSES.md); of `ajv` and `ajv-formats` only the runtime helpers the generated
 * validators import are inlined (the full packages still load lazily through createRequire), and
 * `fast-deep-equal` comes inline with json-merge-patch. json-schema-faker stays external: large,
 * and ESM already.
 */
const ESM_INLINE_DEPENDENCIES = ['escape-html', 'statuses', 'json-merge-patch', 'ajv', 'ajv-formats', 'stream-json', 'stream-chain', 'fastest-levenshtein', 'structured-headers', 'p-queue', 'fresh'];

async function buildLibrary(entry) {
  const plugins = [...COMMON.plugins, sharedIndexPlugin(entry)];
  const esmExternal = [...DEPENDENCIES.filter((name) => !ESM_INLINE_DEPENDENCIES.includes(name)), ...PEER_DEPENDENCIES].flatMap((name) => [name, `${name}/*`]);
  const esm = await build({ ...COMMON, plugins, entryPoints: { [entry.name]: entry.source }, outdir: DIST, format: 'esm', external: esmExternal });
  const inline = esmOnlyDependencies();
  const cjs = await build({
    ...COMMON,
    plugins,
    entryPoints: { [entry.name]: entry.source },
    outdir: DIST,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    external: [...DEPENDENCIES.filter((name) => !inline.includes(name)), ...PEER_DEPENDENCIES].flatMap((name) => [name, `${name}/*`]),
    ...CJS_MODULE_URL,
  });
  assertNoImportMeta(path.join(DIST, `${entry.name}.cjs`));
  return [esm, cjs];
}

/** tsc writes every declaration once; rollup-plugin-dts bundles one file per library entry. */
async function buildDeclarations(entries) {
  const typesDir = path.join(BUILD_TMP, 'types');
  rmSync(BUILD_TMP, { recursive: true, force: true });
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', typesDir], { cwd: ROOT, stdio: 'inherit' });
  for (const entry of entries) {
    const input = path.join(typesDir, entry.source.replace(/\.ts$/, '.d.ts'));
    // As in the bundles (sharedIndexPlugin): another entry's types refer to the package's own, not a copy of them.
    const sharedIndexTypes = { name: 'shared-index-types', resolveId: (source, importer) => (entry.name !== 'index' && source === './index.js' && importer && path.dirname(importer) === path.join(typesDir, 'src') ? { id: pkg.name, external: true } : null) };
    const bundle = await rollup({ input, plugins: [sharedIndexTypes, dts()], onwarn: (warning) => { if (warning.code !== 'UNRESOLVED_IMPORT') throw new Error(`declaration bundle ${entry.name}: ${warning.message}`); } });
    const out = path.join(DIST, `${entry.name}.d.ts`);
    await bundle.write({ file: out, format: 'es' });
    await bundle.close();
    // The published types must compile with only market-stub installed: no import of another
    // package's (or Node's) types may survive into them.
    const text = readFileSync(out, 'utf8');
    // An entry for an optional peer dependency (market-stub/testcontainers) may use that package's types (whoever imports it has it installed), and the package's own.
    const foreign = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|<reference\s+types=)['"]([^'"]+)['"]/g)].map((m) => m[1]).filter((name) => !PEER_DEPENDENCIES.includes(name) && name !== pkg.name);
    if (foreign.length > 0) throw new Error(`dist/${entry.name}.d.ts imports ${[...new Set(foreign)].join(', ')}: the published types must not need another package's types (src/floor/stub-logger.ts shows how the logger option avoids pino's).`);
    // The same declarations describe index.cjs: as a .d.cts beside it TypeScript reads them as
    // CommonJS for `require` (arethetypeswrong: no "masquerading as ESM").
    copyFileSync(out, path.join(DIST, `${entry.name}.d.cts`));
  }
  rmSync(BUILD_TMP, { recursive: true, force: true });
}

/**
 * dist/fixture-reader-worker.cjs: the worker thread that reads a watched fixture set off the
 * serving thread (src/file-system/read-fixtures-off-thread.ts starts it from the file beside its bundle).
 */
async function buildFixtureReaderWorker() {
  const result = await build({ ...COMMON, ...CJS_MODULE_URL, entryPoints: { 'fixture-reader-worker': 'src/file-system/fixture-reader-worker.ts' }, outdir: DIST, format: 'cjs', outExtension: { '.js': '.cjs' } });
  assertNoImportMeta(path.join(DIST, 'fixture-reader-worker.cjs'));
  return result;
}

async function main() {
  const started = performance.now();
  const externalDeps = process.argv.includes('--cli-external-deps');
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  const results = [];
  for (const entry of ENTRIES) {
    if (entry.kind === 'cli') results.push(...(await buildCli(entry, { externalDeps })));
    else results.push(...(await buildLibrary(entry)));
  }
  results.push(await buildFixtureReaderWorker());
  await buildDeclarations(ENTRIES.filter((e) => e.kind === 'library'));
  const consoleFiles = await buildConsole(ROOT);
  const bundled = writeThirdPartyLicenses(ROOT, results, DIST);
  if (!existsSync(path.join(DIST, 'cli.cjs'))) throw new Error('dist/cli.cjs was not written');
  process.stdout.write(`build: dist/ in ${Math.round(performance.now() - started)} ms (${bundled} packages bundled${externalDeps ? ', CLI dependencies external' : ''})\n`);
  const sum = (key) => consoleFiles.reduce((total, f) => total + f[key], 0);
  process.stdout.write(`build: dist/console/ ${sum('bytes')} bytes, ${sum('gzipBytes')} gzipped (${consoleFiles.map((f) => `${f.file} ${f.bytes}`).join(', ')})\n`);
}

await main();
