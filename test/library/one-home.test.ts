// One home per option: every documented limit on the floor, one reader of "an
// http(s) base URL" whose wording every surface shows, one definition of each option kind helper.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectMarketStub, crawlDeployment, MarketStubError } from '../../src/index.js';
import { createMarketStubHandlers } from '../../src/msw.js';
import { httpUrlExpected } from '../../src/core/http-url.js';
import { resolveOptions } from '../../src/options/resolve-options.js';

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
  it('every exported MAX_/DEFAULT_ constant is defined in src/core/limits.ts, and only there', () => {
    const defined = definitions(/^export const ((?:MAX|DEFAULT)_[A-Z0-9_]+)/gm);
    expect(defined.filter((d) => !d.startsWith(`core${path.sep}limits.ts:`))).toEqual([]);
    expect(defined.length).toBeGreaterThanOrEqual(38);
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
