// One home per option: every documented limit on the floor, one reader of "an
// http(s) base URL" whose wording every surface shows, one definition of each option kind helper.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { connectMarketStub, crawlDeployment, generateMarket, generateMarkets, MarketStubError, startMarketStub, startRecordingProxy } from '../../src/index.js';
import { PROXY_OPTIONS } from '../../src/options/tables/proxy-options.js';
import { createMarketStubHandlers } from '../../src/msw.js';
import { createFetchHandler } from '../../src/fetch.js';
import { httpUrlExpected } from '../../src/floor/http-url.js';
import { optionKey, resolveOptions } from '../../src/options/resolve-options.js';
import { libraryOptionsOf } from '../../src/options/launch-options.js';
import { optionTable } from '../../src/options/option-values.js';
import { SERVE_OPTIONS, serveRowsOf } from '../../src/options/tables/serve-options.js';
import { checkStubOptions, STUB_FIELDS, STUB_SERVE_FLAGS } from '../../src/stub-options.js';
import { RUNTIME_FIELDS, RUNTIME_SERVE_FLAGS } from '../../src/runtime/runtime-options.js';
import { SERVE_GROUPS } from '../../src/floor/option-spec.js';
import { renderHelp } from '../../src/cli/render-help.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { int } from '../../src/floor/option-kind.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'generated' ? [] : sources(file);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [file] : [];
  });
}

function definitions(pattern: RegExp): string[] {
  return sources(SRC).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(pattern)].map((m) => `${path.relative(SRC, file)}: ${m[1]}`));
}

function thrown(fn: () => unknown): MarketStubError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(MarketStubError);
    return error as MarketStubError;
  }
  throw new Error('expected a MarketStubError');
}

describe('limits live on the floor', () => {
  it('every exported MAX_/DEFAULT_ constant is defined in src/floor/limits.ts, and only there', () => {
    const defined = definitions(/^export const ((?:MAX|DEFAULT)_[A-Z0-9_]+)/gm);
    expect(defined.filter((d) => !d.startsWith(`floor${path.sep}limits.ts:`))).toEqual([]);
    expect(defined.length).toBeGreaterThanOrEqual(36);
  });

  it('each option kind helper (int, BOOLEAN, TEXT, choice, LIST) and parseBaseUrl is defined once', () => {
    for (const name of ['int', 'BOOLEAN', 'TEXT', 'choice', 'LIST', 'parseBaseUrl']) {
      expect(definitions(new RegExp(`^export (?:const|function) (${name})\\b`, 'gm')), name).toHaveLength(1);
    }
  });
});

describe('one reader of an http(s) base URL, one wording', () => {
  const withoutAll = httpUrlExpected();

  it('the CLI url kind, crawlDeployment, the MSW handlers and connectMarketStub say what they expect in the same words', async () => {
    const cli = () => resolveOptions([{ flag: 'base-url', kind: { type: 'url' }, describe: 'x' }], { flags: { 'base-url': 'ftp://example.test' }, env: {} });
    expect(() => cli()).toThrow('--base-url: expected an absolute http:// or https:// URL, found "ftp://example.test".');
    const crawl = await crawlDeployment({ baseUrl: 'ftp://example.test' }).then(() => undefined, (error: unknown) => error as MarketStubError);
    expect(crawl?.message).toBe('--base-url: expected an absolute http:// or https:// URL without a user name or password, found "ftp://example.test".');
    const msw = thrown(() => createMarketStubHandlers({ baseUrl: 'ftp://example.test' }));
    expect(msw).toMatchObject({ code: 'OPTION_INVALID', option: 'baseUrl', expected: `${withoutAll}, such as "https://api.example.test/v1"` });
    const client = thrown(() => connectMarketStub('ftp://example.test'));
    expect(client).toMatchObject({ code: 'OPTION_INVALID', option: 'url', expected: `the base URL of a stub: ${withoutAll}, such as http://127.0.0.1:4010` });
  });

  it('a URL with credentials is refused without showing them, on every surface', async () => {
    const url = 'http://user:pw-hidden-7@127.0.0.1:1/';
    const crawl = await crawlDeployment({ baseUrl: url }).then(() => undefined, (error: unknown) => error as MarketStubError);
    const msw = thrown(() => createMarketStubHandlers({ baseUrl: url }));
    const client = thrown(() => connectMarketStub(url));
    for (const error of [crawl, msw, client]) {
      expect(error?.code).toBe('OPTION_INVALID');
      expect(error?.message).toContain('without a user name or password');
      expect(error?.message).not.toContain('pw-hidden-7');
    }
  });

  it('a query is kept for a crawl (it may carry an API key) and refused by the handlers and the client', () => {
    expect(httpUrlExpected({ query: true })).toBe('an absolute http:// or https:// URL without a user name or password');
    expect(thrown(() => createMarketStubHandlers({ baseUrl: 'https://api.example.test/v1?x=1' })).option).toBe('baseUrl');
    expect(thrown(() => connectMarketStub('http://127.0.0.1:4010/?x=1')).option).toBe('url');
  });
});

