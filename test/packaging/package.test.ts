// The package as npm publishes it: what the tarball holds, the exports map against the build's
// entries, both module formats, the published types, --version from a consumer's .bin link, and
// publint + arethetypeswrong on the packed tarball. Runs after `npm run build` (npm test does it).
// The consumer projects (test/consumers, `npm run test:consumers`) install the tarball for real.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  exports: Record<string, string | Record<string, { types: string; default: string }>>;
  main: string;
  types: string;
};
const entries = JSON.parse(readFileSync(path.join(ROOT, 'scripts/build-entries.json'), 'utf8')) as { kind: string; name: string; subpath?: string }[];

/**
 * Limit of the packed tarball (gzip), bytes: about 1.05 MiB with market-stub/msw and the web console (0.3);
 * 1.52 MiB with market-stub/fetch (0.4: a fifth entry that bundles the request core again, as msw's does),
 * 1.87 MiB with the checker's watch (prom-client inlined for its metrics) and the explanation and HAR
 * export (0.5), most of it the entries' bundles and their maps.
 */
const TARBALL_LIMIT = 2 * 1024 * 1024;

interface PackedFile {
  path: string;
  size: number;
}
let work: string;
let tarball: string;
let packed: { size: number; files: PackedFile[] };

function run(command: string, args: readonly string[], cwd = ROOT) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'market-stub-pack-'));
  // --ignore-scripts: dist/ is built already; prepack would rebuild it mid-test.
  const r = run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work]);
  expect(r.code, r.stderr).toBe(0);
  const [info] = JSON.parse(r.stdout) as [{ filename: string; size: number; files: PackedFile[] }];
  packed = info;
  tarball = path.join(work, info.filename);
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the tarball', () => {
  it('holds dist/, the schema, the sample fixtures, README, LICENSE, llms.txt and package.json, and nothing else', () => {
    const paths = packed.files.map((f) => f.path);
    const stray = paths.filter((p) => !/^(dist\/|schemas\/[^/]+\.json$|fixtures\/|README\.md$|LICENSE$|llms\.txt$|package\.json$)/.test(p));
    expect(stray).toEqual([]);
    for (const required of ['dist/cli.cjs', 'dist/cli-main.cjs', 'dist/cli-crawl.cjs', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/THIRD-PARTY-LICENSES.md', 'schemas/market.schema.json', 'LICENSE', 'llms.txt', 'dist/console/index.html', 'dist/console/console.js', 'dist/console/console.css', 'dist/console/favicon.svg']) {
      expect(paths).toContain(required);
    }
    expect(packed.size).toBeLessThan(TARBALL_LIMIT);
  });

  it('runs no script in a consumer install (no preinstall, install, postinstall or prepare)', () => {
    expect(Object.keys(manifest.scripts).filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s))).toEqual([]);
    expect(manifest.scripts['prepack']).toBe('npm run build');
  });

  it('passes publint (suggestions included)', async () => {
    const bytes = readFileSync(tarball);
    const { messages, pkg } = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, level: 'suggestion', strict: true });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });

  it('passes arethetypeswrong for node10, node16 (CommonJS and ESM) and bundler resolution', () => {
    const r = run(process.execPath, [path.join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), '--format', 'json', tarball]);
    const report = JSON.parse(r.stdout) as { analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }> } };
    expect(report.analysis.problems).toEqual([]);
    const root = report.analysis.entrypoints['.']!.resolutions;
    // The types TypeScript picks: CommonJS ones for require (and node10's "types"), ESM ones for import.
    expect(root['node10']?.resolution?.fileName).toMatch(/dist\/index\.d\.cts$/);
    expect(root['node16-cjs']?.resolution?.fileName).toMatch(/dist\/index\.d\.cts$/);
    expect(root['node16-esm']?.resolution?.fileName).toMatch(/dist\/index\.d\.ts$/);
    expect(r.code).toBe(0);
  }, 60_000);
});

