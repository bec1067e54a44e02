// The byte comparison behind `npm run test:runtimes` (scripts/runtime-exchange.mjs) can fail: two
// node:http servers on loopback, one the reference, the other changed in one way at a time. What
// the comparison must leave out (a connection header, the time of day in Date) passes; any other
// change in status, header or body is reported by route, a 204's Content-Length included.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { compareExchanges } from '../../scripts/runtime-exchange.mjs';

interface Variant {
  /** Changes what one route answers: status, headers and body before they are written. */
  tweak?: (path: string, answer: { status: number; headers: Record<string, string>; body: string }) => void;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A tiny stand-in for market-stub: a list of one market, its item, health, a 404, a 405, a preflight. */
function answer(req: IncomingMessage): { status: number; headers: Record<string, string>; body: string } {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const json = { 'content-type': 'application/json; charset=utf-8', date: 'Thu, 01 Jan 2026 10:00:00 GMT' };
  if (req.method === 'OPTIONS') return { status: 204, headers: { 'access-control-allow-origin': '*', date: json.date }, body: '' };
  if (req.method === 'POST') return { status: 405, headers: { ...json, allow: 'GET, HEAD, OPTIONS' }, body: '{"error":"method_not_allowed"}' };
  if (path === '/markets') return { status: 200, headers: json, body: '[{"market_id":"M-1"}]' };
  if (path === '/markets/M-1') return { status: 200, headers: json, body: '{"market_id":"M-1"}' };
  if (path === '/healthz') return { status: 200, headers: json, body: '{"status":"ok"}' };
  return { status: 404, headers: json, body: '{"error":"not_found"}' };
}

async function serve({ tweak }: Variant = {}): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const a = answer(req);
    tweak?.((req.url ?? '/').split('?')[0] ?? '/', a);
    res.writeHead(a.status, a.headers);
    res.end(req.method === 'HEAD' ? undefined : a.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('compareExchanges', () => {
  it('finds nothing between two servers that differ only in what it must leave out', async () => {
    const reference = await serve();
    const other = await serve({
      tweak: (_path, a) => {
        if (a.headers['date']) a.headers['date'] = 'Thu, 01 Jan 2026 23:59:58 GMT';
        a.headers['connection'] = 'close';
      },
    });
    expect(await compareExchanges(reference, other)).toEqual([]);
  });

  it.each([
    ['a body byte', (path: string, a: { body: string }) => path === '/healthz' && (a.body = '{"status":"ok "}'), /GET \/healthz: body differs/],
    ['a header value', (path: string, a: { headers: Record<string, string> }) => path === '/markets/M-1' && (a.headers['content-type'] = 'application/json'), /GET \/markets\/\{id\}: headers differ/],
    ['a missing header', (_path: string, a: { status: number; headers: Record<string, string> }) => a.status === 405 && delete a.headers['allow'], /POST \/markets: headers differ: node:http only \[allow: GET, HEAD, OPTIONS\]/],
    ['a status', (path: string, a: { status: number }) => path === '/no-such-path' && (a.status = 400), /GET \/no-such-path: status 400, node:http 404/],
    ['a 204 with a Content-Length', (_path: string, a: { status: number; headers: Record<string, string> }) => a.status === 204 && (a.headers['content-length'] = '0'), /OPTIONS \/markets \(preflight\): headers differ/],
    ['the date of Date', (path: string, a: { headers: Record<string, string> }) => path === '/markets' && (a.headers['date'] = 'Fri, 02 Jan 2026 10:00:00 GMT'), /GET \/markets: headers differ/],
  ] as const)('reports %s that differs, naming the request', async (_name, tweak, expected) => {
    const reference = await serve();
    const other = await serve({ tweak: tweak as Variant['tweak'] });
    const problems = await compareExchanges(reference, other);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(expected);
  });
});