describe('a CLI row names the library option it feeds: CLI → library is a loop', () => {
  const fed = SERVE_OPTIONS.filter((row) => row.feeds !== undefined);

  it('every serve row that feeds startMarketStub is bounded as the library bounds it (same limits, same words)', () => {
    expect(fed.map((row) => row.feeds)).toEqual(expect.arrayContaining(['port', 'journalSize', 'shutdownGraceMs', 'adminToken', 'allowedHosts']));
    for (const row of fed) {
      const key = row.feeds as string;
      const kind = row.kind;
      if (kind.type === 'integer') {
        const { min, max } = kind;
        expect(() => checkStubOptions({ [key]: max }), key).not.toThrow();
        expect(thrown(() => checkStubOptions({ [key]: max + 1 })).expected, key).toBe(`an integer from ${min} to ${max}`);
      }
      if (kind.type === 'choice' && !kind.choices.includes('off')) {
        for (const choice of kind.choices) expect(() => checkStubOptions({ [key]: choice }), `${key}=${choice}`).not.toThrow();
      }
    }
  });

  it('the resolved defaults of serve, fed through the loop, pass the library\'s own check', () => {
    const values = resolveOptions(SERVE_OPTIONS, { flags: {}, env: {} }).values;
    const options = libraryOptionsOf(SERVE_OPTIONS, values);
    expect(options).toMatchObject({ port: 4010, journalSize: 1000, shutdownGraceMs: 5000, cors: true, admin: true });
    expect(() => checkStubOptions(options)).not.toThrow();
  });

  it('a new row is checked, typed and fed with nothing else written: the row is the whole mapping', () => {
    const table = optionTable([{ flag: 'journal-limit', feeds: 'journalSize', env: ['MARKET_STUB_JOURNAL_LIMIT'], kind: int(0, 5), default: 2, describe: 'a row added by this test', group: 'Test:' }]);
    const resolved = resolveOptions(table, { flags: {}, env: { MARKET_STUB_JOURNAL_LIMIT: '4' } });
    expectTypeOf(resolved.values.journalLimit).toEqualTypeOf<number>();
    expect(libraryOptionsOf(table, resolved.values)).toEqual({ journalSize: 4 });
    expect(() => resolveOptions(table, { flags: { 'journal-limit': '6' }, env: {} })).toThrow('--journal-limit: expected an integer from 0 to 5, found "6".');
    expect(table.map(optionKey)).toEqual(['journalLimit']);
  });
});

