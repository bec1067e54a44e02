// check and record behind an HTTP forward proxy, as corporate networks have them: HTTP_PROXY,
// HTTPS_PROXY and NO_PROXY (either case) and --proxy; absolute-form requests for http://
// deployments, CONNECT tunnels for https:// ones; the proxy's credentials go only to the proxy,
// the --header values only to the deployment; a proxy that refuses is named as the cause.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { startRecordingProxy } from '../../src/index.js';
import { runCliInProcess } from '../contract/contract-report-helpers.js';
import { closedPort, conformingMarkets, withServer, type DeviantServer } from '../contract/deviant-server.js';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.js';
import { recordInto } from './record-into.js';
import { hasOpenssl, makeTestCertificates, type TestCertificates } from '../support/test-certificates.js';

const TOKEN = 'Bearer pr0xy-t3st-t0ken-61c0';
const HEADER = ['--header', `Authorization: ${TOKEN}`, '--header', 'X-Api-Key: k3y-behind-the-proxy-88'];

let certs: TestCertificates;
beforeAll(() => {
  if (!hasOpenssl()) throw new Error('the openssl CLI is needed to make the test certificates');
  certs = makeTestCertificates();
});
afterAll(() => certs.remove());

async function withProxy(options: { credentials?: string }, body: (proxy: ForwardProxy) => Promise<void>): Promise<void> {
  const proxy = await startForwardProxy(options);
  try {
    await body(proxy);
  } finally {
    await proxy.close();
  }
}

async function check(server: DeviantServer, env: Record<string, string>, args: string[] = []) {
  const run = await runCliInProcess(['check', '--base-url', server.url, '--all', '--format', 'json', ...HEADER, ...args], { env });
  const report = run.code === 2 ? undefined : (JSON.parse(run.stdout) as ContractReport);
  return { ...run, report };
}

const everyHeaderOf = (proxy: ForwardProxy) => JSON.stringify(proxy.seen.map((s) => s.headers));

describe('HTTP_PROXY for an http:// deployment: absolute-form requests', () => {
  it('sends every request through the proxy, the --header values reaching the deployment', async () => {
    await withProxy({}, async (proxy) => {
      await withServer(conformingMarkets(3), undefined, async (server) => {
        const run = await check(server, { http_proxy: proxy.url });
        expect(run.code).toBe(0);
        // 1 list page + 3 markets + the unknown-id probe, each through the proxy in absolute form (RFC 9112 §3.2.2).
        expect(proxy.seen.length).toBe(5);
        expect(proxy.seen.every((s) => s.method === 'GET' && s.target.startsWith(`${server.url}/markets`))).toBe(true);
        expect(server.requests.length).toBe(5);
        expect(server.requests.every((r) => r.headers['authorization'] === TOKEN && r.headers['proxy-authorization'] === undefined)).toBe(true);
      });
    });
  });

  it('honours the lower-case http_proxy over HTTP_PROXY, as curl does', async () => {
    await withProxy({}, async (proxy) => {
      await withServer(conformingMarkets(1), undefined, async (server) => {
        const port = await closedPort();
        const run = await check(server, { http_proxy: proxy.url, HTTP_PROXY: `http://127.0.0.1:${port}` });
        expect(run.code).toBe(0);
        expect(proxy.seen.length).toBeGreaterThan(0);
      });
    });
  });
});

describe('HTTPS_PROXY for an https:// deployment: a CONNECT tunnel', () => {
  it('tunnels every request: the proxy sees CONNECT host:port only, never a --header value', async () => {
    await withProxy({}, async (proxy) => {
      await withServer(conformingMarkets(3), { tls: { key: certs.pem.serverKey, cert: certs.pem.serverCert } }, async (server) => {
        const run = await check(server, { https_proxy: proxy.url }, ['--cacert', certs.files.ca]);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const host = new URL(server.url).host;
        expect(proxy.seen.length).toBeGreaterThan(0);
        expect(proxy.seen.every((s) => s.method === 'CONNECT' && s.target === host)).toBe(true);
        expect(everyHeaderOf(proxy)).not.toContain('pr0xy-t3st-t0ken');
        expect(everyHeaderOf(proxy)).not.toContain('k3y-behind-the-proxy');
        expect(server.requests.length).toBe(5);
        expect(server.requests.every((r) => r.headers['authorization'] === TOKEN && r.headers['x-api-key'] === 'k3y-behind-the-proxy-88')).toBe(true);
      });
    });
  });
});

