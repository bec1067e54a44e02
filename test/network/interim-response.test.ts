// An unsolicited 1xx before the final answer is accepted (RFC 9110 §15.2: "A client MUST be able
// to parse one or more 1xx responses received prior to a final response, even if the client does
// not expect one"). undici refuses an unexpected `100 Continue` ("bad response"), so a deployment
// behind a server that sends one was a could-not-run (exit 2).
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { runCliInProcess } from '../contract/contract-report-helpers.js';
import { conformingMarket, summaryOf } from '../contract/deviant-server.js';
import { recordInto } from './record-into.js';

/** A raw deployment of one market: every answer preceded by `interim` (written in its own packet), one request per connection. */
async function withRawDeployment(interim: string, body: (url: string, requests: string[]) => Promise<void>): Promise<void> {
  const requests: string[] = [];
  const server: Server = createServer((socket: Socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const target = head.split(' ')[1] ?? '/';
      requests.push(target);
      const found = target === '/markets' ? [summaryOf(conformingMarket(1))] : target === '/markets/DEV-1' ? conformingMarket(1) : undefined;
      const text = JSON.stringify(found ?? { error: 'not found' });
      socket.write(interim);
      setTimeout(() => socket.end(`HTTP/1.1 ${found ? '200 OK' : '404 Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`), 10);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('interim 1xx answers before the final one', () => {
  it('an unsolicited 100 Continue: the run passes, reading the final answers', async () => {
    await withRawDeployment('HTTP/1.1 100 Continue\r\n\r\n', async (url, requests) => {
      const run = await runCliInProcess(['check', '--base-url', url, '--format', 'json', '--all']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as ContractReport;
      expect(report.summary.marketsChecked).toBe(1);
      expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(requests).toContain('/markets/DEV-1');
    });
  });

  it('100 then 103 Early Hints (with a Link) then the answer', async () => {
    await withRawDeployment('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n', async (url) => {
      const run = await runCliInProcess(['check', '--base-url', url, '--format', 'json', '--all']);
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as ContractReport).summary.marketsListed).toBe(1);
    });
  });

  it('record keeps the market behind a 100 Continue', async () => {
    await withRawDeployment('HTTP/1.1 100 Continue\r\n\r\n', async (url) => {
      const { run, ids } = await recordInto(url, []);
      expect(run.code).toBe(0);
      expect(ids).toEqual(['DEV-1']);
    });
  });
});
