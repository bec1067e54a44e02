// market-stub.config.json (or --config FILE / MARKET_STUB_CONFIG) holds any serve
// option and inline rules, is checked against schemas/config.schema.json with the flags' words
// (file, JSON pointer, expected, found), and ranks below flags and variables; serve --print-config
// shows every value and its source, never a secret.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { SERVE_OPTIONS } from '../../src/options/tables/serve-options.js';
import { MAX_CONFIG_FILE_BYTES } from '../../src/floor/limits.js';
import { optionKey } from '../../src/options/resolve-options.js';
import { renderConfigSchema } from '../../scripts/gen-config-schema.js';
import { startServeProcess } from '../support/cli-process.js';

const ROOT = new URL('../../', import.meta.url);
const SCHEMA = JSON.parse(readFileSync(new URL('schemas/config.schema.json', ROOT), 'utf8')) as Record<string, unknown>;

/** A fresh folder holding `files` (objects are written as JSON). */
function folder(files: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-config-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/** `market-stub ARGS` in this process with `env` and `cwd`; serve never binds (the signal is already aborted). */
async function cli(args: string[], options: { env?: Record<string, string>; cwd: string }) {
  let stdout = '';
  let stderr = '';
  const aborted = new AbortController();
  aborted.abort();
  const code = await runCli(args, {
    stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: options.env ?? {}, cwd: options.cwd,
    isTTY: false, signal: aborted.signal, stdoutStream: new PassThrough(),
  });
  return { code, stdout, stderr };
}

/** `--print-config` as rows: key → [value, origin]. */
async function printed(args: string[], options: { env?: Record<string, string>; cwd: string }): Promise<Record<string, [string, string]>> {
  const result = await cli(['serve', '--print-config', ...args], options);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return Object.fromEntries(result.stdout.trim().split('\n').slice(1).map((line) => {
    const [key = '', value = '', ...origin] = line.trim().split(/\s{2,}/);
    return [key, [value, origin.join('  ')]];
  }));
}

describe('schemas/config.schema.json', () => {
  it('is exactly what scripts/gen-config-schema.ts derives from the option tables', () => {
    expect(readFileSync(new URL('schemas/config.schema.json', ROOT), 'utf8'), 'run `npm run gen:config-schema` and commit the result').toBe(renderConfigSchema());
  });

  it('is a strict draft-07 schema with a property for every serve option a file may set, typed by its kind', () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats.default(ajv, ['date', 'date-time', 'uri']);
    const validate = ajv.compile(SCHEMA);
    const serve = (SCHEMA['properties'] as Record<string, { properties: Record<string, { type?: string; enum?: unknown[] }> }>)['serve']?.properties ?? {};
    const settable = SERVE_OPTIONS.filter((s) => !s.cliOnly).map(optionKey);
    expect(Object.keys(serve).sort()).toEqual([...settable, 'rules'].sort());
    expect(serve['port']).toMatchObject({ type: 'integer', minimum: 0, maximum: 65535, default: 4010 });
    expect(serve['paging']).toMatchObject({ enum: ['none', 'offset', 'cursor'] });
    expect(serve['adminToken']).not.toHaveProperty('default');
    expect(serve).not.toHaveProperty('config');
    expect(serve).not.toHaveProperty('printConfig');
    const example = JSON.parse(readFileSync(new URL('docs/ci/market-stub.config.json', ROOT), 'utf8')) as unknown;
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ serve: { port: 70000 } })).toBe(false);
    expect(validate({ serve: { rules: [{ match: { route: 'list' }, behaviour: { fault: 'explode' } }] } })).toBe(false);
  });
});