describe('the exports map', () => {
  it('has an import and a require condition, each with its own types, for every library entry of the build', () => {
    const libraries = entries.filter((e) => e.kind === 'library');
    const subpaths = Object.keys(manifest.exports).filter((k) => !k.startsWith('./schemas/') && k !== './package.json');
    expect(subpaths.sort()).toEqual(libraries.map((e) => e.subpath).sort());
    for (const entry of libraries) {
      expect(manifest.exports[entry.subpath!]).toEqual({
        import: { types: `./dist/${entry.name}.d.ts`, default: `./dist/${entry.name}.js` },
        require: { types: `./dist/${entry.name}.d.cts`, default: `./dist/${entry.name}.cjs` },
      });
    }
    expect(manifest.main).toBe('./dist/index.cjs');
    expect(manifest.types).toBe('./dist/index.d.cts');
  });

  it('serves the schema file and package.json', () => {
    const r = run(process.execPath, ['-e', "const r = require.resolve; console.log(JSON.stringify([r('market-stub/schemas/market.schema.json'), r('market-stub/package.json')]))"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([path.join(ROOT, 'schemas/market.schema.json'), path.join(ROOT, 'package.json')]);
  });
});

describe('the two module formats', () => {
  it('require() and import give the same exports, and the CommonJS build never reads import.meta', () => {
    expect(readFileSync(path.join(ROOT, 'dist/index.cjs'), 'utf8')).not.toContain('import.meta');
    const cjs = run(process.execPath, ['-e', "console.log(JSON.stringify(Object.keys(require('market-stub')).sort()))"]);
    const esm = run(process.execPath, ['--input-type=module', '-e', "console.log(JSON.stringify(Object.keys(await import('market-stub')).sort()))"]);
    expect(cjs.code, cjs.stderr).toBe(0);
    expect(esm.code, esm.stderr).toBe(0);
    expect(JSON.parse(cjs.stdout)).toEqual(JSON.parse(esm.stdout));
    expect(JSON.parse(cjs.stdout)).toContain('startMarketStub');
  });

  it('the CommonJS build starts a stub whose lazily loaded parts (Express, ajv) work', () => {
    const script = `
      const { startMarketStub, getMarketValidator } = require('market-stub');
      (async () => {
        const stub = await startMarketStub({ seed: 3, count: 2, clock: '2026-01-01' });
        const list = await fetch(stub.url + '/markets');
        const openapi = await (await fetch(stub.url + '/openapi.json')).json();
        const valid = getMarketValidator().isMarket((await stub.catalog())[0]);
        await stub.close();
        console.log(JSON.stringify({ list: list.status, version: openapi.info.version, valid }));
      })();`;
    const r = run(process.execPath, ['-e', script]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ list: 200, version: manifest.version, valid: true });
  }, 30_000);
});

describe('market-stub/fetch', () => {
  it('answers a web Request through require() and import alike, and its ESM build imports no Node built-in', () => {
    const body = `const h = createFetchHandler({ seed: 3, count: 2, clock: '2026-01-01' });
      const res = await h.fetch(new Request('http://127.0.0.1/markets'));
      console.log(JSON.stringify({ status: res.status, date: res.headers.get('date').slice(0, 16), count: (await res.json()).length, journal: await h.requestCount() }));`;
    const cjs = run(process.execPath, ['-e', `const { createFetchHandler } = require('market-stub/fetch'); (async () => { ${body} })();`]);
    const esm = run(process.execPath, ['--input-type=module', '-e', `const { createFetchHandler } = await import('market-stub/fetch'); ${body}`]);
    for (const r of [cjs, esm]) {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ status: 200, date: 'Thu, 01 Jan 2026', count: 2, journal: 1 });
    }
    expect(readFileSync(path.join(ROOT, 'dist/fetch.js'), 'utf8')).not.toMatch(/from\s*["']node:|require\(["']node:/);
  }, 30_000);
});

describe('the handler bundles', () => {
  it('leave out the serve flags the runtime options carry (RUNTIME_SERVE_FLAGS: help text no handler reads)', () => {
    for (const file of ['dist/fetch.js', 'dist/fetch.cjs', 'dist/msw.js', 'dist/msw.cjs']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expect(text, file).toContain('journalSize');
      expect(text, file).not.toContain('MARKET_STUB_JOURNAL_SIZE');
    }
  });
});

describe('the bundled json-schema-faker (its regex parse memoised at build time, scripts/jsf-pattern-memo.mjs)', () => {
  // 20 seeds of 100 markets: ~0.5 MB on stdout, under spawnSync's 1 MiB buffer.
  const SEEDS = Array.from({ length: 20 }, (_, i) => i * 7919 + 1);
  const CLOCK = '2026-01-01';

  it('is memoised in both bundles that carry it', () => {
    for (const file of ['dist/cli-main.cjs', 'dist/index.cjs']) expect(readFileSync(path.join(ROOT, file), 'utf8'), file).toContain('__marketStubPatternTrees');
  });

  it('generates, through dist/index.cjs and through the CLI, the very markets the sources generate with the untouched package', async () => {
    const { generateMarkets } = await import('../../src/index.js');
    const script = `const { generateMarkets } = require('market-stub');
      console.log(JSON.stringify(${JSON.stringify(SEEDS)}.map((seed) => generateMarkets(100, { seed, clock: '${CLOCK}' }))));`;
    const r = run(process.execPath, ['-e', script]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(SEEDS.map((seed) => generateMarkets(100, { seed, clock: CLOCK })));
    const cli = run(process.execPath, [path.join(ROOT, 'dist/cli.cjs'), 'generate', '--count', '1000', '--seed', '4242', '--clock', CLOCK]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(generateMarkets(1000, { seed: 4242, clock: CLOCK }));
  }, 60_000);
});

describe('the container build (docker/Dockerfile, .dockerignore an allow-list)', () => {
  it('lets in and copies every file of scripts/ that the build reads', () => {
    const build = readFileSync(path.join(ROOT, 'scripts/build.mjs'), 'utf8');
    // Imports of sibling scripts, and scripts/… paths the build joins (inject files, help pages).
    const read = new Set([
      ...[...build.matchAll(/from '\.\/([^']+)'/g)].map((m) => `scripts/${m[1]}`),
      ...[...build.matchAll(/'(scripts\/[^']+)'/g)].map((m) => m[1] as string),
    ]);
    expect(read).toContain('scripts/jsf-pattern-memo.mjs');
    const allowed = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n').filter((line) => line.startsWith('!')).map((line) => line.slice(1));
    const copied = readFileSync(path.join(ROOT, 'docker/Dockerfile'), 'utf8').split('\n').filter((line) => line.startsWith('COPY ')).flatMap((line) => line.split(/\s+/).slice(1, -1));
    for (const file of read) {
      expect(allowed, `${file} is read by scripts/build.mjs: add !${file} to .dockerignore`).toContain(file);
      expect(copied, `${file} is read by scripts/build.mjs: copy it into the build stage of docker/Dockerfile`).toContain(file);
    }
  });
});

describe('the published types', () => {
  it('import no other package, and no Node types', () => {
    for (const file of ['dist/index.d.ts', 'dist/index.d.cts']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expect(text).not.toMatch(/\bfrom\s+['"]|\bimport\s*\(|<reference\s+types=|\bNodeJS\.|\bBuffer\b/);
    }
  });
});

describe('the ESM library', () => {
  it('imports only json-schema-faker and Node built-ins through the loader; the small dependencies are inline (each costs milliseconds of import)', () => {
    for (const file of ['dist/index.js', 'dist/msw.js', 'dist/fetch.js']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const imported = new Set([...text.matchAll(/^import\b[^'"]*from\s*["']([^"']+)["']/gm)].map((m) => m[1] as string).filter((name) => !name.startsWith('node:')));
      for (const name of imported) expect(['json-schema-faker', 'market-stub', 'msw'], `${file} imports ${name}`).toContain(name);
    }
  });
});

describe('the CLI', () => {
  it('is a CommonJS entry with a shebang that requires the commands from one more file, and check/record/proxy from a third, all with source maps and no import.meta', () => {
    const cli = readFileSync(path.join(ROOT, 'dist/cli.cjs'), 'utf8');
    expect(cli.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(cli).toMatch(/\/\/# sourceMappingURL=cli\.cjs\.map\n?$/);
    expect(cli).toMatch(/require\("\.\/cli-main\.cjs"\)/);
    const main = readFileSync(path.join(ROOT, 'dist/cli-main.cjs'), 'utf8');
    expect(main).toMatch(/\/\/# sourceMappingURL=cli-main\.cjs\.map\n?$/);
    const crawl = readFileSync(path.join(ROOT, 'dist/cli-crawl.cjs'), 'utf8');
    expect(crawl).toMatch(/\/\/# sourceMappingURL=cli-crawl\.cjs\.map\n?$/);
    for (const text of [cli, main, crawl]) expect(text).not.toContain('import.meta');
    // serve never compiles the crawl: its modules are in cli-crawl.cjs only, imported when check, record or proxy runs.
    for (const run of ['runCheck', 'runRecord', 'runProxy']) expect(main).toContain(`(await import("./cli-crawl.cjs")).${run}`);
    for (const module of ['src/contract/crawl/crawl-deployment.ts', 'src/proxy/recording-proxy.ts', 'src/contract/reports/format-html-report.ts']) {
      expect(main, module).not.toContain(`// ${module}\n`);
      expect(crawl, module).toContain(`// ${module}\n`);
    }
    // Loaded from node_modules when a line needs them (scripts/build.mjs), never parsed at start-up.
    expect(main).toContain('import("chokidar")');
    // One command-line reader (util.parseArgs) and help rendered from the rows: no yargs, no prerendered pages.
    for (const text of [cli, main, crawl]) expect(text).not.toMatch(/yargs|help-pages/);
    expect(packed.files.map((f) => f.path)).not.toContain('dist/help-pages.json');
    expect(crawl).toContain('import("undici")');
    expect(packed.files.map((f) => f.path).filter((p) => p.startsWith('dist/chunks/'))).toEqual([]);
  });

  it("prints market-stub's own version when run through a consumer's node_modules/.bin link", () => {
    const consumer = path.join(work, 'consumer');
    mkdirSync(path.join(consumer, 'node_modules/.bin'), { recursive: true });
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '9.9.9' }));
    symlinkSync(path.join(ROOT, 'dist/cli.cjs'), path.join(consumer, 'node_modules/.bin/market-stub'));
    const r = run(path.join(consumer, 'node_modules/.bin/market-stub'), ['--version'], consumer);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(manifest.version);
  });
});
