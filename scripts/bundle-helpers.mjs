// What scripts/build.mjs (dist/) and scripts/build-python.mjs (the Python wheel's bundled CLI)
// share: the package-info plugin and the licence file of the packages a bundle carries.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Serves the root package.json to src/floor/package-info.ts as `{ name, version, license }` only, so
 * the bundles carry market-stub's own version and licence (the OpenAPI document's `info.license`)
 * and nothing else from the manifest.
 * @param {string} root the repository's root folder
 */
export function packageInfoPlugin(root) {
  const manifest = path.join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  return {
    name: 'package-info',
    setup(b) {
      b.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
        if (path.resolve(args.path) !== manifest) return undefined;
        return { contents: JSON.stringify({ name: pkg.name, version: pkg.version, license: pkg.license }), loader: 'json' };
      });
    },
  };
}

/** The package a bundled input file belongs to (`node_modules/<name>/…`), or undefined. */
function packageOfInput(input) {
  const m = /(?:^|[\\/])node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input);
  return m?.[1]?.replace(/\\/g, '/');
}

/**
 * Writes `outDir/THIRD-PARTY-LICENSES.md`: the licence texts of every package bundled by `results`
 * (esbuild results with metafiles; their licences require it).
 * @returns how many packages were bundled.
 * @throws Error when a bundled package has no licence file to reproduce.
 */
export function writeThirdPartyLicenses(root, results, outDir) {
  const names = new Set();
  for (const result of results) {
    for (const input of Object.keys(result.metafile.inputs)) {
      const name = packageOfInput(input);
      if (name) names.add(name);
    }
  }
  const sections = [...names].sort().map((name) => {
    const dir = path.join(root, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    if (!file) throw new Error(`${name} is bundled into ${path.relative(root, outDir)}/ but has no LICENSE file to reproduce.`);
    return `## ${name} ${manifest.version} (${manifest.license})\n\n\`\`\`\n${readFileSync(path.join(dir, file), 'utf8').trim()}\n\`\`\`\n`;
  });
  writeFileSync(path.join(outDir, 'THIRD-PARTY-LICENSES.md'), `# Third-party licences\n\nPackages bundled into these files, with their licences.\n\n${sections.join('\n')}`);
  return names.size;
}
