// market-stub/testcontainers without a container engine: the builder's checks and the variables
// it sets, and the subpath export with testcontainers as an optional peer dependency. Started for
// real against podman in test/container/testcontainers.test.ts.
import { spawnSync } from 'node:child_process';
import { DEFAULT_MARKET_STUB_IMAGE } from '../../src/floor/limits.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MarketStubError, serveEnvironment } from '../../src/index.js';
import { MarketStubContainer } from '../../src/testcontainers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The variables a container would start with (GenericContainer keeps them in a protected field). */
const environmentOf = (container: MarketStubContainer) => (container as unknown as { environment: Record<string, string> }).environment;

describe('MarketStubContainer (builder)', () => {
  it('turns each with… into the MARKET_STUB_* variable of the serve option of the same name', () => {
    const fixtures = mkdtempSync(path.join(tmpdir(), 'market-stub-tc-builder-'));
    const c = new MarketStubContainer().withSeed(7).withCount(25).withClock('2026-01-01').withAdminToken('t0ken')
      .withProfile({ envelope: 'markets', paging: 'cursor', pageSize: 5, filterStatus: true }).withFixtures(fixtures);
    expect(environmentOf(c)).toEqual({
      MARKET_STUB_PORT: '4010', MARKET_STUB_HOST: '0.0.0.0',
      MARKET_STUB_SEED: '7', MARKET_STUB_COUNT: '25', MARKET_STUB_CLOCK: '2026-01-01', MARKET_STUB_ADMIN_TOKEN: 't0ken',
      MARKET_STUB_ENVELOPE: 'markets', MARKET_STUB_PAGING: 'cursor', MARKET_STUB_PAGE_SIZE: '5', MARKET_STUB_FILTER_STATUS: 'true',
      MARKET_STUB_FIXTURES: '/fixtures',
    });
    const file = path.join(fixtures, 'one.json');
    writeFileSync(file, '[]');
    expect(environmentOf(new MarketStubContainer().withFixtures(file))['MARKET_STUB_FIXTURES']).toBe('/fixtures/one.json');
    expect(DEFAULT_MARKET_STUB_IMAGE).toBe('market-stub:latest');
  });

  it('checks every value at once with the option\'s own rule, naming the method; the token is never shown', () => {
    const c = () => new MarketStubContainer();
    const cases: [() => unknown, string][] = [
      [() => c().withSeed(-1), 'MarketStubContainer.withSeed: seed: expected an integer from 0 to 9007199254740991, found -1'],
      [() => c().withCount(1.5), 'MarketStubContainer.withCount: count: expected an integer from 0 to 100000000, found 1.5'],
      [() => c().withClock('2026-13-01'), 'MarketStubContainer.withClock: clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-13-01"'],
      [() => c().withProfile({ paging: 'pages' as 'none' }), 'MarketStubContainer.withProfile: profile.paging: expected one of none, offset, cursor, found "pages"'],
      [() => c().withProfile({ colour: 'red' } as never), 'MarketStubContainer.withProfile: profile.colour: expected a profile field (envelope, paging, pageSize, maxPageSize, errors, filterStatus), found "colour"'],
      [() => c().withFixtures('/no/such/dir'), 'MarketStubContainer.withFixtures: hostPath: expected an existing file or directory on this machine, found "/no/such/dir"'],
      [() => c().withConfigFile(ROOT), 'MarketStubContainer.withConfigFile: hostPath: expected a config file (not a directory)'],
      [() => c().withAdminToken(''), 'MarketStubContainer.withAdminToken: adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged, found "(not shown)"'],
    ];
    for (const [call, message] of cases) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(MarketStubError);
      expect((error as MarketStubError).code).toBe('OPTION_INVALID');
      expect((error as Error).message).toContain(message);
    }
  });
});

