// `proxy --upstream https://host/v1?api_key=K`: a data API that takes its key in the URL. The
// proxy sends the upstream's query on every request it forwards (the client's own value of a
// parameter wins, as `check`'s base query does), and the key never reaches the report, a finding
// or a recorded fixture.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingProxy } from '../../src/proxy/recording-proxy.js';
import { createMarketSpool } from '../../src/contract/fixture-sets/market-spool.js';
import { CLI } from '../support/cli-process.js';
import { conformingMarket, summaryOf } from './deviant-server.js';

const KEY = 'K-upstream-secret-7f3a';
let work: string;
let upstream: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-proxy-query-'));
  // Answers only requests that carry the key; DEV-3 echoes it in its title, as some APIs echo a query.
  upstream = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream.test');
    seen.push(`${url.pathname}${url.search}`);
    if (url.searchParams.get('api_key') !== KEY) {
      res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Forbidden"}');
      return;
    }
    const markets = [conformingMarket(1), conformingMarket(2), { ...conformingMarket(3), title: `Will ${KEY} leak?` }];
    const id = /^\/v1\/markets\/([^/]+)$/.exec(url.pathname)?.[1];
    const body = url.pathname === '/v1/markets' ? markets.map(summaryOf) : markets.find((m) => m['market_id'] === id);
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await rm(work, { recursive: true, force: true });
});

describe('proxy: an upstream URL with a query', () => {
  it('sends the upstream query on every forwarded request and keeps the key out of report, findings and fixtures', async () => {
    const spool = await createMarketSpool(path.join(work, 'query.spool'));
    const findings: string[] = [];
    const proxy = await startRecordingProxy({ upstream: `${base}?api_key=${KEY}`, spool, onFinding: (f) => findings.push(JSON.stringify(f)) });
    try {
      seen.length = 0;
      const list = await fetch(`${proxy.url}/markets?limit=5`);
      expect(list.status).toBe(200);
      expect((await list.json()) as unknown[]).toHaveLength(3);
      for (const id of ['DEV-1', 'DEV-2', 'DEV-3']) expect((await fetch(`${proxy.url}/markets/${id}`)).status, id).toBe(200);
      // The client's own value of the parameter wins, as with check's --base-url query.
      expect((await fetch(`${proxy.url}/markets/DEV-1?api_key=mine`)).status).toBe(403);
      expect(seen).toEqual([`/v1/markets?limit=5&api_key=${KEY}`, `/v1/markets/DEV-1?api_key=${KEY}`, `/v1/markets/DEV-2?api_key=${KEY}`, `/v1/markets/DEV-3?api_key=${KEY}`, '/v1/markets/DEV-1?api_key=mine']);
      const report = JSON.stringify(proxy.report());
      expect(report).not.toContain(KEY);
      expect(report).toContain('127.0.0.1');
      expect(findings.join('\n')).not.toContain(KEY);
      const kept: string[] = [];
      for await (const text of spool.texts(proxy.listedIds())) kept.push(text);
      expect(kept.join('\n')).not.toContain(KEY);
      expect(kept.map((t) => (JSON.parse(t) as { market_id: string }).market_id)).toEqual(['DEV-1', 'DEV-2']);
    } finally {
      await proxy.close();
      await spool.dispose();
    }
  });

  it.each(['text', 'json'])('market-stub proxy --log-format %s: the ready line, the log and the report show the key as [redacted]', async (format) => {
    const child = spawn(process.execPath, [CLI, 'proxy', '--upstream', `${base}?api_key=${KEY}`, '--port', '0', '--log-format', format], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /listening on (http:\/\/[\d.:]+)/.exec(stdout);
        if (m?.[1]) resolve(m[1]);
      });
      child.once('exit', () => reject(new Error(`proxy exited before it was ready: ${stderr}`)));
    });
    expect((await fetch(`${url}/markets`)).status).toBe(200);
    expect((await fetch(`${url}/markets/DEV-3`)).status).toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
    expect(stdout).toContain('api_key=[redacted]');
    expect(`${stdout}${stderr}`).not.toContain(KEY);
  });
});