describe('--proxy with credentials', () => {
  it('sends them to the proxy only (Proxy-Authorization), never to the deployment nor into any output', async () => {
    await withProxy({ credentials: 'alice:pr0xy-pa55w0rd-f00d' }, async (proxy) => {
      await withServer(conformingMarkets(2), undefined, async (server) => {
        const proxyUrl = proxy.url.replace('://', '://alice:pr0xy-pa55w0rd-f00d@');
        const run = await check(server, { MARKET_STUB_PROXY: proxyUrl });
        expect(run.code).toBe(0);
        expect(proxy.seen.length).toBe(4);
        expect(proxy.seen.every((s) => s.headers['proxy-authorization'] === `Basic ${Buffer.from('alice:pr0xy-pa55w0rd-f00d').toString('base64')}`)).toBe(true);
        expect(server.requests.length).toBe(4);
        expect(server.requests.every((r) => r.headers['proxy-authorization'] === undefined)).toBe(true);
        expect(run.stdout + run.stderr).not.toContain('pr0xy-pa55w0rd');
      });
    });
  });

  it('wins over HTTP_PROXY', async () => {
    await withProxy({}, async (proxy) => {
      await withServer(conformingMarkets(1), undefined, async (server) => {
        const run = await check(server, { http_proxy: `http://127.0.0.1:${await closedPort()}` }, ['--proxy', proxy.url]);
        expect(run.code).toBe(0);
        expect(proxy.seen.length).toBe(3);
      });
    });
  });
});

describe('NO_PROXY', () => {
  it('sends a request for a listed host directly (either case, a :port entry matching that port only)', async () => {
    await withProxy({}, async (proxy) => {
      await withServer(conformingMarkets(2), undefined, async (server) => {
        const port = new URL(server.url).port;
        const bypasses: Array<Record<string, string>> = [{ NO_PROXY: '127.0.0.1' }, { no_proxy: `example.test, 127.0.0.1:${port}` }, { NO_PROXY: '*' }];
        for (const env of bypasses) {
          const run = await check(server, { http_proxy: proxy.url, ...env });
          expect(run.code).toBe(0);
        }
        expect(proxy.seen).toEqual([]);
        const other = await check(server, { http_proxy: proxy.url, NO_PROXY: `127.0.0.1:${Number(port) + 1}` });
        expect(other.code).toBe(0);
        expect(proxy.seen.length).toBe(4);
      });
    });
  });
});

describe('a proxy that refuses is named as the cause (exit 2), without its password', () => {
  it('407 for an http:// deployment (absolute form) and for an https:// one (CONNECT)', async () => {
    await withProxy({ credentials: 'alice:right-pa55w0rd' }, async (proxy) => {
      const wrong = proxy.url.replace('://', '://alice:wr0ng-pa55w0rd-9a@');
      await withServer(conformingMarkets(1), undefined, async (server) => {
        const run = await check(server, { http_proxy: wrong });
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`the forward proxy ${proxy.url}/ (http_proxy) requires credentials (407 Proxy Authentication Required)`);
        expect(run.stderr).not.toContain('wr0ng-pa55w0rd');
        expect(server.requests).toEqual([]);
      });
      await withServer(conformingMarkets(1), { tls: { key: certs.pem.serverKey, cert: certs.pem.serverCert } }, async (server) => {
        const run = await check(server, { HTTPS_PROXY: wrong }, ['--cacert', certs.files.ca]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`the forward proxy ${proxy.url}/ (HTTPS_PROXY) requires credentials (407 Proxy Authentication Required)`);
        expect(run.stderr).not.toContain('wr0ng-pa55w0rd');
        expect(server.requests).toEqual([]);
      });
    });
  });

  it('a proxy that refuses connections, and one whose CONNECT target is down', async () => {
    await withServer(conformingMarkets(1), undefined, async (server) => {
      const port = await closedPort();
      const run = await check(server, {}, ['--proxy', `http://bob:s3cret-pw-77@127.0.0.1:${port}`]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`the forward proxy http://127.0.0.1:${port}/ (--proxy) cannot be reached: connection refused (ECONNREFUSED)`);
      expect(run.stderr).not.toContain('s3cret-pw-77');
      expect(server.requests).toEqual([]);
    });
    await withProxy({}, async (proxy) => {
      const down = await closedPort();
      const run = await runCliInProcess(['check', '--base-url', `https://127.0.0.1:${down}`, '--format', 'json'], { env: { HTTPS_PROXY: proxy.url } });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`the forward proxy ${proxy.url}/ \\(HTTPS_PROXY\\) refused the tunnel \\(CONNECT answered \\d{3}\\)`));
    });
  });

  it('refuses a proxy URL that is not http(s), naming the variable', async () => {
    await withServer(conformingMarkets(1), undefined, async (server) => {
      const run = await check(server, { http_proxy: 'socks5://127.0.0.1:1080' });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('http_proxy: socks5: proxies are not supported');
      expect(server.requests).toEqual([]);
    });
  });
});