describe('serve with a config file', () => {
  it('reads market-stub.config.json from the working directory; flag > environment > file > default for every combination', async () => {
    // Property: for each option, whichever sources give it, the highest one wins.
    const cases = [
      { key: 'seed', flag: '--seed', env: 'MARKET_STUB_SEED', values: [11, 22, 33] },
      { key: 'port', flag: '--port', env: 'MARKET_STUB_PORT', values: [4101, 4102, 4103] },
      { key: 'paging', flag: '--paging', env: 'MARKET_STUB_PAGING', values: ['offset', 'cursor', 'offset'] },
    ] as const;
    await fc.assert(fc.asyncProperty(fc.constantFrom(...cases), fc.boolean(), fc.boolean(), fc.boolean(), async (c, byFlag, byEnv, byFile) => {
      const [flagValue, envValue, fileValue] = c.values;
      const cwd = folder(byFile ? { 'market-stub.config.json': { serve: { [c.key]: fileValue } } } : {});
      const rows = await printed(byFlag ? [c.flag, String(flagValue)] : [], { cwd, env: byEnv ? { [c.env]: String(envValue) } : {} });
      const [value, origin] = rows[c.key] ?? [];
      if (byFlag) expect([value, origin]).toEqual([JSON.stringify(flagValue), c.flag]);
      else if (byEnv) expect([value, origin]).toEqual([JSON.stringify(envValue), c.env]);
      else if (byFile) expect([value, origin]).toEqual([JSON.stringify(fileValue), `market-stub.config.json /serve/${c.key}`]);
      else expect(origin).toBe('default');
    }), { numRuns: 24 });
  });

  it('--config and MARKET_STUB_CONFIG name another file (the flag first); relative paths in it are relative to its folder', async () => {
    const cwd = folder({
      'ci/stub.json': { serve: { count: 7, fixtures: 'data/markets.json' } },
      'other.json': { serve: { count: 8 } },
      'market-stub.config.json': { serve: { count: 9 } },
    });
    const byFlag = await printed(['--config', 'ci/stub.json'], { cwd, env: { MARKET_STUB_CONFIG: 'other.json' } });
    expect(byFlag['config']).toEqual(['"ci/stub.json"', '--config']);
    // With fixtures, count does nothing: --print-config says so.
    expect(byFlag['count']).toEqual(['7', 'ci/stub.json /serve/count (ignored: fixtures are served (ci/stub.json /serve/fixtures))']);
    expect(byFlag['fixtures']).toEqual([JSON.stringify(path.join(cwd, 'ci', 'data', 'markets.json')), 'ci/stub.json /serve/fixtures']);
    const byEnv = await printed([], { cwd, env: { MARKET_STUB_CONFIG: 'other.json' } });
    expect(byEnv['count']).toEqual(['8', 'other.json /serve/count']);
    expect((await printed([], { cwd }))['config']).toEqual(['"market-stub.config.json"', 'working directory']);
    expect((await printed([], { cwd: folder() }))['config']).toEqual(['(not set)', 'default']);
  });

  it('words a bad value exactly as the flag would, naming the file and JSON pointer', async () => {
    const cwd = folder({ 'market-stub.config.json': { serve: { port: 'abc', clock: '2026-02-30', paging: 'pages', host: ' ' } } });
    const fromFile = await cli(['serve'], { cwd });
    const fromFlags = await cli(['serve', '--port', 'abc', '--clock', '2026-02-30', '--paging', 'pages', '--host', ' '], { cwd: folder() });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stdout).toBe('');
    const lines = (text: string, prefix: RegExp) => text.trim().split('\n').filter((l) => l.startsWith('market-stub serve:')).map((l) => l.replace(prefix, '<option>')).sort();
    expect(lines(fromFile.stderr, /market-stub\.config\.json \/serve\/[a-zA-Z]+/)).toEqual(lines(fromFlags.stderr, /--[a-z-]+/));
    expect(fromFile.stderr).toContain('market-stub serve: market-stub.config.json /serve/port: expected an integer from 0 to 65535, found "abc".');
    // A JSON number is shown as the number it is (a flag's value is always text).
    expect((await cli(['serve'], { cwd: folder({ 'market-stub.config.json': { serve: { errorRate: 2 } } }) })).stderr).toContain('market-stub.config.json /serve/errorRate: expected a number from 0 to 1, found 2.');
    expect((await cli(['serve'], { cwd: folder({ 'market-stub.config.json': { serve: { count: '5' } } }) })).stderr).toContain('market-stub.config.json /serve/count: expected an integer from 0 to 100000000, found "5".');
  });

  it('refuses unknown keys with a suggestion, bad rules with their pointer, and bad JSON with line and column', async () => {
    const unknown = await cli(['serve'], { cwd: folder({ 'market-stub.config.json': { serve: { prot: 4010 }, sevre: {} } }) });
    expect(unknown.stderr).toContain('market-stub.config.json /serve/prot: expected a known option (');
    expect(unknown.stderr).toContain('found "prot". Did you mean port?');
    expect(unknown.stderr).toContain('market-stub.config.json /sevre: expected a known section (serve), found "sevre". Did you mean serve?');
    const rules = await cli(['serve'], { cwd: folder({ 'market-stub.config.json': { serve: { rules: [{ match: {}, behaviour: { status: 503 } }, { match: { route: 'lst' }, behaviour: { delayMs: -5 }, times: 0 }, { behaviour: {} }] } } }) });
    expect(rules.stderr.split('\n').filter((l) => l.includes('/serve/rules'))).toEqual([
      'market-stub serve: market-stub.config.json /serve/rules/1/match/route: expected one of list, item, found "lst".',
      'market-stub serve: market-stub.config.json /serve/rules/1/behaviour/delayMs: expected an integer from 0 to 600000, found -5.',
      'market-stub serve: market-stub.config.json /serve/rules/1/times: expected an integer ≥ 1, found 0.',
      'market-stub serve: market-stub.config.json /serve/rules/2/match: expected a value (required), found nothing.',
    ]);
    const broken = await cli(['serve'], { cwd: folder({ 'market-stub.config.json': '{\n  "serve": { "port": 4010, }\n}\n' }) });
    expect(broken.stderr).toMatch(/^market-stub serve: market-stub\.config\.json: expected valid JSON, found invalid JSON at line 2, column 2\d/);
    const notObject = await cli(['serve'], { cwd: folder({ 'market-stub.config.json': '[1]' }) });
    expect(notObject.stderr).toContain('market-stub.config.json /: expected an object, found [1].');
    for (const result of [unknown, rules, broken, notObject]) expect(result.code).toBe(2);
  });

  it('refuses a named file that is missing, a folder, or larger than the limit; a missing default file is no error', async () => {
    const cwd = folder({ 'big.json': `{"serve":{"host":"${'x'.repeat(MAX_CONFIG_FILE_BYTES)}"}}` });
    mkdirSync(path.join(cwd, 'dir.json'));
    expect((await cli(['serve', '--config', 'nope.json'], { cwd })).stderr).toContain('market-stub serve: --config: cannot read the config file nope.json (no such file).');
    expect((await cli(['serve'], { cwd, env: { MARKET_STUB_CONFIG: 'dir.json' } })).stderr).toContain('MARKET_STUB_CONFIG: cannot read the config file dir.json (a directory, not a file).');
    expect((await cli(['serve', '--config', 'big.json'], { cwd })).stderr).toContain(`--config big.json: expected a config file of at most ${MAX_CONFIG_FILE_BYTES} bytes, found a larger one.`);
    expect((await cli(['serve', '--print-config'], { cwd })).code).toBe(0);
  });

  it('never prints the admin token, whichever source gives it, and never puts it in a message', async () => {
    const token = 'very-secret-token-81f3';
    for (const [args, env, file] of [[['--admin-token', token], {}, {}], [[], { MARKET_STUB_ADMIN_TOKEN: token }, {}], [[], {}, { adminToken: token }]] as const) {
      const cwd = folder({ 'market-stub.config.json': { serve: file } });
      const result = await cli(['serve', '--print-config', ...args], { cwd, env });
      expect(result.stdout).toMatch(/adminToken\s+\(set, not shown\)/);
      expect(result.stdout + result.stderr).not.toContain(token);
    }
    const bad = await cli(['serve'], { cwd: folder({ 'market-stub.config.json': { serve: { adminToken: ['not', token] } } }) });
    expect(bad.stderr).toContain('market-stub.config.json /serve/adminToken: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged. The value is not shown: it may be a secret.');
    expect(bad.stderr).not.toContain(token);
    // A token no HTTP client sends unchanged (spaces at an end, beyond ASCII, a control) stops the start, from any source.
    for (const [args, env, file, where] of [[['--admin-token', `${token} `], {}, {}, '--admin-token'], [[], { MARKET_STUB_ADMIN_TOKEN: ` ${token}` }, {}, 'MARKET_STUB_ADMIN_TOKEN'], [[], {}, { adminToken: `${token}€` }, 'market-stub.config.json /serve/adminToken'], [['--admin-token', `a\u0007${token}`], {}, {}, '--admin-token']] as const) {
      const refused = await cli(['serve', '--port', '0', ...args], { cwd: folder({ 'market-stub.config.json': { serve: file } }), env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${where}: expected a token of at most 1024 printable ASCII characters (U+0020–U+007E) with no space at either end, as an HTTP header carries it unchanged`);
      expect(refused.stderr).not.toContain(token);
    }
  });

  it('takes rules inline, or from a behaviours file, not both; a --behaviours flag replaces the inline rules', async () => {
    const rule = { match: { route: 'list' }, behaviour: { status: 503 } };
    const cwd = folder({ 'market-stub.config.json': { serve: { rules: [rule, rule] } }, 'rules.json': [rule], 'both.json': { serve: { rules: [rule], behaviours: 'rules.json' } } });
    expect((await printed([], { cwd }))['rules']).toEqual(['2 rules', 'market-stub.config.json /serve/rules']);
    expect((await printed(['--behaviours', path.join(cwd, 'rules.json')], { cwd }))['rules']).toEqual(['1 rule', '--behaviours']);
    const both = await cli(['serve', '--config', 'both.json'], { cwd });
    expect(both.stderr).toContain('both.json /serve/rules: give the rules inline or as a file (both.json /serve/behaviours), not both.');
  });

  it('serves what the file says, for real: a process with MARKET_STUB_CONFIG, fixtures beside the file and an inline rule', async () => {
    const markets = JSON.parse(readFileSync(new URL('fixtures/markets.json', ROOT), 'utf8')) as { market_id: string }[];
    const dir = folder({
      'stub/market-stub.config.json': { $schema: '../schemas/config.schema.json', serve: { port: 0, fixtures: 'markets', quiet: true, rules: [{ match: { route: 'item', marketId: markets[1]?.market_id }, behaviour: { status: 429, retryAfter: 3 } }] } },
      'stub/markets/all.json': markets,
    });
    const served = await startServeProcess([], { env: { MARKET_STUB_CONFIG: path.join(dir, 'stub', 'market-stub.config.json') } });
    try {
      const list = (await (await fetch(`${served.url}/markets`)).json()) as { market_id: string }[];
      expect(list.map((m) => m.market_id)).toEqual(markets.map((m) => m.market_id));
      const limited = await fetch(`${served.url}/markets/${markets[1]?.market_id ?? ''}`);
      await limited.arrayBuffer();
      expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '3']);
    } finally {
      await served.stop();
    }
  });
});
