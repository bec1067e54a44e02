// The library API: checkDeployment with an injected fetch (in-memory responses, or a wrapper
// around the real one), its errors, and cancellation.
import { describe, expect, it } from 'vitest';
import { checkDeployment, ContractRunError } from '../../src/index.js';
import { closedPort, conformingMarkets, summaryOf, withServer } from './deviant-server.js';

describe('checkDeployment', () => {
  it('uses the injected fetch for every request (here: answers from memory, no server at all)', async () => {
    const markets = conformingMarkets(3);
    const asked: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      asked.push(url.pathname);
      const id = decodeURIComponent(url.pathname.split('/')[2] ?? '');
      const body = url.pathname === '/markets' ? markets.map(summaryOf) : markets.find((m) => m['market_id'] === id);
      return new Response(body ? JSON.stringify(body) : '{"error":"nf"}', { status: body ? 200 : 404, headers: { 'content-type': 'application/json' } });
    };
    const report = await checkDeployment({ baseUrl: 'https://deployment.invalid', fetch: fakeFetch, all: true, today: '2026-01-01' });
    expect(report).toMatchObject({ verdict: 'pass', exitCode: 0, baseUrl: 'https://deployment.invalid', summary: { errors: 0, warnings: 0, marketsListed: 3, marketsChecked: 3, requests: 5 } });
    expect(asked.slice(0, 1)).toEqual(['/markets']);
    expect(asked.slice(1, 4).sort()).toEqual(['/markets/DEV-1', '/markets/DEV-2', '/markets/DEV-3']);
    expect(asked[4]).toMatch(/^\/markets\/market-stub-probe-/);
  });

  it('wraps the real fetch against a real server, keeping --concurrency requests in flight at most', async () => {
    await withServer(conformingMarkets(40), undefined, async (server) => {
      let inFlight = 0;
      let most = 0;
      const counting: typeof fetch = async (input, init) => {
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          const res = await fetch(input, init);
          await new Promise((r) => setTimeout(r, 5));
          return res;
        } finally {
          inFlight--;
        }
      };
      const report = await checkDeployment({ baseUrl: server.url, fetch: counting, all: true, concurrency: 3 });
      expect(report.summary).toMatchObject({ errors: 0, marketsChecked: 40 });
      expect(most).toBe(3);
    });
  });

  it('throws ContractRunError DEPLOYMENT_UNREACHABLE when the list gets no answer, OPTION_INVALID for bad options', async () => {
    const port = await closedPort();
    await expect(checkDeployment({ baseUrl: `http://127.0.0.1:${port}` })).rejects.toMatchObject({ name: 'ContractRunError', code: 'DEPLOYMENT_UNREACHABLE' });
    await expect(checkDeployment({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 0 })).rejects.toMatchObject({ code: 'OPTION_INVALID' });
    await expect(checkDeployment({ baseUrl: 'http://127.0.0.1:1', today: '2026-02-30' })).rejects.toBeInstanceOf(ContractRunError);
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
