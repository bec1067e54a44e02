// The web console (`/__stub/ui`, docs/console.md): console/*.ts bundled by esbuild into one
// browser script, the stylesheet minified, the page and icon copied, all into dist/console/.
// No framework and no dependency: the files are what src/http/admin/console-assets.ts serves.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The files of dist/console/, as console-assets.ts lists them. */
const FILES = ['index.html', 'console.js', 'console.css', 'favicon.svg'];

/**
 * Builds dist/console/ from console/ under `root`.
 * @returns each file's size in bytes, raw and gzipped (what the stub sends to a browser that accepts gzip).
 */
export async function buildConsole(root) {
  const source = path.join(root, 'console');
  const out = path.join(root, 'dist/console');
  mkdirSync(out, { recursive: true });
  const common = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning', target: ['chrome110', 'firefox115', 'safari16'] };
  // An IIFE, no eval and no source map: the page's CSP allows script from 'self' only.
  await build({ ...common, entryPoints: [path.join(source, 'main.ts')], outfile: path.join(out, 'console.js'), format: 'iife', platform: 'browser', tsconfig: path.join(source, 'tsconfig.json') });
  await build({ ...common, entryPoints: [path.join(source, 'console.css')], outfile: path.join(out, 'console.css') });
  for (const file of ['index.html', 'favicon.svg']) copyFileSync(path.join(source, file), path.join(out, file));
  return FILES.map((file) => {
    const body = readFileSync(path.join(out, file));
    return { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
  });
}
