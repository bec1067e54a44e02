// The library API: checkDeployment through an injected undici dispatcher (MockAgent: answers from
// memory, no server at all), concurrency on a real server, its errors, and cancellation.
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { checkDeployment } from '../../src/index.js';
import { ContractRunError } from '../../src/contract/http-client/contract-run-error.js';
import { MarketStubError } from '../../src/floor/market-stub-error.js';
import { closedPort, conformingMarkets, json, summaryOf, withServer } from './deviant-server.js';

describe('checkDeployment', () => {
  it('sends every request through the injected dispatcher (here: undici MockAgent answers from memory)', async () => {
    const markets = conformingMarkets(3);
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get('https://deployment.invalid');
    const asked: string[] = [];
    pool.intercept({ path: (p) => (asked.push(p), true), method: 'GET' }).reply((options) => {
      const id = decodeURIComponent(options.path.split('/')[2] ?? '');
      const body = options.path === '/markets' ? markets.map(summaryOf) : markets.find((m) => m['market_id'] === id);
      return { statusCode: body ? 200 : 404, data: JSON.stringify(body ?? { error: 'nf' }), responseOptions: { headers: { 'content-type': 'application/json' } } };
    }).persist();
    const report = await checkDeployment({ baseUrl: 'https://deployment.invalid', dispatcher: agent, all: true, today: '2026-01-01' });
    await agent.close();
    expect(report).toMatchObject({ verdict: 'pass', exitCode: 0, baseUrl: 'https://deployment.invalid', summary: { errors: 0, warnings: 0, marketsListed: 3, marketsChecked: 3, requests: 5 } });
    expect(asked.slice(0, 1)).toEqual(['/markets']);
    expect(asked.slice(1, 4).sort()).toEqual(['/markets/DEV-1', '/markets/DEV-2', '/markets/DEV-3']);
    expect(asked[4]).toMatch(/^\/markets\/market-stub-probe-/);
  });

  it('keeps --concurrency requests in flight at most, on keep-alive connections', async () => {
    let inFlight = 0;
    let most = 0;
    const sockets = new Set<unknown>();
    await withServer(conformingMarkets(40), {
      single: (id, _url, req) => {
        sockets.add(req.socket);
        inFlight++;
        most = Math.max(most, inFlight);
        // Registered before the answer's own timer: counted out just before the answer is sent.
        setTimeout(() => inFlight--, 10);
        const market = conformingMarkets(40).find((m) => m['market_id'] === id);
        return market ? { ...json(market), delayMs: 10 } : undefined;
      },
    }, async (server) => {
      const report = await checkDeployment({ baseUrl: server.url, all: true, concurrency: 3 });
      expect(report.summary).toMatchObject({ errors: 0, marketsChecked: 40 });
    });
    expect(most).toBe(3);
    // 40 requests over at most 3 (+1 for the list and probe) reused connections, not one per request.
    expect(sockets.size).toBeLessThanOrEqual(4);
  });

  it('throws ContractRunError (a MarketStubError) DEPLOYMENT_UNREACHABLE when the list gets no answer, OPTION_INVALID for bad options', async () => {
    const port = await closedPort();
    await expect(checkDeployment({ baseUrl: `http://127.0.0.1:${port}` })).rejects.toMatchObject({ name: 'ContractRunError', code: 'DEPLOYMENT_UNREACHABLE' });
    await expect(checkDeployment({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 0 })).rejects.toMatchObject({ code: 'OPTION_INVALID' });
    await expect(checkDeployment({ baseUrl: 'http://127.0.0.1:1', maxBodyMb: 0 })).rejects.toMatchObject({ code: 'OPTION_INVALID', message: expect.stringContaining('maxBodyMb (--max-body-mb)') });
    await expect(checkDeployment({ baseUrl: 'http://127.0.0.1:1', retries: 11 })).rejects.toMatchObject({ code: 'OPTION_INVALID' });
    await expect(checkDeployment({ baseUrl: 'http://127.0.0.1:1', maxMarketBytes: 100 })).rejects.toMatchObject({ code: 'OPTION_INVALID', message: 'maxMarketBytes (--max-market-bytes): expected an integer from 1024 to 67108864, found 100.' });
    await expect(checkDeployment({ baseUrl: 'http://127.0.0.1:1', today: '2026-02-30' })).rejects.toBeInstanceOf(ContractRunError);
    await expect(checkDeployment({ baseUrl: 'http://127.0.0.1:1', today: '2026-02-30' })).rejects.toBeInstanceOf(MarketStubError);
  });

  it('stops with INTERRUPTED when its signal aborts mid-crawl', async () => {
    await withServer(conformingMarkets(5), { single: () => 'hang' }, async (server) => {
      const controller = new AbortController();
      const running = checkDeployment({ baseUrl: server.url, all: true, signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      await expect(running).rejects.toMatchObject({ code: 'INTERRUPTED' });
    });
  });
});
