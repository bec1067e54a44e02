import { describe, expect, it } from 'vitest';
import { ConfigError, resolveServeConfig } from './config.js';

const NOW = new Date('2026-11-21T10:00:00Z');

describe('resolveServeConfig', () => {
  it('has documented defaults', () => {
    expect(resolveServeConfig({}, {}, NOW)).toEqual({ port: 4010, host: '127.0.0.1', fixtures: undefined, seed: 1, count: 100, clock: '2026-11-21', quiet: false, logFormat: 'text' });
  });
  it('takes flags over MARKET_STUB_* over PORT/HOST', () => {
    expect(resolveServeConfig({}, { PORT: '5000', HOST: '0.0.0.0' }, NOW)).toMatchObject({ port: 5000, host: '0.0.0.0' });
    expect(resolveServeConfig({}, { PORT: '5000', MARKET_STUB_PORT: '6000' }, NOW).port).toBe(6000);
    expect(resolveServeConfig({ port: '7000' }, { PORT: '5000', MARKET_STUB_PORT: '6000' }, NOW).port).toBe(7000);
    expect(resolveServeConfig({}, { MARKET_STUB_SEED: '9', MARKET_STUB_COUNT: '3', MARKET_STUB_CLOCK: '2030-01-01', MARKET_STUB_QUIET: 'true', MARKET_STUB_LOG_FORMAT: 'json', MARKET_STUB_FIXTURES: '/fx' }, NOW))
      .toEqual({ port: 4010, host: '127.0.0.1', fixtures: '/fx', seed: 9, count: 3, clock: '2030-01-01', quiet: true, logFormat: 'json' });
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
    [{ clock: '2026-02-30' }, {}, '--clock: expected a calendar date YYYY-MM-DD, found "2026-02-30"'],
    [{}, { MARKET_STUB_LOG_FORMAT: 'xml' }, 'MARKET_STUB_LOG_FORMAT: expected text or json'],
    [{}, { MARKET_STUB_QUIET: 'maybe' }, 'MARKET_STUB_QUIET: expected true or false'],
  ])('rejects %j %j with a message naming the source', (flags, env, message) => {
    expect(() => resolveServeConfig(flags, env, NOW)).toThrow(ConfigError);
    expect(() => resolveServeConfig(flags, env, NOW)).toThrow(message);
  });
});