describe('serveEnvironment', () => {
  it('maps serve options to their first variable, lists joined by their separator, undefined left out', () => {
    expect(serveEnvironment({ seed: 7, quiet: true, errorRate: 0.25, allowedHosts: ['stub', '.ci.internal'], deviation: ['string-price=0.1', 'item-bom'], delay: undefined })).toEqual({
      MARKET_STUB_SEED: '7', MARKET_STUB_QUIET: 'true', MARKET_STUB_ERROR_RATE: '0.25', MARKET_STUB_ALLOWED_HOSTS: 'stub,.ci.internal', MARKET_STUB_DEVIATION: 'string-price=0.1,item-bom',
    });
    expect(serveEnvironment({ port: 0 })).toEqual({ MARKET_STUB_PORT: '0' });
  });

  it('refuses what serve would refuse, naming the option; never shows a secret; refuses options without a variable', () => {
    expect(() => serveEnvironment({ port: 70_000 })).toThrow('serveEnvironment: port: expected an integer from 0 to 65535, found 70000');
    expect(() => serveEnvironment({ count: '5' })).toThrow('serveEnvironment: count: expected an integer from 0 to 100000000, found "5"');
    expect(() => serveEnvironment({ adminToken: '' })).toThrow('serveEnvironment: adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged, found "(not shown)"');
    expect(() => serveEnvironment({ config: 'x.json' })).toThrow(/serveEnvironment: config: expected a serve option \(port, host/);
    expect(() => serveEnvironment({ seeed: 1 })).toThrow(MarketStubError);
    expect(() => serveEnvironment({ seeed: 1 })).toThrow(/serveEnvironment: seeed: expected a serve option \(did you mean seed\? all: port, host/);
  });
});

describe('the market-stub/testcontainers subpath export', () => {
  it('is in the exports map, with testcontainers an optional peer dependency', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(pkg['exports']?.['./testcontainers']).toEqual({
      import: { types: './dist/testcontainers.d.ts', default: './dist/testcontainers.js' },
      require: { types: './dist/testcontainers.d.cts', default: './dist/testcontainers.cjs' },
    });
    expect(pkg['peerDependencies']?.['testcontainers']).toMatch(/^\^10\./);
    expect(pkg['peerDependenciesMeta']?.['testcontainers']).toEqual({ optional: true });
    expect(pkg['dependencies']).not.toHaveProperty('testcontainers');
  });

  it('resolves by package name from the built dist (ESM and CommonJS); importing market-stub itself never loads testcontainers', () => {
    const script = [
      "import { createRequire } from 'node:module';",
      'const require = createRequire(import.meta.url);',
      "const loaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/testcontainers/'));",
      "const main = await import('market-stub');",
      'const before = loaded();',
      "const tc = await import('market-stub/testcontainers');",
      "const cjs = require('market-stub/testcontainers');",
      'const thrown = (f) => { try { f(); } catch (e) { return e; } };',
      'const esmError = thrown(() => new tc.MarketStubContainer().withSeed(-1));',
      'const cjsError = thrown(() => new cjs.MarketStubContainer().withCount(-1));',
      "console.log(JSON.stringify({ before, after: loaded(), connect: typeof main.connectMarketStub, container: typeof tc.MarketStubContainer, started: typeof tc.StartedMarketStubContainer, cjs: typeof cjs.MarketStubContainer,",
      "  esmErrorIsMain: esmError instanceof main.MarketStubError, cjsErrorIsMain: cjsError instanceof main.MarketStubError, code: cjsError.code, plainError: new Error('x') instanceof main.MarketStubError }));",
    ].join('\n');
    // -e code resolves from the working directory: the package's own name refers to itself (Node's self-reference through "exports").
    const probe = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(probe.stderr).toBe('');
    // Each entry is its own bundle with its own copy of MarketStubError: instanceof still holds across them (a process-wide brand).
    expect(JSON.parse(probe.stdout)).toEqual({ before: false, after: true, connect: 'function', container: 'function', started: 'function', cjs: 'function', esmErrorIsMain: true, cjsErrorIsMain: true, code: 'OPTION_INVALID', plainError: false });
  });
});