describe('an option serve and the library both take is one entry beside the library field (its ServeFlag)', () => {
  const flagsAndFields = [[STUB_SERVE_FLAGS, STUB_FIELDS], [RUNTIME_SERVE_FLAGS, RUNTIME_FIELDS]] as const;

  it('every ServeFlag is a serve row feeding its field, with the flag\'s kind or else the field\'s own check (the same object)', () => {
    for (const [flags, fields] of flagsAndFields) {
      for (const [key, flag] of Object.entries(flags)) {
        const row = SERVE_OPTIONS.find((r) => r.flag === flag.flag);
        expect(row?.feeds, flag.flag).toBe(key);
        expect(row?.kind, flag.flag).toBe('kind' in flag ? flag.kind : (fields as Record<string, unknown>)[key]);
        expect(typeof row?.kind, flag.flag).toBe('object');
      }
    }
    const fedKeys = SERVE_OPTIONS.flatMap((r) => (r.feeds === undefined ? [] : [r.feeds]));
    expect(fedKeys.sort()).toEqual([...Object.keys(STUB_SERVE_FLAGS), ...Object.keys(RUNTIME_SERVE_FLAGS)].sort());
  });

  it('a flag added beside a library field becomes a serve row: typed, bounded by the field\'s check, fed to it', () => {
    const rows = serveRowsOf({ journalSize: { flag: 'journal-limit', env: ['MARKET_STUB_JOURNAL_LIMIT'], default: 2, describe: 'a flag added by this test', group: SERVE_GROUPS.control } }, RUNTIME_FIELDS);
    const table = optionTable(rows);
    expect(rows[0]?.kind).toBe(RUNTIME_FIELDS.journalSize);
    const resolved = resolveOptions(table, { flags: {}, env: { MARKET_STUB_JOURNAL_LIMIT: '7' } });
    expectTypeOf(resolved.values.journalLimit).toEqualTypeOf<number>();
    expect(libraryOptionsOf(table, resolved.values)).toEqual({ journalSize: 7 });
    const { max } = RUNTIME_FIELDS.journalSize;
    expect(() => resolveOptions(table, { flags: { 'journal-limit': String(max + 1) }, env: {} })).toThrow(`--journal-limit: expected an integer from 0 to ${max}, found "${max + 1}".`);
    expect(thrown(() => checkStubOptions({ journalSize: max + 1 })).expected).toBe(`an integer from 0 to ${max}`);
  });

  it('serve --help lists its headings in SERVE_GROUPS order, each heading once, the library\'s options first under each', () => {
    const page = renderHelp(COMMANDS, COMMANDS.find((c) => c.name === 'serve'), 100);
    const headings = page.split('\n').filter((line) => /^\S.*:$/.test(line));
    expect(headings.filter((h) => Object.values<string>(SERVE_GROUPS).includes(h))).toEqual(Object.values(SERVE_GROUPS));
    const server = SERVE_OPTIONS.filter((r) => r.group === SERVE_GROUPS.server).map((r) => r.flag);
    expect(server).toEqual(['port', 'host', 'shutdown-grace', 'cors', 'config', 'print-config', 'ready-file', 'quiet', 'log-format']);
  });
});

describe('the crawl and the proxy word a bad number as every surface does, from the same bounds as their CLI rows', () => {
  it('startRecordingProxy and market-stub proxy share each bound, and the library says "expected …, found …"', async () => {
    for (const [flag, key] of [['timeout-ms', 'timeoutMs'], ['grace-ms', 'graceMs'], ['max-body-mb', 'maxBodyMb']] as const) {
      const row = PROXY_OPTIONS.find((r) => r.flag === flag);
      if (row?.kind.type !== 'integer') throw new Error(`${flag}: an integer row`);
      const error = await startRecordingProxy({ upstream: 'http://127.0.0.1:1', [key]: row.kind.max + 1 }).then(() => undefined, (e: unknown) => e as MarketStubError);
      expect(error).toMatchObject({ code: 'OPTION_INVALID', message: `${key} (--${flag}): expected an integer from ${row.kind.min} to ${row.kind.max}, found ${row.kind.max + 1}.` });
    }
  });

  it('crawlDeployment says the same of its numbers and its date', async () => {
    const refusal = (options: Parameters<typeof crawlDeployment>[0]) => crawlDeployment(options).then(() => undefined, (e: unknown) => e as MarketStubError);
    expect((await refusal({ baseUrl: 'http://127.0.0.1:1', concurrency: 0 }))?.message).toBe('concurrency (--concurrency): expected an integer from 1 to 256, found 0.');
    expect((await refusal({ baseUrl: 'http://127.0.0.1:1', today: '2026-13-01' }))?.message).toBe('today: expected a YYYY-MM-DD calendar date, found "2026-13-01".');
  });
});

