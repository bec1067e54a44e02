import { describe, expect, expectTypeOf, it } from 'vitest';
import { resolveServeConfig } from '../config.js';
import { launchOptionsOf } from './launch-options.js';
import { resolveOptions } from './resolve-options.js';
import { CHECK_OPTIONS, RECORD_OPTIONS } from './tables/crawl-options.js';
import { PROXY_OPTIONS } from './tables/proxy-options.js';
import { SERVE_OPTIONS } from './tables/serve-options.js';

// The type assertions are checked by `npm run typecheck` (tsc reads test files too); the
// expectations by vitest. A key the table does not have must not compile (@ts-expect-error fails
// the typecheck if it ever does).
describe('resolved option values, typed from the table', () => {
  it('types serve values by kind, default and choices', () => {
    const { values, origins } = resolveOptions(SERVE_OPTIONS, { flags: { port: '0', paging: 'cursor' }, env: { MARKET_STUB_FIXTURES: 'fx' } });
    expectTypeOf(values.port).toEqualTypeOf<number>();
    expectTypeOf(values.fixtures).toEqualTypeOf<string | undefined>();
    expectTypeOf(values.paging).toEqualTypeOf<'none' | 'offset' | 'cursor'>();
    expectTypeOf(values.logFormat).toEqualTypeOf<'auto' | 'text' | 'json'>();
    expectTypeOf(values.redactHeaders).toEqualTypeOf<readonly string[] | undefined>();
    expectTypeOf(values.watch).toEqualTypeOf<boolean>();
    expect(values).toMatchObject({ port: 0, paging: 'cursor', fixtures: 'fx', watch: false, redactHeaders: undefined });
    expect(origins).toMatchObject({ port: '--port', fixtures: 'MARKET_STUB_FIXTURES', watch: 'default' });
    // @ts-expect-error `prot` is no serve option
    expect(values.prot).toBeUndefined();
    // @ts-expect-error origins are keyed by the same table
    expect(origins.prot).toBeUndefined();
  });

  it('types check, record and proxy values, a required option as always set', () => {
    const check = resolveOptions(CHECK_OPTIONS, { flags: { 'base-url': 'http://127.0.0.1:1' }, env: {} }).values;
    expectTypeOf(check.baseUrl).toEqualTypeOf<string>();
    expectTypeOf(check.format).toEqualTypeOf<'text' | 'json' | 'jsonl' | 'junit' | 'html' | 'markdown' | 'sarif'>();
    expectTypeOf(check.timeoutMs).toEqualTypeOf<number>();
    expectTypeOf(check.proxy).toEqualTypeOf<string | undefined>();
    expect(check).toMatchObject({ baseUrl: 'http://127.0.0.1:1', format: 'text', strict: false });
    const record = resolveOptions(RECORD_OPTIONS, { flags: { 'base-url': 'http://127.0.0.1:1', out: 'dir' }, env: {} }).values;
    expectTypeOf(record.out).toEqualTypeOf<string>();
    expectTypeOf(record.keepInvalid).toEqualTypeOf<boolean>();
    // @ts-expect-error `out` is record's, not check's
    expect(check.out).toBeUndefined();
    const proxy = resolveOptions(PROXY_OPTIONS, { flags: { upstream: 'http://127.0.0.1:1' }, env: {} }).values;
    expectTypeOf(proxy.record).toEqualTypeOf<string | undefined>();
    expect(proxy).toMatchObject({ port: 4011, timeoutMs: 30_000, maxBodyMb: 64, format: 'text' });
  });
});

describe('launchOptionsOf', () => {
  const NOW = new Date('2026-11-21T10:00:00Z');

  it('maps the serve config onto the library options, leaving out what has nothing to say', () => {
    const config = resolveServeConfig({}, {}, NOW);
    expect(launchOptionsOf(config)).toEqual({
      port: 4010, host: '127.0.0.1', seed: 1, count: 100, clock: '2026-11-21', clockRate: 0, priceStep: 'PT1M', priceWalk: 'generated', lifecycle: 'off', explain: false, watch: false,
      profile: config.profile, behaviour: {}, rules: [], deviations: [],
      journalSize: 1000, journalBytes: 33_554_432, journalHeaders: 'redacted',
      shutdownGraceMs: 5000, cors: true, admin: true,
    });
  });

  it('passes fixtures with watch, redaction names, the admin token and a logger (warnings then go to it alone)', () => {
    const config = resolveServeConfig({ fixtures: '/fx', watch: true, 'redact-header': 'x-key', 'redact-query': 'sig', 'admin-token': 't0k', admin: 'off', cors: 'off' }, {}, NOW);
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const options = launchOptionsOf(config, logger);
    expect(options).toMatchObject({ fixtures: '/fx', watch: true, redactHeaders: ['x-key'], redactQuery: ['sig'], adminToken: 't0k', admin: false, cors: false, logger });
    expect(options.errorLog?.('line')).toBeUndefined();
    expect(launchOptionsOf(config)).not.toHaveProperty('logger');
    expect(launchOptionsOf(config)).not.toHaveProperty('errorLog');
  });
});
