// Admin requests with a repeated singleton header are refused with 400: two Host lines (RFC 9112
// §3.2 requires it), and two Authorization, Origin, Content-Type or Content-Length lines (none of
// them list-based, RFC 9110 §5.3). Node keeps the first of several silently; raw sockets send them.
import { afterEach, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';
import { exchange, parseResponse } from '../support/raw-http.js';

const open: MarketStub[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function stub(options: Record<string, unknown> = {}): Promise<{ port: number; stub: MarketStub }> {
  const s = await startMarketStub({ count: 2, ...options });
  open.push(s);
  return { port: Number(new URL(s.url).port), stub: s };
}

const send = async (port: number, head: string, body = '') => parseResponse(await exchange(port, `${head}\r\nConnection: close\r\n\r\n${body}`));

describe('repeated singleton headers on the admin API', () => {
  it('two Host lines: 400 naming host, in either order; one Host line still answers', async () => {
    const { port } = await stub();
    for (const hosts of [['127.0.0.1', 'evil.example'], ['evil.example', '127.0.0.1'], ['127.0.0.1', '127.0.0.1']]) {
      const answer = await send(port, `GET /__stub/requests HTTP/1.1\r\nHost: ${hosts[0]}\r\nHost: ${hosts[1]}`);
      expect(answer.status, hosts.join(' ')).toBe(400);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ status: 400, error: 'option_invalid', option: 'host', expected: 'one host field line' });
    }
    expect((await send(port, 'GET /__stub/requests HTTP/1.1\r\nHost: 127.0.0.1')).status).toBe(200);
  });

  it('two Authorization lines with a token set (the right token first): 400, never the first one\'s verdict', async () => {
    const { port } = await stub({ adminToken: 'adm1n-t0k3n-55' });
    const answer = await send(port, 'GET /__stub/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer adm1n-t0k3n-55\r\nAuthorization: Bearer other');
    expect(answer.status).toBe(400);
    expect(answer.body.toString()).toContain('"option":"authorization"');
    expect(answer.body.toString()).not.toContain('adm1n-t0k3n-55');
  });

  it('two Content-Type or Origin lines on a PUT: 400, and the catalog is unchanged', async () => {
    const { port, stub: s } = await stub();
    const body = JSON.stringify([]);
    const count = async () => ((await (await fetch(`${s.url}/markets`)).json()) as unknown[]).length;
    const before = await count();
    expect(before).toBe(2);
    const types = await send(port, `PUT /__stub/markets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}`, body);
    expect(types.status).toBe(400);
    expect(types.body.toString()).toContain('"option":"content-type"');
    const origins = await send(port, `PUT /__stub/markets HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:${port}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`, body);
    expect(origins.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('two Content-Length lines: 400 (Node\'s parser or the admin API)', async () => {
    const { port } = await stub();
    const answer = await send(port, 'PUT /__stub/markets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2', '[]');
    expect(answer.status).toBe(400);
  });
});
