// Secrets by default: beyond Authorization, Cookie and Proxy-Authorization, the common secret
// carriers (X-Api-Key, Api-Key, X-Auth-Token headers; token, api_key, access_token, signature query
// parameters) are redacted in the journal, the request log, the proxy's findings and the check
// report; the list is extended with --redact-header / --redact-query, their variables, the config
// file and the library options.
import { afterEach, describe, expect, it } from 'vitest';
import { startMarketStub, startRecordingProxy, type MarketStub } from '../../src/index.js';
import type { ContractFinding } from '../../src/contract/checks/contract-finding.js';
import { runCliInProcess } from '../contract/contract-report-helpers.js';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer } from '../contract/deviant-server.js';
import { startServeProcess } from '../support/cli-process.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const SECRETS = { token: 't0k-7e1d9c55', api: 'ak-99887766aa', access: 'at-55443322bb', signature: 'sig-11223344cc', key: 'xk-5a5a5a5a5a', apiKey: 'hk-6b6b6b6b6b', auth: 'xa-7c7c7c7c7c' };
const QUERY = `status=active&token=${SECRETS.token}&api_key=${SECRETS.api}&access_token=${SECRETS.access}&Signature=${SECRETS.signature}`;
const HEADERS = { 'x-api-key': SECRETS.key, 'api-key': SECRETS.apiKey, 'x-auth-token': SECRETS.auth, 'x-trace': 'keep-me' };
const leaks = (text: string) => Object.values(SECRETS).filter((secret) => text.includes(secret));

describe('the journal (GET /__stub/requests)', () => {
  it('redacts the default secret headers and query parameters, keeping the others', async () => {
    const stub = await startMarketStub({ count: 2 });
    open.push(stub);
    await fetch(`${stub.url}/markets?${QUERY}`, { headers: HEADERS });
    const text = await (await fetch(`${stub.url}/__stub/requests`)).text();
    expect(leaks(text)).toEqual([]);
    const [entry] = await stub.requests();
    expect(entry?.query).toEqual({ status: 'active', token: '[redacted]', api_key: '[redacted]', access_token: '[redacted]', Signature: '[redacted]' });
    expect(entry?.headers).toMatchObject({ 'x-api-key': '[redacted]', 'api-key': '[redacted]', 'x-auth-token': '[redacted]', 'x-trace': 'keep-me' });
  });

  it('redacts the names added with redactHeaders / redactQuery (library), and keeps them with journalHeaders: "full"', async () => {
    const stub = await startMarketStub({ count: 2, redactHeaders: ['X-Tenant-Secret'], redactQuery: ['session_code'] });
    open.push(stub);
    await fetch(`${stub.url}/markets?session_code=sc-31415926&page=1`, { headers: { 'x-tenant-secret': 'ts-27182818' } });
    const [entry] = await stub.requests();
    expect(entry?.query).toEqual({ session_code: '[redacted]', page: '1' });
    expect(entry?.headers['x-tenant-secret']).toBe('[redacted]');
    const full = await startMarketStub({ count: 2, journalHeaders: 'full' });
    open.push(full);
    await fetch(`${full.url}/markets?token=${SECRETS.token}`, { headers: { 'x-api-key': SECRETS.key } });
    const [kept] = await full.requests();
    expect(kept?.query['token']).toBe(SECRETS.token);
    expect(kept?.headers['x-api-key']).toBe(SECRETS.key);
  });

  it('takes empty lists, and refuses a list holding an empty name (OPTION_INVALID naming the option)', async () => {
    open.push(await startMarketStub({ count: 1, redactHeaders: [], redactQuery: [] }));
    await expect(startMarketStub({ count: 1, redactQuery: [''] })).rejects.toMatchObject({ code: 'OPTION_INVALID', option: 'redactQuery' });
  });
});

describe('the request log of serve', () => {
  it('shows secret query values as [redacted] (defaults and --redact-query); the journal extended by MARKET_STUB_REDACT_HEADER', async () => {
    const served = await startServeProcess(['--port', '0', '--count', '2', '--log-format', 'text', '--redact-query', 'session_code'], { env: { MARKET_STUB_REDACT_HEADER: 'X-Tenant-Secret' } });
    try {
      await fetch(`${served.url}/markets?${QUERY}&session_code=sc-31415926`);
      await fetch(`${served.url}/markets`, { headers: { 'x-tenant-secret': 'ts-27182818' } });
      const journal = await (await fetch(`${served.url}/__stub/requests`)).text();
      expect(journal).not.toContain('ts-27182818');
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await served.stop();
    }
    const { stdout } = served.output();
    expect(stdout).toContain('GET /markets?status=active&token=[redacted]&api_key=[redacted]&access_token=[redacted]&Signature=[redacted]&session_code=[redacted] 200');
    expect(leaks(stdout)).toEqual([]);
    expect(stdout).not.toContain('sc-31415926');
  });
});

describe('check and proxy reports', () => {
  /** A list whose next page carries secrets in its URL, and a page 2 with a contract error (so the report names that request). */
  const signedPaging = {
    list: (url: URL) => (url.searchParams.get('page') === '2'
      ? json({ markets: [{ ...summaryOf(conformingMarket(2)), yes_price: 'high' }] })
      : json({ markets: [summaryOf(conformingMarket(1))], next: `/markets?page=2&token=${SECRETS.token}&X-Amz-Signature=${SECRETS.signature}&page_secret=ps-88776655` })),
  };

  it('check: the report names the signed request with its secret values redacted (defaults plus --redact-query)', async () => {
    await withServer(conformingMarkets(2), signedPaging, async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json', '--redact-query', 'page_secret']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('/markets?page=2&token=[redacted]&X-Amz-Signature=[redacted]&page_secret=[redacted]');
      expect(leaks(run.stdout + run.stderr)).toEqual([]);
      expect(run.stdout).not.toContain('ps-88776655');
      // The deployment was still asked with the real values.
      expect(server.requests.some((r) => r.url.includes(SECRETS.token))).toBe(true);
    });
  });

  it('proxy: findings and the report never hold a secret query value or an extended header\'s value', async () => {
    const echo = { single: (id: string, _url: URL, req: { headers: Record<string, unknown> }) => (id === 'DEV-1' ? json(conformingMarket(1, { yes_price: String(req.headers['x-tenant-secret']) })) : undefined) };
    await withServer(conformingMarkets(1), echo, async (server) => {
      const findings: ContractFinding[] = [];
      const proxy = await startRecordingProxy({ upstream: server.url, redactHeaders: ['X-Tenant-Secret'], onFinding: (f) => findings.push(f) });
      try {
        await (await fetch(`${proxy.url}/markets/DEV-1?token=${SECRETS.token}&api_key=${SECRETS.api}`, { headers: { 'x-tenant-secret': 'ts-27182818-long' } })).text();
        await new Promise((resolve) => setTimeout(resolve, 100));
        const text = JSON.stringify(findings) + JSON.stringify(proxy.report());
        expect(text).toContain('type');
        expect(leaks(text)).toEqual([]);
        expect(text).not.toContain('ts-27182818');
        expect(text).toContain('[redacted]');
      } finally {
        await proxy.close();
      }
    });
  });
});
