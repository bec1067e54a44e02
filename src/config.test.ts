import { describe, expect, it } from 'vitest';
import { ConfigError, resolveServeConfig } from './config.js';
import { launchOptionsOf } from './options/launch-options.js';

const NOW = new Date('2026-11-21T10:00:00Z');

describe('resolveServeConfig', () => {
  it('has documented defaults, fed to the library as startMarketStub takes them', () => {
    const config = resolveServeConfig({}, {}, NOW);
    const { origins, values, ...composed } = config;
    expect(Object.values(origins).every((o) => o === 'default')).toBe(true);
    expect(values).toMatchObject({ port: 4010, host: '127.0.0.1', fixtures: undefined, watch: false, seed: 1, count: 100, clock: '2026-11-21', quiet: false, logFormat: 'auto', shutdownGrace: 5000, admin: 'on' });
    expect(composed).toEqual({
      profile: { envelope: 'bare', paging: 'none', pageSize: 100, maxPageSize: 1000, errors: 'default', filterStatus: false },
      behaviour: {}, rules: [], deviations: [],
    });
    expect(launchOptionsOf(config)).toEqual({
      port: 4010, host: '127.0.0.1', watch: false, seed: 1, count: 100, clock: '2026-11-21', clockRate: 0, priceStep: 'PT1M', priceWalk: 'generated', lifecycle: 'off', explain: false,
      profile: composed.profile, behaviour: {}, rules: [], deviations: [], admin: true, journalSize: 1000, cors: true,
      journalBytes: 33_554_432, journalHeaders: 'redacted', shutdownGraceMs: 5000,
    });
  });
  it('takes flags over MARKET_STUB_* over PORT/HOST', () => {
    expect(resolveServeConfig({}, { PORT: '5000', HOST: '0.0.0.0' }, NOW).values).toMatchObject({ port: 5000, host: '0.0.0.0' });
    expect(resolveServeConfig({}, { PORT: '5000', MARKET_STUB_PORT: '6000' }, NOW).values.port).toBe(6000);
    expect(resolveServeConfig({ port: '7000' }, { PORT: '5000', MARKET_STUB_PORT: '6000' }, NOW).values.port).toBe(7000);
    expect(resolveServeConfig({}, { MARKET_STUB_SEED: '9', MARKET_STUB_COUNT: '3', MARKET_STUB_CLOCK: '2030-01-01', MARKET_STUB_QUIET: 'true', MARKET_STUB_LOG_FORMAT: 'json', MARKET_STUB_FIXTURES: '/fx' }, NOW).values)
      .toMatchObject({ port: 4010, host: '127.0.0.1', fixtures: '/fx', seed: 9, count: 3, clock: '2030-01-01', quiet: true, logFormat: 'json' });
  });
  it('reads profile, behaviour, admin and journal options from flags and environment', () => {
    const config = resolveServeConfig(
      { envelope: 'markets', paging: 'cursor', 'page-size': '20', delay: '50', 'error-rate': '0.25', status: '503', 'allowed-hosts': 'stub, .ci.internal' },
      { MARKET_STUB_ERRORS: 'problem', MARKET_STUB_ADMIN: 'off', MARKET_STUB_JOURNAL_SIZE: '10', MARKET_STUB_CORS: 'off', MARKET_STUB_FAULT: 'reset' }, NOW);
    expect(config.profile).toMatchObject({ envelope: 'markets', paging: 'cursor', pageSize: 20, errors: 'problem' });
    expect(config.behaviour).toEqual({ delayMs: 50, errorRate: 0.25, status: 503, fault: 'reset' });
    expect(launchOptionsOf(config)).toMatchObject({ admin: false, journalSize: 10, cors: false, allowedHosts: ['stub', '.ci.internal'] });
  });
  it('returns a frozen object', () => {
    expect(Object.isFrozen(resolveServeConfig({}, {}, NOW))).toBe(true);
  });
  it.each([
    [{ port: 'abc' }, {}, '--port: expected an integer from 0 to 65535, found "abc"'],
    [{}, { PORT: 'abc' }, 'PORT: expected an integer from 0 to 65535, found "abc"'],
    [{ port: '70000' }, {}, '--port: expected an integer from 0 to 65535'],
    [{ count: '-1' }, {}, '--count: expected an integer'],
    [{ seed: '1.5' }, {}, '--seed: expected an integer'],
    [{ clock: '2026-02-30' }, {}, '--clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-02-30"'],
    [{}, { MARKET_STUB_LOG_FORMAT: 'xml' }, 'MARKET_STUB_LOG_FORMAT: expected one of auto, text, json'],
    [{ paging: 'pages' }, {}, '--paging: expected one of none, offset, cursor'],
    [{ 'page-size': '2000' }, {}, '--page-size: expected an integer from 1 to --max-page-size (1000), found 2000.'],
    [{ envelope: 'a b' }, {}, 'envelope: expected "bare" or a key'],
    [{ 'error-rate': '1.5' }, {}, '--error-rate: expected a number from 0 to 1'],
    [{ fault: 'explode' }, {}, '--fault: expected one of reset, truncate, malformed, slow-body'],
    [{ watch: true }, {}, '--watch needs --fixtures PATH'],
    [{ behaviours: '/no/such/rules.json' }, {}, '--behaviours: cannot read behaviour rules from /no/such/rules.json'],
    [{}, { MARKET_STUB_QUIET: 'maybe' }, 'MARKET_STUB_QUIET: expected true or false'],
    [{ 'allowed-hosts': 'stub,a b' }, {}, '--allowed-hosts: expected host names such as market-stub, .ci.internal or *, found "a b".'],
  ])('rejects %j %j with a message naming the source', (flags, env, message) => {
    expect(() => resolveServeConfig(flags, env, NOW)).toThrow(ConfigError);
    expect(() => resolveServeConfig(flags, env, NOW)).toThrow(message);
  });
});
