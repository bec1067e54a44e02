// Builds the Node side of the Python package (python/, distribution `market-stub`):
//
//   python/src/market_stub/_bundled/cli.cjs                   the CLI, one CommonJS file with EVERY
//                                                             dependency inline (no node_modules)
//   python/src/market_stub/_bundled/fixture-reader-worker.cjs the worker `serve --watch` starts
//   python/src/market_stub/_bundled/console/                  the admin console's files (from dist/)
//   python/src/market_stub/_bundled/manifest.json             version and the Node floor (engines)
//   python/src/market_stub/_bundled/THIRD-PARTY-LICENSES.md   licences of the packages inlined
//
// dist/ loads chokidar and undici with import() and ajv, express, pino-pretty and
// xmlbuilder2 with createRequire from node_modules (scripts/build.mjs). Here every one of them is
// inlined: the createRequire calls of src/ become plain require() calls esbuild can follow (a
// source file whose createRequire is left unrewritten fails the build), and import() is bundled.
// The build then proves the result needs nothing else: the metafile may name Node built-ins only,
// and a copy of _bundled/ in an empty temporary folder must answer GET /markets with 200 after
// `node _launcher.cjs --port 0` (the launcher the Python package starts).
//
//   node scripts/build-python.mjs          runs `npm run build` first when dist/ is missing
//
// The wheel itself is built by python/build-wheel.sh (hatchling), `npm run build:python` runs both.
import { execFileSync, spawn } from 'node:child_process';
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { packageInfoPlugin, writeThirdPartyLicenses } from './bundle-helpers.mjs';
import { jsfPatternMemoPlugin } from './jsf-pattern-memo.mjs';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = path.join(ROOT, 'dist');
const PACKAGE = path.join(ROOT, 'python/src/market_stub');
const OUT = path.join(PACKAGE, '_bundled');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
/** Lowest Node the package supports (engines, `>=20.19`), as `20.19`. */
const NODE_FLOOR = pkg.engines.node.replace(/^>=/, '');
/** Longest wait for the empty-folder proof's ready line and first 200, ms. */
const PROOF_TIMEOUT_MS = 30_000;

/** `createRequire(import.meta.url)(` and `const require = createRequire(import.meta.url);` in src/. */
const CREATE_REQUIRE_CALL = /createRequire\(import\.meta\.url\)\(/g;
const CREATE_REQUIRE_BINDING = /const require = createRequire\(import\.meta\.url\);/g;

/**
 * Rewrites src/'s lazy createRequire loads into require() calls esbuild bundles. A file that still
 * reads `createRequire(import.meta.url)` afterwards (a new form of lazy load) fails the build, so
 * no dependency can silently stay outside the bundle.
 */
function inlineLazyRequiresPlugin() {
  const src = path.join(ROOT, 'src') + path.sep;
  return {
    name: 'inline-lazy-requires',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(src)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('createRequire')) return undefined;
        const rewritten = text.replace(CREATE_REQUIRE_BINDING, '').replace(CREATE_REQUIRE_CALL, 'require(');
        if (rewritten.includes('createRequire(import.meta.url)')) throw new Error(`${path.relative(ROOT, args.path)}: a createRequire(import.meta.url) form scripts/build-python.mjs cannot inline`);
        return { contents: rewritten, loader: 'ts' };
      });
    },
  };
}

/** Node's built-in modules; any `node:` name is one too (node:sqlite is built in from Node 22 and not listed on 20). */
const BUILTINS = new Set(builtinModules);
const isBuiltin = (name) => name.startsWith('node:') || BUILTINS.has(name);

/** @throws Error naming every import of a bundle that is not a Node built-in (it would need node_modules). */
function assertSelfContained(result) {
  const outside = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) if (imported.external && !isBuiltin(imported.path) && !isOwnOutput(imported.path)) outside.add(imported.path);
  }
  if (outside.size > 0) throw new Error(`the bundled CLI still imports ${[...outside].join(', ')} from outside the bundle`);
}

/**
 * Packages only some command lines need, each bundled whole into its own file `deps/<name>.cjs`
 * that the CLI requires when first needed (scripts/build.mjs loads the same ones lazily from
 * node_modules): a `serve` start parses none of them.
 */
const LAZY_PACKAGES = ['chokidar', 'undici', 'ajv', 'ajv-formats', 'express', 'pino-pretty', 'xmlbuilder2', 'raw-body'];

/**
 * Which imports become a require of another output file instead of being inlined: the lazy
 * packages (`deps/<name>.cjs`) and the MCP SDK (`deps/mcp-sdk.cjs`), and, as in dist/, src/cli.ts's import of the commands
 * (`cli-main.cjs`) and the commands' import of check, record and proxy (`cli-crawl.cjs`).
 */
