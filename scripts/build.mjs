// Builds dist/ with esbuild's API (tsup 9 and tsdown need Node 22; engines say >=20.19):
//
//   dist/cli.js (+ dist/chunks/*.js)   the CLI: one ESM file with a shebang, its command modules
//                                      as lazy chunks (code splitting, loaded by dynamic import())
//   dist/index.js, dist/index.cjs      the library, ESM and CommonJS
//   dist/index.d.ts, dist/index.d.cts  its declarations, bundled into one file each
//   *.map                              source maps beside every output (original file:line in
//                                      stack traces under `node --enable-source-maps`)
//
//   node scripts/build.mjs                      the layout the package ships
//   node scripts/build.mjs --cli-bundle-deps    also bundle the CLI's static dependencies (yargs,
//                                               pino, json-schema-faker) into dist/ (measurement)
//
// Entries are data (ENTRIES below): a new subpath export is one line there plus its line in
// package.json "exports" (test/packaging checks that both agree).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = path.join(ROOT, 'dist');
/** tsc's declaration output, input of the declaration bundles; removed after the build. */
const TYPES_TMP = path.join(ROOT, '.build', 'types');

/**
 * What dist/ holds. `library` entries get ESM + CommonJS + bundled declarations and keep their
 * dependencies external; the `cli` entry is ESM only, with code splitting.
 * @type {readonly { kind: 'cli' | 'library', name: string, source: string }[]}
 */
export const ENTRIES = [
  { kind: 'cli', name: 'cli', source: 'src/cli.ts' },
  { kind: 'library', name: 'index', source: 'src/index.ts' },
];

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const require = createRequire(import.meta.url);

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
  legalComments: 'linked',
  logLevel: 'warning',
  // An unexpected warning (an import.meta in CommonJS, a missing export) fails the build.
  logOverride: {},
  plugins: [packageInfoPlugin()],
};

/**
 * Serves the root package.json to src/core/package-info.ts as `{ name, version }` only, so the
 * bundles carry market-stub's own version and nothing else from the manifest.
 */
function packageInfoPlugin() {
  const manifest = path.join(ROOT, 'package.json');
  return {
    name: 'package-info',
    setup(b) {
      b.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
        if (path.resolve(args.path) !== manifest) return undefined;
        return { contents: JSON.stringify({ name: pkg.name, version: pkg.version }), loader: 'json' };
      });
    },
  };
}

/**
 * Dependencies a CommonJS bundle has to carry inside it: ESM-only packages. Node >=20.19 could
 * require() them, but Jest's CommonJS module system cannot, and a Jest/ts-jest project in its
 * default mode is exactly who loads index.cjs. Everything else stays external.
 */
function esmOnlyDependencies() {
  return Object.keys(pkg.dependencies ?? {}).filter((name) => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
    const exported = manifest.exports?.['.'] ?? manifest.exports;
    const requirable = typeof exported === 'object' && exported !== null && ('require' in exported || 'node' in exported || 'default' in exported && manifest.type !== 'module');
    return manifest.type === 'module' && !requirable;
  });
}

/** Fails the build when the CommonJS output still reads import.meta (Jest would see `{}`). */
function assertNoImportMeta(file) {
  const text = readFileSync(file, 'utf8');
  if (text.includes('import.meta')) throw new Error(`${path.relative(ROOT, file)} contains import.meta: CommonJS consumers (Jest) would get an empty object; see the define in buildLibrary.`);
}

async function buildCli(entry, { bundleDeps }) {
  await build({
    ...COMMON,
    entryPoints: { [entry.name]: entry.source },
    outdir: DIST,
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Default: dependencies load from node_modules (a bundled copy of yargs/pino would be a
    // second copy beside the one npm installs anyway). --cli-bundle-deps measures the other way.
    ...(bundleDeps
      ? {
          external: ['ajv', 'ajv-formats', 'express', 'pino-pretty', 'xmlbuilder2'],
          // Bundled CommonJS code (pino) calls require() for Node built-ins; ESM has none.
          banner: { js: "import { createRequire as __marketStubCreateRequire } from 'node:module'; const require = __marketStubCreateRequire(import.meta.url);" },
        }
      : { packages: 'external' }),
  });
}

async function buildLibrary(entry) {
  await build({ ...COMMON, entryPoints: { [entry.name]: entry.source }, outdir: DIST, format: 'esm', packages: 'external' });
  const inline = esmOnlyDependencies();
  await build({
    ...COMMON,
    entryPoints: { [entry.name]: entry.source },
    outdir: DIST,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    external: Object.keys(pkg.dependencies ?? {}).filter((name) => !inline.includes(name)),
    // src/core/module-url.ts reads import.meta.url; CommonJS has __filename instead.
    define: { 'import.meta.url': '__marketStubModuleUrl' },
    inject: [path.join(ROOT, 'scripts/cjs-module-url.js')],
  });
  assertNoImportMeta(path.join(DIST, `${entry.name}.cjs`));
}

/** tsc writes every declaration once; rollup-plugin-dts bundles one file per library entry. */
async function buildDeclarations(entries) {
  rmSync(TYPES_TMP, { recursive: true, force: true });
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', TYPES_TMP], { cwd: ROOT, stdio: 'inherit' });
  for (const entry of entries) {
    const input = path.join(TYPES_TMP, entry.source.replace(/\.ts$/, '.d.ts'));
    const bundle = await rollup({ input, plugins: [dts({ respectExternal: false })], onwarn: (warning) => console.warn(`declaration bundle ${entry.name}: ${warning.message}`) });
    const out = path.join(DIST, `${entry.name}.d.ts`);
    await bundle.write({ file: out, format: 'es' });
    await bundle.close();
    // The same declarations describe index.cjs: a .d.cts beside it so TypeScript reads them as
    // CommonJS for `require` (arethetypeswrong: no "masquerading as ESM").
    copyFileSync(out, path.join(DIST, `${entry.name}.d.cts`));
  }
  rmSync(path.join(ROOT, '.build'), { recursive: true, force: true });
}

async function main() {
  const started = performance.now();
  const bundleDeps = process.argv.includes('--cli-bundle-deps');
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  const libraries = ENTRIES.filter((e) => e.kind === 'library');
  for (const entry of ENTRIES) {
    if (entry.kind === 'cli') await buildCli(entry, { bundleDeps });
    else await buildLibrary(entry);
  }
  await buildDeclarations(libraries);
  if (!existsSync(path.join(DIST, 'cli.js'))) throw new Error('dist/cli.js was not written');
  process.stdout.write(`build: dist/ in ${Math.round(performance.now() - started)} ms${bundleDeps ? ' (CLI dependencies bundled)' : ''}\n`);
}

await main();