describe('record goes through the same proxy', () => {
  it('records the markets fetched through HTTPS_PROXY', async () => {
    await withProxy({}, async (proxy) => {
      await withServer(conformingMarkets(2), { tls: { key: certs.pem.serverKey, cert: certs.pem.serverCert } }, async (server) => {
        const { run, ids } = await recordInto(server.url, ['--cacert', certs.files.ca], { HTTPS_PROXY: proxy.url });
        expect(run.code).toBe(0);
        expect(proxy.seen.length).toBeGreaterThan(0);
        expect(ids).toEqual(['DEV-1', 'DEV-2']);
      });
    });
  });
});

describe('proxy forwards to its upstream through the same forward proxy', () => {
  it('http:// upstream in absolute form, https:// upstream through CONNECT (with --cacert), answers passed back unchanged', async () => {
    await withProxy({}, async (forward) => {
      await withServer(conformingMarkets(2), undefined, async (plain) => {
        const proxy = await startRecordingProxy({ upstream: plain.url, network: { proxyEnv: { http_proxy: forward.url } } });
        try {
          const answer = await fetch(`${proxy.url}/markets/DEV-2`, { headers: { 'x-api-key': 'k3y-behind-the-proxy-88' } });
          expect(answer.status).toBe(200);
          expect(((await answer.json()) as { market_id: string }).market_id).toBe('DEV-2');
        } finally {
          await proxy.close();
        }
        expect(forward.seen.map((s) => `${s.method} ${s.target}`)).toEqual([`GET ${plain.url}/markets/DEV-2`]);
        expect(plain.requests[0]?.headers['x-api-key']).toBe('k3y-behind-the-proxy-88');
      });
      forward.seen.length = 0;
      await withServer(conformingMarkets(2), { tls: { key: certs.pem.serverKey, cert: certs.pem.serverCert } }, async (secure) => {
        const proxy = await startRecordingProxy({ upstream: secure.url, network: { proxyEnv: { HTTPS_PROXY: forward.url }, ca: certs.pem.ca } });
        try {
          const answer = await fetch(`${proxy.url}/markets`, { headers: { authorization: TOKEN } });
          expect(answer.status).toBe(200);
          expect(((await answer.json()) as unknown[]).length).toBe(2);
          expect(proxy.report().summary.errors).toBe(0);
        } finally {
          await proxy.close();
        }
        expect(forward.seen.map((s) => `${s.method} ${s.target}`)).toEqual([`CONNECT ${new URL(secure.url).host}`]);
        expect(everyHeaderOf(forward)).not.toContain('pr0xy-t3st-t0ken');
        expect(secure.requests[0]?.headers['authorization']).toBe(TOKEN);
      });
    });
  });

  it('a forward proxy that refuses: the client gets 502 and the upstream error names the proxy', async () => {
    const port = await closedPort();
    await withServer(conformingMarkets(1), undefined, async (server) => {
      const errors: string[] = [];
      const proxy = await startRecordingProxy({ upstream: server.url, network: { proxy: `http://u:pw-not-shown-42@127.0.0.1:${port}` }, onUpstreamError: (e) => errors.push(e.reason) });
      try {
        const answer = await fetch(`${proxy.url}/markets`);
        expect(answer.status).toBe(502);
        expect(await answer.text()).not.toContain('pw-not-shown-42');
      } finally {
        await proxy.close();
      }
      expect(errors[0]).toContain(`the forward proxy http://127.0.0.1:${port}/ (--proxy) cannot be reached`);
      expect(server.requests).toEqual([]);
    });
  });
});
