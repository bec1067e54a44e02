// One rule for secrets in answers (floor/redact-secrets.ts redactAnswer): every body and header
// market-stub itself writes to a client goes through the redaction the logs and reports use. A
// property test feeds generated secrets through every error path of the stub (market routes,
// admin API) and of the proxy (connection refused, no answer in time, TLS failure), over the
// wire, and finds none of them in any answer's head or body.
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMarketStub } from '../../src/index.js';
import { startRecordingProxy } from '../../src/proxy/recording-proxy.js';
import { exchange } from '../support/raw-http.js';

/** Tokens as a user would pick them: printable, no space, long enough to be told from ordinary words (MIN_SECRET). */
const TOKEN = fc.stringMatching(/^[A-Za-z0-9._~-]{12,40}$/);

/** Every form a client could read a secret in: as sent, JSON-escaped, percent-encoded. */
function leaks(answer: string, secret: string): boolean {
  return [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)].some((form) => answer.includes(form));
}

let silent: NetServer;
let silentPort: number;
let plain: Server;
let plainPort: number;
const held: Socket[] = [];

beforeAll(async () => {
  // Accepts and never answers (the proxy's 504), and a plain HTTP server (an https upstream's TLS failure).
  silent = createNetServer((socket) => held.push(socket.on('error', () => undefined)));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as AddressInfo).port;
  plain = createServer((_req, res) => res.end('plain'));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainPort = (plain.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
  await new Promise<void>((resolve) => plain.close(() => resolve()));
});

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('secrets in answers: the stub', () => {
  it('never writes the admin token into an error answer, whatever error path a request takes', async () => {
    await fc.assert(fc.asyncProperty(TOKEN, async (token) => {
      const stub = await startMarketStub({ seed: 1, count: 3, port: 0, adminToken: token });
      try {
        const port = Number(new URL(stub.url).port);
        const auth = `Authorization: Bearer ${token}\r\n`;
        const body = JSON.stringify({ status: token });
        const tickBody = JSON.stringify({ n: token });
        const requests = [
          `GET /markets/${token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
          `GET /${token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
          `GET /__stub/markets/${token} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
          `GET /__stub/requests?status=${token} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
          `GET /__stub/${token} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
          `GET /__stub/requests HTTP/1.1\r\nHost: ${token}.example\r\n${auth}\r\n`,
          `GET /__stub/requests HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Origin: http://${token}.example\r\n\r\n`,
          `PUT /__stub/behaviour HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          `POST /__stub/tick HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: ${tickBody.length}\r\n\r\n${tickBody}`,
        ];
        for (const request of requests) {
          const answer = (await exchange(port, `${request.replace(/\r\n\r\n/, '\r\nConnection: close\r\n\r\n')}`, 5_000, false)).toString('latin1');
          expect(answer, request).toMatch(/^HTTP\/1\.1 [45]\d\d /);
          expect(leaks(answer, token), `${request}\n→ ${answer}`).toBe(false);
        }
      } finally {
        await stub.close();
      }
    }), { numRuns: 8 });
  }, 120_000);
});

describe('secrets in answers: the proxy', () => {
  it('never writes the upstream URL\'s key or the client\'s credential into its 502/504 bodies', async () => {
    const refused = await closedPort();
    await fc.assert(fc.asyncProperty(TOKEN, TOKEN, fc.constantFrom('refused', 'timeout', 'tls'), async (key, credential, failure) => {
      const upstream = {
        refused: `http://127.0.0.1:${refused}/v1?api_key=${key}`,
        timeout: `http://127.0.0.1:${silentPort}/v1?api_key=${key}`,
        tls: `https://127.0.0.1:${plainPort}/v1?api_key=${key}`,
      }[failure];
      const proxy = await startRecordingProxy({ upstream, port: 0, timeoutMs: 300 });
      try {
        const port = Number(new URL(proxy.url).port);
        const answer = (await exchange(port, `GET /markets?token=${credential} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${credential}\r\nConnection: close\r\n\r\n`, 5_000, false)).toString('latin1');
        expect(answer).toMatch(failure === 'timeout' ? /^HTTP\/1\.1 504 / : /^HTTP\/1\.1 502 /);
        expect(answer).toContain('[redacted]');
        expect(leaks(answer, key), answer).toBe(false);
        expect(leaks(answer, credential), answer).toBe(false);
      } finally {
        await proxy.close();
      }
    }), { numRuns: 12 });
  }, 120_000);
});
