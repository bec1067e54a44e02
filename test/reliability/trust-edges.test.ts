import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCliProcess } from '../support/cli-process.js';
import { figure, QUICK } from './reliability-support.js';

// The edges between processes the 0.5 attack round crossed, replayed against the built CLI as a
// black box (docs/security.md): a start refused on a value that echoes a ready line must not look
// started (the one rule for readiness: only the --ready-file record names the URL), and the
// proxy's own error answers must never carry the upstream's key (the one rule for secrets in
// answers). The Fetch handler's odd requests on Bun, Deno and workerd are the runtime matrix's
// raw-socket step (scripts/test-runtimes.mjs).
let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ms-trust-edges-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Values that a launcher reading output lines could take for a ready line (or its URL). */
const ECHOES = [
  'listening on http://127.0.0.1:1/capture',
  'market-stub listening on http://127.0.0.1:9/ serving 1 market',
  'x\nmarket-stub listening on http://evil.example/',
  '{"url":"http://evil.example/","command":"serve"}',
  'listening on http://127.0.0.1:1/\r\nlistening on http://127.0.0.1:2/',
];
const FLAGS = ['--clock', '--seed', '--count', '--clock-rate', '--price-step', '--profile', '--deviation'];

describe('a refused start never looks started', () => {
  it('every echoing value of every flag: exit 2, no ready record, nothing listening', async () => {
    let cases = 0;
    const flags = QUICK ? FLAGS.slice(0, 4) : FLAGS;
    for (const flag of flags) {
      for (const [i, value] of ECHOES.entries()) {
        const ready = path.join(work, `ready-${flag.slice(2)}-${i}.json`);
        const run = await runCliProcess(['serve', '--port', '0', '--quiet', '--ready-file', ready, flag, value], { timeoutMs: 20_000 });
        expect(run.code, `${flag} ${JSON.stringify(value)}: ${run.stderr}`).toBe(2);
        expect(existsSync(ready), `${flag}: no ready record`).toBe(false);
        cases += 1;
      }
    }
    figure('refused starts', `${cases} hostile option values across ${flags.length} flags: exit 2, no ready record`);
  }, 180_000);
});

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the proxy\'s own error answers never carry the upstream key', () => {
  it('connection refused, for every route and method: 502 bodies and headers without the key', async () => {
    const key = 'k3y-in-the-url-0123456789';
    const upstream = `http://127.0.0.1:${await closedPort()}/?api_key=${key}`;
    const ready = path.join(work, 'proxy-ready.json');
    const child = spawn(process.execPath, [CLI, 'proxy', '--upstream', upstream, '--port', '0', '--ready-file', ready], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      const deadline = Date.now() + 20_000;
      while (!existsSync(ready) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const { url } = JSON.parse(await readFile(ready, 'utf8')) as { url: string };
      const targets = ['/markets', '/markets/a', '/markets?api_key=x', '/other', '/markets/%00', `/markets/${key}`];
      let answers = 0;
      for (const target of targets) {
        for (const method of ['GET', 'HEAD', 'POST']) {
          const res = await fetch(`${url}${target}`, { method });
          const text = await res.text();
          const headers = JSON.stringify([...res.headers]);
          expect(res.status, `${method} ${target}`).toBeGreaterThanOrEqual(400);
          // The key may come back only where the client itself sent it (the target's path).
          if (!target.includes(key)) expect(text + headers, `${method} ${target}`).not.toContain(key);
          answers += 1;
        }
      }
      expect(output).not.toContain(key);
      figure('proxy error answers', `${answers} answers to a refused upstream with a key in its URL: none carries the key`);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
