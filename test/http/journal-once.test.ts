// The node:http adapter journals an exchange at once when its answer was handed whole to the socket,
// and on the response's `close` otherwise. Either way each request is one entry with what was sent:
// pipelined requests (the second waits its turn, so it takes the `close` path), an answer whose
// client leaves during its delay (no response: status null), and a request that never reaches the
// journal twice.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMarketStub, type MarketStub } from '../../src/index.js';

let stub: MarketStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** Sends raw bytes on one connection and resolves with everything read until `done(text)` holds, or the server closes. */
function rawExchange(url: string, bytes: string, done: (text: string) => boolean): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (done(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/** Waits until `check` holds, reading the journal again every 10 ms (at most 2 s). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (check(value) || i >= 200) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the node:http adapter journals each request once', () => {
  it('pipelined requests: three answers in order, three entries with their own methods, paths and statuses', async () => {
    stub = await startMarketStub({ count: 3, seed: 2, clock: '2026-01-01' });
    const pipelined = 'GET /markets HTTP/1.1\r\nHost: x\r\n\r\nGET /markets/nope HTTP/1.1\r\nHost: x\r\n\r\nHEAD /markets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    const text = await rawExchange(stub.url, pipelined, () => false);
    expect([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1])).toEqual(['200', '404', '200']);
    const s = stub;
    const entries = await eventually(() => s.requests(), (list) => list.length >= 3);
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([['GET', '/markets', 200], ['GET', '/markets/nope', 404], ['HEAD', '/markets', 200]]);
    expect(await s.requests()).toHaveLength(3);
  });

  it('a client that leaves during a delay: one entry, no response (status null), after the time it waited', async () => {
    stub = await startMarketStub({ count: 3, seed: 2, clock: '2026-01-01' });
    const { hostname, port } = new URL(stub.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write('GET /markets HTTP/1.1\r\nHost: x\r\nPrefer: delay=2000\r\n\r\n');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on('error', reject);
    });
    const s = stub;
    const entries = await eventually(() => s.requests(), (list) => list.length >= 1);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ path: '/markets', status: null, behaviour: ['delay=2000 (Prefer)'] });
    expect(entries[0]?.durationMs).toBeGreaterThanOrEqual(90);
    expect(entries[0]?.durationMs).toBeLessThan(2000);
  });

  it('an answer sent at once is in the journal, with its response for the HAR export, when the client has it', async () => {
    stub = await startMarketStub({ count: 3, seed: 2, clock: '2026-01-01' });
    const res = await fetch(`${stub.url}/markets`);
    const body = await res.text();
    const [entry] = await stub.requests();
    expect(entry).toMatchObject({ path: '/markets', status: 200 });
    const har = await stub.har();
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0]?.response.content.text).toBe(body);
    expect(har.log.entries[0]?.response.headers.find((h) => h.name === 'etag')?.value).toBe(res.headers.get('etag'));
  });
});