describe('the public generators refuse a bad input as every surface does: one error type, the same words', () => {
  it('generateMarket and generateMarkets say what startMarketStub says of the same clock and seed', async () => {
    const stub = await startMarketStub({ clock: '2026-13-01' }).then(() => undefined, (e: unknown) => e as MarketStubError);
    const one = thrown(() => generateMarket(0, { seed: 1, clock: '2026-13-01' }));
    const many = thrown(() => generateMarkets(2, { seed: 1, clock: '2026-13-01' }));
    for (const error of [stub, one, many]) expect(error).toMatchObject({ code: 'OPTION_INVALID', option: 'clock', expected: 'a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999', found: '"2026-13-01"' });
    expect(one.message).toBe('generateMarket: clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-13-01"');
    expect(thrown(() => generateMarkets(1, { seed: -1, clock: '2026-01-01' }))).toMatchObject({ option: 'seed', expected: `an integer from 0 to ${Number.MAX_SAFE_INTEGER}` });
  });

  it('an index or count outside its bounds, an unknown key or a missing field is named, never a RangeError', () => {
    expect(thrown(() => generateMarket(-1, { seed: 1, clock: '2026-01-01' }))).toMatchObject({ option: 'index', found: '-1' });
    expect(thrown(() => generateMarket(1.5, { seed: 1, clock: '2026-01-01' }))).toMatchObject({ option: 'index' });
    expect(thrown(() => generateMarkets(-3, { seed: 1, clock: '2026-01-01' })).message).toMatch(/^generateMarkets: count: expected an integer from 0 to 100000000, found -3\.?$/);
    expect(thrown(() => generateMarkets(1, { seed: 1, clock: '2026-01-01', cuont: 3 } as never))).toMatchObject({ option: 'cuont' });
    expect(thrown(() => generateMarkets(1, { seed: 1 } as never))).toMatchObject({ option: 'clock' });
    expect(thrown(() => generateMarket(0, undefined as never))).toMatchObject({ option: 'options' });
    expect(generateMarkets(2, { seed: 1, clock: '2026-01-01' }).map((m) => m.market_id)).toEqual([0, 1].map((i) => generateMarket(i, { seed: 1, clock: '2026-01-01' }).market_id));
  });
});

describe('a misspelt library option gets the guess the CLI and the config file give (floor/nearest-name.ts)', () => {
  it('startMarketStub, the MSW and Fetch handlers and connectMarketStub name the option a typo meant', async () => {
    const stub = await startMarketStub({ cuont: 3 } as never).then(() => undefined, (e: unknown) => e as MarketStubError);
    const msw = thrown(() => createMarketStubHandlers({ cuont: 3 } as never));
    const fetchHandler = thrown(() => createFetchHandler({ cuont: 3 } as never));
    for (const error of [stub, msw, fetchHandler]) {
      expect(error).toMatchObject({ code: 'OPTION_INVALID', option: 'cuont' });
      expect(error?.expected).toMatch(/^a known option \(did you mean count\? all: .*\bcount\b/);
    }
    expect(thrown(() => connectMarketStub('http://127.0.0.1:4010', { adminTokne: 'x' } as never)).expected).toBe('a known option (did you mean adminToken? all: adminToken, maxResponseBytes, timeoutMs)');
    expect(thrown(() => connectMarketStub('http://127.0.0.1:4010', { colour: 'x' } as never)).expected).toBe('a known option (adminToken, maxResponseBytes, timeoutMs)');
  });
});