function splitPlugin() {
  const lazy = new RegExp(`^(${LAZY_PACKAGES.join('|')})$`);
  const source = (file) => path.join(ROOT, 'src', file);
  const files = { [source('cli/run-cli.ts')]: './cli-main.cjs', [source('cli/crawl-commands.ts')]: './cli-crawl.cjs', [source('mcp/sdk.ts')]: './deps/mcp-sdk.cjs' };
  return {
    name: 'split',
    setup(b) {
      b.onResolve({ filter: lazy }, (args) => ({ path: `./deps/${args.path}.cjs`, external: true }));
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = files[path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'))];
        return target && args.kind !== 'entry-point' ? { path: target, external: true } : undefined;
      });
    },
  };
}

/** A split output may require another output file of _bundled/ (`./deps/undici.cjs`), which must exist once all are built. */
const isOwnOutput = (name) => name.startsWith('./');

/** One output file; `split` (the CLI's files) requires the other outputs instead of inlining them, a lazy package's file inlines everything. */
async function bundle(entry, name, split) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: `node${NODE_FLOOR}`,
    format: 'cjs',
    outfile: path.join(OUT, `${name}.cjs`),
    // import() of the commands and of chokidar, undici becomes require().
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__marketStubModuleUrl' },
    inject: [path.join(ROOT, 'scripts/cjs-module-url.js')],
    legalComments: 'none',
    metafile: true,
    logLevel: 'error',
    plugins: [...(split ? [splitPlugin()] : []), inlineLazyRequiresPlugin(), packageInfoPlugin(ROOT), jsfPatternMemoPlugin()],
  });
  assertSelfContained(result);
  return result;
}

/** Every output file: the CLI's three, the fixture reader worker, and one per lazy package. */
async function bundleAll() {
  const results = [];
  for (const [entry, name] of [['src/cli.ts', 'cli'], ['src/cli/run-cli.ts', 'cli-main'], ['src/cli/crawl-commands.ts', 'cli-crawl'], ['src/file-system/fixture-reader-worker.ts', 'fixture-reader-worker']]) {
    results.push(await bundle(entry, name, true));
  }
  for (const name of LAZY_PACKAGES) results.push(await bundle(name, `deps/${name}`, false));
  // The MCP SDK (src/mcp/sdk.ts: what `market-stub mcp` uses of it), inlined whole in a file of its own.
  results.push(await bundle('src/mcp/sdk.ts', 'deps/mcp-sdk', false));
  const missing = results.flatMap((r) => Object.values(r.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && isOwnOutput(i.path)).map((i) => i.path)))
    .filter((file) => !existsSync(path.join(OUT, file)));
  if (missing.length > 0) throw new Error(`the bundled CLI requires ${[...new Set(missing)].join(', ')}, which the build did not write`);
  return results;
}

/** Runs `node _launcher.cjs --port 0 …` from a copy in an empty folder; resolves when GET /markets answers 200. */
async function proveFromEmptyFolder() {
  const folder = mkdtempSync(path.join(tmpdir(), 'market-stub-bundled-'));
  try {
    cpSync(OUT, path.join(folder, '_bundled'), { recursive: true });
    cpSync(path.join(PACKAGE, '_launcher.cjs'), path.join(folder, '_launcher.cjs'));
    const child = spawn(process.execPath, ['_launcher.cjs', '--port', '0', '--count', '3', '--quiet'], { cwd: folder, env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line within ${PROOF_TIMEOUT_MS} ms: ${output}`)), PROOF_TIMEOUT_MS);
      const read = (chunk) => {
        output += chunk;
        const m = /listening on (http:\/\/\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => reject(new Error(`exited with ${code} before its ready line: ${output}`)));
    });
    const status = (await fetch(`${url}/markets`)).status;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.stdin.end();
    const code = await exited;
    if (status !== 200) throw new Error(`GET ${url}/markets answered ${status}`);
    if (code !== 0) throw new Error(`the launcher exited with ${code} after its stdin closed`);
    return `GET ${url}/markets 200 from a copy in an empty folder; exited ${code} when its stdin closed`;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function main() {
  const started = performance.now();
  if (!existsSync(path.join(DIST, 'console'))) {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const results = await bundleAll();
  cpSync(path.join(DIST, 'console'), path.join(OUT, 'console'), { recursive: true });
  writeFileSync(path.join(OUT, 'manifest.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, nodeFloor: NODE_FLOOR }, null, 2)}\n`);
  const inlined = writeThirdPartyLicenses(ROOT, results, OUT);
  const proof = await proveFromEmptyFolder();
  const bytes = results.reduce((total, r) => total + Object.values(r.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0), 0);
  process.stdout.write(`build-python: ${path.relative(ROOT, OUT)}/ in ${Math.round(performance.now() - started)} ms: ${bytes} bytes of JavaScript, ${inlined} packages inlined, Node built-ins only\n`);
  process.stdout.write(`build-python: ${proof}\n`);
}

await main();
