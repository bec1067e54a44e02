// Bundles the two pages for the browser with esbuild, as a front-end build would, and fails when
// any Node built-in reaches the bundle (platform 'browser' cannot resolve one, and the metafile is
// checked too). Writes dist/ (pages, index.html, plain.html, MSW's worker script) and prints the
// size of the worker page, minified and gzipped (dist/size.json).
import { builtinModules } from 'node:module';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const html = (script) => `<!doctype html><html><head><meta charset="utf-8"><title>Markets</title></head><body><main id="app"></main><script type="module" src="/${script}"></script></body></html>`;

mkdirSync('dist', { recursive: true });
const result = await build({ entryPoints: { 'worker-page': 'page/worker-page.js', 'plain-page': 'page/plain-page.js' }, bundle: true, platform: 'browser', format: 'esm', minify: true, outdir: 'dist', metafile: true, logLevel: 'error' });
const builtins = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path)).filter((p) => NODE_BUILTINS.has(p));
if (builtins.length > 0) throw new Error(`the browser bundle imports Node built-ins: ${[...new Set(builtins)].join(', ')}`);
writeFileSync('dist/index.html', html('worker-page.js'));
writeFileSync('dist/plain.html', html('plain-page.js'));
copyFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'dist/mockServiceWorker.js');
const bytes = result.metafile.outputs['dist/worker-page.js'].bytes;
const gzipped = gzipSync((await import('node:fs')).readFileSync('dist/worker-page.js')).length;
writeFileSync('dist/size.json', JSON.stringify({ minified: bytes, gzipped }));
console.log(`worker page bundle (msw + market-stub/msw + dashboard): ${(bytes / 1024).toFixed(1)} KiB minified, ${(gzipped / 1024).toFixed(1)} KiB gzipped`);
